/* x86-64-v3 bit instructions with pext-indexed slider tables: the fastest
 * path, chosen at run time on CPUs with a fast pext. */
#include "../impl.h"
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,bmi,bmi2,lzcnt"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#endif
#define CN_FAST_BITS 1
#define CN_IMPL_SYMBOL cn_impl_pext
#define CN_IMPL_NAME "pext"
#define CN_USE_PEXT 1
#include "movegen_impl.h"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
const cn_impl *const cn_impl_pext = 0;
#endif
