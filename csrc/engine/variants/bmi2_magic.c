/* x86-64-v3 bit instructions (popcnt, bmi1, bmi2, lzcnt) with the magic
 * multiply: for CPUs whose pext is slow (AMD Zen 1/Zen 2) or when
 * CHESS_NATIVE_SLIDERS=magic forces the multiply path. */
#include "../impl.h"
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,bmi,bmi2,lzcnt"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#endif
#define CN_FAST_BITS 1
#define CN_IMPL_SYMBOL cn_impl_bmi2
#define CN_IMPL_NAME "bmi2-magic"
#define CN_USE_PEXT 0
#include "movegen_impl.h"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
const cn_impl *const cn_impl_bmi2 = 0;
#endif
