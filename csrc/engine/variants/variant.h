/*
 * variant.h - compiles the hot code once for one CPU target.
 *
 * Each .c file in this folder is one variant: it names its target and code
 * path, then includes this header, which turns that instruction set on for
 * every function that follows and defines the variant's cn_impl. cn_init
 * picks one variant at run time; the rest of the binary stays baseline, so
 * one build runs on every CPU of its architecture. The including file
 * defines:
 *   CN_IMPL_SYMBOL   the cn_impl pointer to define (cn_impl_pext, ...)
 *   CN_IMPL_NAME     the code path's printable name ("pext", "bmi2-magic", ...)
 *   CN_USE_PEXT      1 to index the slider tables with pext, else 0
 * and at most one target:
 *   CN_TARGET_X86    the x86-64 instruction sets, as a target string
 *                    ("popcnt,bmi,bmi2,lzcnt"): built for x86-64 only
 *   CN_TARGET_ARM64  AArch64 only; its baseline has the hardware popcount
 *   neither          the portable build, for any CPU
 * Where the compiler or the architecture cannot build a variant, its pointer
 * is NULL and cn_impl_runnable() says no.
 */
#if defined(CN_TARGET_X86)
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#define CN_VARIANT_BUILT 1
#define CN_FAST_BITS     1
/* MSVC needs no pragma: it emits these instructions for their intrinsics
 * whatever the target. */
#define CN_PRAGMA(text)          _Pragma(#text)
#define CN_EXPANDED_PRAGMA(text) CN_PRAGMA(text)
#if defined(__clang__)
CN_EXPANDED_PRAGMA(clang attribute push(__attribute__((target(CN_TARGET_X86))), apply_to = function))
#define CN_VARIANT_POP_TARGET 1
#elif defined(__GNUC__)
CN_EXPANDED_PRAGMA(GCC target(CN_TARGET_X86))
#endif
#endif
#elif defined(CN_TARGET_ARM64)
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define CN_VARIANT_BUILT 1
#define CN_FAST_BITS     1
#endif
#else
#define CN_VARIANT_BUILT 1
#endif

/* Everything below, the engine headers' inline helpers included, is
 * compiled for the target. */
#if defined(CN_VARIANT_BUILT)
#include "movegen_impl.h"
#include "copy_make.h"
#include "perft_impl.h"
#include "sorted_moves.h"

static const cn_impl variant = {
    CN_IMPL_NAME, CN_USE_PEXT,     impl_generate, impl_generate_sorted, impl_count,
    impl_perft,   impl_perft_full, impl_divide,   impl_perft_hashed,
};
const cn_impl *const CN_IMPL_SYMBOL = &variant;
#else
#include "../impl.h"
const cn_impl *const CN_IMPL_SYMBOL = 0;
#endif

#if defined(CN_VARIANT_POP_TARGET)
_Pragma("clang attribute pop")
#endif
