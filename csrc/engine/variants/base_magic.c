/* Baseline: any CPU, portable popcount, the magic multiply. */
#define CN_IMPL_SYMBOL cn_impl_base
#define CN_IMPL_NAME   "base-magic"
#define CN_USE_PEXT    0
#include "variant.h"
