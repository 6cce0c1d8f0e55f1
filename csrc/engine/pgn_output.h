/*
 * pgn_output.h - appending records and strings to a cn_pgn_output. Every
 * append reports CN_ERR_NO_MEMORY instead of failing silently.
 */
#ifndef CN_PGN_OUTPUT_H
#define CN_PGN_OUTPUT_H

#include "include/pgn.h"

cn_status pgn_out_record(cn_pgn_output *out, int32_t op, int32_t a, int32_t b, int32_t c);
/* Appends bytes; *offset receives where they start. */
cn_status pgn_out_bytes(cn_pgn_output *out, const char *bytes, size_t length, int32_t *offset);
/* Appends a tag value with its \" and \\ escapes removed; returns its length. */
cn_status pgn_out_unescaped(cn_pgn_output *out, const char *bytes, size_t length, int32_t *written);
/* Appends the records and strings of part, its string offsets moved to
 * where its strings land in out. */
cn_status pgn_out_append(cn_pgn_output *out, const cn_pgn_output *part);

#endif /* CN_PGN_OUTPUT_H */
