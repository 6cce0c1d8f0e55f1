/*
 * init.c - one-time, thread-safe start-up: attack tables, then the choice of
 * code path from cpuid and CHESS_NATIVE_SLIDERS. Several worker threads may
 * load the addon at once; the once-guard makes the others wait.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "include/chess_native.h"
#include "clock.h"
#include "cpu.h"
#include "impl.h"
#include "thread.h"

#if defined(CN_NO_THREADS)
static int init_done; /* one thread: a flag is the once-guard */
#elif defined(_WIN32)
#include <windows.h>
static INIT_ONCE init_once = INIT_ONCE_STATIC_INIT;
#else
#include <pthread.h>
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
#endif

/* Written once inside run_init, read-only afterwards. */
static cn_status init_status = CN_ERR_INIT;
static char init_message[160] = "cn_init() has not run";
static uint64_t init_nanoseconds;
static const cn_impl *active_impl;
static cn_cpu_features cpu_features;

int cn_impl_runnable(const cn_impl *impl) {
    if (impl == NULL) return 0;
    if (impl == cn_impl_base) return 1;
    /* Built only for AArch64, whose baseline has every instruction it uses. */
    if (impl == cn_impl_arm64) return 1;
    if (impl == cn_impl_popcnt) return cpu_features.popcnt;
    /* bmi2-magic and pext need the same instructions; pext being slow on a
     * CPU makes it a bad choice, not an impossible one. */
    return cpu_features.popcnt && cpu_features.bmi1 && cpu_features.bmi2 && cpu_features.lzcnt;
}

/* Testing hook: CHESS_NATIVE_CPU="no-bmi2,no-popcnt,slow-pext" makes this
 * CPU look older than it is, so that the dispatch and its error messages
 * can be tested on any machine. It can only take features away. */
static void hide_cpu_features(const char *spec) {
    if (!spec) return;
    if (strstr(spec, "no-popcnt")) cpu_features.popcnt = 0;
    if (strstr(spec, "no-bmi2")) cpu_features.bmi2 = 0;
    if (strstr(spec, "slow-pext")) cpu_features.slow_pext = 1;
}

static void choose_impl(void) {
    const char *forced = getenv("CHESS_NATIVE_SLIDERS");
    const cn_impl *best_magic = cn_impl_runnable(cn_impl_bmi2)     ? cn_impl_bmi2
                                : cn_impl_runnable(cn_impl_popcnt) ? cn_impl_popcnt
                                : cn_impl_runnable(cn_impl_arm64)  ? cn_impl_arm64
                                                                   : cn_impl_base;
    if (forced && *forced) {
        if (strcmp(forced, "magic") == 0) {
            active_impl = best_magic;
        } else if (strcmp(forced, "pext") == 0) {
            if (!cn_impl_runnable(cn_impl_pext)) {
                init_status = CN_ERR_UNSUPPORTED;
                snprintf(
                    init_message, sizeof init_message,
                    "CHESS_NATIVE_SLIDERS=pext, but this CPU (or build) has no BMI2 pext; use 'magic' or unset it");
                return;
            }
            active_impl = cn_impl_pext;
        } else {
            init_status = CN_ERR_UNSUPPORTED;
            snprintf(init_message, sizeof init_message, "CHESS_NATIVE_SLIDERS must be 'magic' or 'pext', not '%.40s'",
                     forced);
            return;
        }
    } else {
        active_impl = (cn_impl_runnable(cn_impl_pext) && !cpu_features.slow_pext) ? cn_impl_pext : best_magic;
    }
    init_status = CN_OK;
    snprintf(init_message, sizeof init_message, "ok");
}

#if defined(_WIN32) && !defined(CN_NO_THREADS)
static BOOL CALLBACK run_init(PINIT_ONCE once, PVOID parameter, PVOID *context) {
    (void)once;
    (void)parameter;
    (void)context;
#else
static void run_init(void) {
#endif
    uint64_t start = cn_monotonic_nanoseconds();
    char err[120];
    cn_boundary_init();
    cn_cpu_detect(&cpu_features);
    hide_cpu_features(getenv("CHESS_NATIVE_CPU"));
    if (cn_attacks_init(err, sizeof err) != CN_OK) {
        init_status = CN_ERR_INIT;
        snprintf(init_message, sizeof init_message, "attack table initialisation failed: %s", err);
    } else {
        choose_impl();
    }
    init_nanoseconds = cn_monotonic_nanoseconds() - start;
#if defined(_WIN32) && !defined(CN_NO_THREADS)
    return TRUE;
#endif
}

cn_status cn_init(void) {
#if defined(CN_NO_THREADS)
    if (!init_done) {
        init_done = 1;
        run_init();
    }
#elif defined(_WIN32)
    InitOnceExecuteOnce(&init_once, run_init, NULL, NULL);
#else
    pthread_once(&init_once, run_init);
#endif
    return init_status;
}

const char *cn_init_message(void) { return init_message; }
uint64_t cn_init_nanoseconds(void) { return init_nanoseconds; }
const cn_impl *cn_active_impl(void) { return active_impl; }
const char *cn_slider_path(void) { return active_impl && active_impl->uses_pext ? "pext" : "magic"; }
const char *cn_impl_name(void) { return active_impl ? active_impl->name : "none"; }
const char *cn_version(void) { return CN_VERSION; }
