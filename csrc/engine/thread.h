/*
 * thread.h - starting and joining one native thread (POSIX or Win32), for
 * engine code that splits work between threads of its own.
 */
#ifndef CN_THREAD_H
#define CN_THREAD_H

#include <stddef.h>

/* CN_NO_THREADS builds the engine for a sandbox with one thread and no
 * thread library (WebAssembly): no thread ever starts, a perft job runs on
 * the calling thread and a parallel PGN read reads every block itself. */
#if defined(__wasm__) && !defined(CN_NO_THREADS)
#define CN_NO_THREADS 1
#endif

#if defined(CN_NO_THREADS)
typedef int cn_thread_handle;
#elif defined(_WIN32)
#include <windows.h>
typedef HANDLE cn_thread_handle;
#else
#include <pthread.h>
typedef pthread_t cn_thread_handle;
#endif

/* One thread; stays in place from cn_thread_start to cn_thread_join. */
typedef struct cn_thread {
    cn_thread_handle handle;
    void (*run)(void *);
    void *arg;
} cn_thread;

/* Runs run(arg) on a new thread with a stack of stack_bytes. Returns 1 when
 * it started, 0 when no thread could be made (nothing runs then; always
 * under CN_NO_THREADS). */
int cn_thread_start(cn_thread *thread, void (*run)(void *), void *arg, size_t stack_bytes);
/* cn_thread_start for a short-lived thread that must run at the same time
 * as its maker: where the system lets a thread's CPUs be set (Linux), it
 * runs on any CPU the maker may use but the one the maker was on. */
int cn_thread_start_beside(cn_thread *thread, void (*run)(void *), void *arg, size_t stack_bytes);
/* Waits for a started thread to return. */
void cn_thread_join(cn_thread *thread);

#endif /* CN_THREAD_H */
