/*
 * clock.c - cn_monotonic_nanoseconds (see clock.h).
 */
/* clock_gettime is POSIX: glibc and musl hide it under -std=c11 unless it is
 * asked for; macOS (10.12 and later) declares it by default. */
#if !defined(_WIN32) && !defined(__APPLE__) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "clock.h"

#ifdef _WIN32
#include <windows.h>

uint64_t cn_monotonic_nanoseconds(void) {
    LARGE_INTEGER counter, frequency;
    QueryPerformanceCounter(&counter);
    QueryPerformanceFrequency(&frequency);
    /* Whole seconds and the remainder apart: ticks * 1e9 would overflow 64
     * bits after about 30 minutes of uptime at the usual 10 MHz. */
    const uint64_t ticks = (uint64_t)counter.QuadPart, per_second = (uint64_t)frequency.QuadPart;
    return ticks / per_second * 1000000000u + ticks % per_second * 1000000000u / per_second;
}
#else
#include <time.h>

uint64_t cn_monotonic_nanoseconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif
