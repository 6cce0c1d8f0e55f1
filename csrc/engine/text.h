/*
 * text.h - what the engine's text parsers (FEN, lines of moves) count as
 * whitespace.
 */
#ifndef CN_TEXT_H
#define CN_TEXT_H

/* ASCII whitespace: space, \t \n \v \f \r (C's isspace in the "C" locale).
 * It separates FEN fields and the moves of a line. */
static inline int cn_is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

#endif /* CN_TEXT_H */
