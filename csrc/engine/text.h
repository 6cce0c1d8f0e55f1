/*
 * text.h - what the engine's text parsers (FEN, lines of moves) count as
 * whitespace.
 */
#ifndef CN_TEXT_H
#define CN_TEXT_H

/* ASCII whitespace: space, \t \n \v \f \r (C's isspace in the "C" locale).
 * It separates FEN fields and the moves of a line. */
static inline int cn_is_space(char c) {
    const unsigned byte = (unsigned char)c;
    return byte <= ' ' && ((0x100003E00ULL >> byte) & 1u); /* bits 9-13 and 32 */
}

#endif /* CN_TEXT_H */
