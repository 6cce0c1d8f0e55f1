/*
 * cpu.h - what the CPU can do, read once with cpuid (x86-64 only).
 */
#ifndef CN_CPU_H
#define CN_CPU_H

#include <stddef.h>

typedef struct cn_cpu_features {
    int popcnt; /* popcnt instruction */
    int bmi1;   /* tzcnt, blsr, andn */
    int bmi2;   /* pext, shlx, ... */
    int lzcnt;
    int slow_pext; /* pext is microcoded: AMD families 0x15-0x17, Hygon 0x18 */
} cn_cpu_features;

void cn_cpu_detect(cn_cpu_features *features);

/* One line of words, the architecture first, then each feature present:
 * "x86-64 popcnt bmi1 bmi2 lzcnt slow-pext". Tests read it to know which
 * code paths this CPU should get. */
void cn_cpu_describe(const cn_cpu_features *features, char *out, size_t size);

#endif /* CN_CPU_H */
