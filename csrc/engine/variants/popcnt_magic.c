/* x86-64 with popcnt but no BMI2: hardware popcount, the magic multiply.
 * The target is popcnt alone because the run-time check (cn_impl_runnable)
 * tests only that bit: AMD K10 has popcnt without SSSE3/SSE4.1, and
 * "sse4.2" lets the compilers vectorize with those. */
#define CN_TARGET_X86  "popcnt"
#define CN_IMPL_SYMBOL cn_impl_popcnt
#define CN_IMPL_NAME   "popcnt-magic"
#define CN_USE_PEXT    0
#include "variant.h"
