/*
 * cpu.c - run-time CPU detection. One prebuilt binary serves every x86-64
 * CPU, so instruction-set choices are made here, never with -march.
 */
#include "cpu.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#define CN_X86 1
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static void cpuid(unsigned leaf, unsigned subleaf, unsigned regs[4]) {
    int r[4];
    __cpuidex(r, (int)leaf, (int)subleaf);
    for (int i = 0; i < 4; i++) regs[i] = (unsigned)r[i];
}
#else
#include <cpuid.h>
static void cpuid(unsigned leaf, unsigned subleaf, unsigned regs[4]) {
    __cpuid_count(leaf, subleaf, regs[0], regs[1], regs[2], regs[3]);
}
#endif
#endif

void cn_cpu_detect(cn_cpu_features *f) {
    memset(f, 0, sizeof *f);
#ifdef CN_X86
    unsigned regs[4];
    cpuid(0, 0, regs);
    unsigned max_leaf = regs[0];
    char vendor[13];
    memcpy(vendor, &regs[1], 4);
    memcpy(vendor + 4, &regs[3], 4);
    memcpy(vendor + 8, &regs[2], 4);
    vendor[12] = 0;

    cpuid(1, 0, regs);
    f->popcnt = (regs[2] >> 23) & 1;
    unsigned base_family = (regs[0] >> 8) & 0xF;
    unsigned family = base_family == 0xF ? base_family + ((regs[0] >> 20) & 0xFF) : base_family;

    if (max_leaf >= 7) {
        cpuid(7, 0, regs);
        f->bmi1 = (regs[1] >> 3) & 1;
        f->bmi2 = (regs[1] >> 8) & 1;
    }
    cpuid(0x80000000u, 0, regs);
    if (regs[0] >= 0x80000001u) {
        cpuid(0x80000001u, 0, regs);
        f->lzcnt = (regs[2] >> 5) & 1;
    }
    /* Excavator and Zen 1/Zen 2 run pext in microcode, with a latency that
     * grows with the mask's bit count: far slower than a multiply there.
     * Hygon Dhyana is a Zen 1. */
    if (strcmp(vendor, "AuthenticAMD") == 0 && family >= 0x15 && family <= 0x17) f->slow_pext = 1;
    if (strcmp(vendor, "HygonGenuine") == 0 && family == 0x18) f->slow_pext = 1;
#endif
}

void cn_cpu_describe(const cn_cpu_features *f, char *out, size_t size) {
#if defined(__x86_64__) || defined(_M_X64)
    const char *arch = "x86-64";
#elif defined(__i386__) || defined(_M_IX86)
    const char *arch = "x86";
#elif defined(__aarch64__) || defined(_M_ARM64)
    const char *arch = "arm64";
#elif defined(__wasm32__)
    const char *arch = "wasm32";
#else
    const char *arch = "other";
#endif
    snprintf(out, size, "%s%s%s%s%s%s", arch, f->popcnt ? " popcnt" : "", f->bmi1 ? " bmi1" : "",
             f->bmi2 ? " bmi2" : "", f->lzcnt ? " lzcnt" : "", f->slow_pext ? " slow-pext" : "");
}
