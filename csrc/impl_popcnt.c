/* x86-64 with popcnt (x86-64-v2 class) but no BMI2: hardware popcount,
 * magic multiply. Elsewhere this variant does not exist. */
#include "impl.h"
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,sse4.2"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC target("popcnt,sse4.2")
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
