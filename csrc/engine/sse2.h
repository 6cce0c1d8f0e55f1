/*
 * sse2.h - whether the engine may use SSE2 intrinsics. Every x86-64 CPU
 * has SSE2, so where the compiler targets it (GCC and Clang define
 * __SSE2__, MSVC _M_X64) they are used with no run-time check; elsewhere
 * (arm64, or a build with SSE2 turned off) the portable code is compiled.
 */
#ifndef CN_SSE2_H
#define CN_SSE2_H

#if defined(__SSE2__) || defined(_M_X64)
#define CN_HAVE_SSE2 1
#include <emmintrin.h>
#else
#define CN_HAVE_SSE2 0
#endif

#endif
