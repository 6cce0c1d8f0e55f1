/* x86-64-v3 bit instructions (popcnt, bmi1, bmi2, lzcnt) with the magic
 * multiply: for CPUs whose pext is slow (AMD Zen 1/Zen 2) or when
 * CHESS_NATIVE_SLIDERS=magic forces the multiply path. */
#define CN_TARGET_X86  "popcnt,bmi,bmi2,lzcnt"
#define CN_IMPL_SYMBOL cn_impl_bmi2
#define CN_IMPL_NAME   "bmi2-magic"
#define CN_USE_PEXT    0
#include "variant.h"
