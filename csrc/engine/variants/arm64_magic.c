/* AArch64: hardware popcount (CNT, baseline ARMv8-A) and the magic multiply.
 * No target pragma is needed: every AArch64 core has these instructions. */
#define CN_TARGET_ARM64 1
#define CN_IMPL_SYMBOL  cn_impl_arm64
#define CN_IMPL_NAME    "arm64-magic"
#define CN_USE_PEXT     0
#include "variant.h"
