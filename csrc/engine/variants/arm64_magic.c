/* AArch64: hardware popcount (CNT, baseline ARMv8-A) and the magic multiply.
 * No target pragma is needed: every AArch64 core has these instructions. */
#include "../impl.h"
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define CN_FAST_BITS 1
#define CN_IMPL_SYMBOL cn_impl_arm64
#define CN_IMPL_NAME "arm64-magic"
#define CN_USE_PEXT 0
#include "movegen_impl.h"
#else
const cn_impl *const cn_impl_arm64 = 0;
#endif
