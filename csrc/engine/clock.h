/*
 * clock.h - the one clock the engine and its tests time intervals with.
 */
#ifndef CN_CLOCK_H
#define CN_CLOCK_H

#include <stdint.h>

/* Nanoseconds from an arbitrary fixed start: monotonic, so differences are
 * elapsed time even when the wall clock is set. QueryPerformanceCounter on
 * Windows, clock_gettime(CLOCK_MONOTONIC) elsewhere. */
uint64_t cn_monotonic_nanoseconds(void);

#endif /* CN_CLOCK_H */
