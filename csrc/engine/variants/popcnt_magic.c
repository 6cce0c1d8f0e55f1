/* x86-64 with popcnt but no BMI2: hardware popcount, magic multiply.
 * Elsewhere this variant does not exist. The target is popcnt alone because
 * the run-time check (cn_impl_runnable) tests only that bit: AMD K10 has
 * popcnt without SSSE3/SSE4.1, and "sse4.2" lets the compilers vectorize
 * with those. */
#include "../impl.h"
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC target("popcnt")
#endif
#define CN_FAST_BITS 1
#define CN_IMPL_SYMBOL cn_impl_popcnt
#define CN_IMPL_NAME "popcnt-magic"
#define CN_USE_PEXT 0
#include "movegen_impl.h"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
const cn_impl *const cn_impl_popcnt = 0;
#endif
