/* x86-64-v3 bit instructions with pext-indexed slider tables: the fastest
 * path, chosen at run time on CPUs with a fast pext. */
#define CN_TARGET_X86  "popcnt,bmi,bmi2,lzcnt"
#define CN_IMPL_SYMBOL cn_impl_pext
#define CN_IMPL_NAME   "pext"
#define CN_USE_PEXT    1
#include "variant.h"
