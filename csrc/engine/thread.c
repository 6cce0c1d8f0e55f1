/*
 * thread.c - cn_thread_start / cn_thread_join (thread.h).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* pthreads */
#endif

#include "thread.h"

#include <stdint.h>

#ifdef _WIN32
#include <process.h>

static unsigned __stdcall thread_main(void *arg) {
    cn_thread *thread = arg;
    thread->run(thread->arg);
    return 0;
}

int cn_thread_start(cn_thread *thread, void (*run)(void *), void *arg, size_t stack_bytes) {
    thread->run = run;
    thread->arg = arg;
    const uintptr_t handle = _beginthreadex(NULL, (unsigned)stack_bytes, thread_main, thread, 0, NULL);
    if (handle == 0) return 0;
    thread->handle = (HANDLE)handle;
    return 1;
}

void cn_thread_join(cn_thread *thread) {
    WaitForSingleObject(thread->handle, INFINITE);
    CloseHandle(thread->handle);
}
#else
static void *thread_main(void *arg) {
    cn_thread *thread = arg;
    thread->run(thread->arg);
    return NULL;
}

int cn_thread_start(cn_thread *thread, void (*run)(void *), void *arg, size_t stack_bytes) {
    thread->run = run;
    thread->arg = arg;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return 0;
    pthread_attr_setstacksize(&attr, stack_bytes);
    const int rc = pthread_create(&thread->handle, &attr, thread_main, thread);
    pthread_attr_destroy(&attr);
    return rc == 0;
}

void cn_thread_join(cn_thread *thread) { pthread_join(thread->handle, NULL); }
#endif
