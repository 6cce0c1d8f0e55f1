/*
 * atomics.h - the few atomic operations the engine's threaded code needs,
 * on GCC/Clang builtins or MSVC's Interlocked functions.
 */
#ifndef CN_ATOMICS_H
#define CN_ATOMICS_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
/* Interlocked operations are full barriers; plain aligned 64-bit loads and
 * stores are atomic on x64, and the compiler barrier keeps their order. */
static inline uint64_t cn_atomic_add(uint64_t *ptr, uint64_t value) {
    return (uint64_t)_InterlockedExchangeAdd64((volatile __int64 *)ptr, (__int64)value) + value;
}
static inline uint64_t cn_atomic_load_acquire(const uint64_t *ptr) {
    uint64_t value = *(volatile const uint64_t *)ptr;
    _ReadWriteBarrier();
    return value;
}
static inline void cn_atomic_store_release(uint64_t *ptr, uint64_t value) {
    _ReadWriteBarrier();
    *(volatile uint64_t *)ptr = value;
}
#else
/* Returns the new value. acq_rel so that the thread that takes a counter to
 * zero sees everything the others wrote before their decrements. */
static inline uint64_t cn_atomic_add(uint64_t *ptr, uint64_t value) {
    return __atomic_add_fetch(ptr, value, __ATOMIC_ACQ_REL);
}
static inline uint64_t cn_atomic_load_acquire(const uint64_t *ptr) { return __atomic_load_n(ptr, __ATOMIC_ACQUIRE); }
static inline void cn_atomic_store_release(uint64_t *ptr, uint64_t value) {
    __atomic_store_n(ptr, value, __ATOMIC_RELEASE);
}
#endif
/* Wraps: adding 2^64 - 1 subtracts one. */
#define CN_ATOMIC_SUB_ONE(ptr) cn_atomic_add((ptr), UINT64_MAX)

#endif /* CN_ATOMICS_H */
