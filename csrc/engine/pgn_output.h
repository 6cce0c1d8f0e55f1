/*
 * pgn_output.h - appending records and strings to a cn_pgn_output. Every
 * append reports CN_ERR_NO_MEMORY instead of failing silently.
 */
#ifndef CN_PGN_OUTPUT_H
#define CN_PGN_OUTPUT_H

#include "include/boundary.h"
#include "include/pgn.h"

/* Room for one more record (pgn_out_record's slow path). */
cn_status pgn_out_grow_records(cn_pgn_output *out);

/* Inline: a record is appended for nearly every token. a, b and c are the
 * op's fields in the order of its slot list (boundary.h). */
static inline cn_status pgn_out_record(cn_pgn_output *out, int32_t op, int32_t a, int32_t b, int32_t c) {
    if (out->record_count == out->record_capacity && pgn_out_grow_records(out) != CN_OK) return CN_ERR_NO_MEMORY;
    int32_t *r = out->records + out->record_count++ * CN_PGN_RECORD_INTS;
    r[CN_PGN_RECORD_OP] = op;
    r[CN_PGN_RECORD_A] = a;
    r[CN_PGN_RECORD_B] = b;
    r[CN_PGN_RECORD_C] = c;
    return CN_OK;
}
/* Room for `extra` more bytes at out->strings + out->string_length, for a
 * string written in place. */
cn_status pgn_out_reserve_bytes(cn_pgn_output *out, size_t extra);
/* ... tested inline first: there mostly is room (one call a move). */
static inline cn_status pgn_out_room(cn_pgn_output *out, size_t extra) {
    return out->string_capacity - out->string_length >= extra ? CN_OK : pgn_out_reserve_bytes(out, extra);
}
/* Room for `extra` more records. */
cn_status pgn_out_reserve_records(cn_pgn_output *out, size_t extra);
/* Appends bytes; *offset receives where they start. */
cn_status pgn_out_bytes(cn_pgn_output *out, const char *bytes, size_t length, int32_t *offset);
/* Appends a tag value with its \" and \\ escapes removed; returns its length. */
cn_status pgn_out_unescaped(cn_pgn_output *out, const char *bytes, size_t length, int32_t *written);
/* Appends the records and strings of part, its string offsets moved to
 * where its strings land in out and line_offset added to its lines. */
cn_status pgn_out_append(cn_pgn_output *out, const cn_pgn_output *part, uint32_t line_offset);

#endif /* CN_PGN_OUTPUT_H */
