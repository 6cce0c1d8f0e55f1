/*
 * pgn_output.c - the growing record list and string table of a PGN read.
 * Capacities double, so appending is amortised constant time.
 */
#include "pgn_output.h"

#include <stdlib.h>
#include <string.h>

void cn_pgn_output_clear(cn_pgn_output *out) {
    out->record_count = 0;
    out->string_length = 0;
    out->games = 0;
}

void cn_pgn_output_free(cn_pgn_output *out) {
    free(out->records);
    free(out->strings);
    memset(out, 0, sizeof *out);
}

/* Grows *buffer (element size `size`) to hold `need` elements. */
static int reserve(void **buffer, size_t *capacity, size_t need, size_t size) {
    if (need <= *capacity) return 1;
    size_t next = *capacity ? *capacity : 1024;
    while (next < need) {
        if (next > ((size_t)INT32_MAX) / 2) return 0; /* offsets are int32 */
        next *= 2;
    }
    void *grown = realloc(*buffer, next * size);
    if (!grown) return 0;
    *buffer = grown;
    *capacity = next;
    return 1;
}

cn_status pgn_out_reserve_records(cn_pgn_output *out, size_t extra) {
    return reserve((void **)&out->records, &out->record_capacity, out->record_count + extra,
                   CN_PGN_RECORD_INTS * sizeof(int32_t))
               ? CN_OK
               : CN_ERR_NO_MEMORY;
}

cn_status pgn_out_grow_records(cn_pgn_output *out) { return pgn_out_reserve_records(out, 1); }

cn_status pgn_out_reserve_bytes(cn_pgn_output *out, size_t extra) {
    if (extra > (size_t)INT32_MAX ||
        !reserve((void **)&out->strings, &out->string_capacity, out->string_length + extra, 1))
        return CN_ERR_NO_MEMORY;
    return CN_OK;
}

cn_status pgn_out_bytes(cn_pgn_output *out, const char *bytes, size_t length, int32_t *offset) {
    if (length > (size_t)INT32_MAX ||
        !reserve((void **)&out->strings, &out->string_capacity, out->string_length + length, 1))
        return CN_ERR_NO_MEMORY;
    *offset = (int32_t)out->string_length;
    if (length) memcpy(out->strings + out->string_length, bytes, length);
    out->string_length += length;
    return CN_OK;
}

cn_status pgn_out_unescaped(cn_pgn_output *out, const char *bytes, size_t length, int32_t *written) {
    int32_t at;
    *written = 0;
    if (!length) return CN_OK;
    if (pgn_out_bytes(out, bytes, length, &at) != CN_OK) return CN_ERR_NO_MEMORY;
    char *dst = out->strings + at;
    size_t k = 0;
    for (size_t i = 0; i < length; i++) {
        if (bytes[i] == '\\' && i + 1 < length && (bytes[i + 1] == '"' || bytes[i + 1] == '\\')) i++;
        dst[k++] = bytes[i];
    }
    out->string_length = (size_t)at + k;
    *written = (int32_t)k;
    return CN_OK;
}

/* Which int32 of a record holds a string offset; 0: none. */
static int offset_field(int32_t op) {
    switch (op) {
    case CN_PGN_OP_TAG:
        return CN_PGN_TAG_NAME;
    case CN_PGN_OP_START:
        return CN_PGN_START_FEN;
    case CN_PGN_OP_COMMENT:
        return CN_PGN_COMMENT_TEXT;
    case CN_PGN_OP_ERROR:
        return CN_PGN_ERROR_MESSAGE;
    case CN_PGN_OP_MOVE:
        return CN_PGN_MOVE_SAN;
    case CN_PGN_OP_END:
        return CN_PGN_END_FEN;
    default:
        return 0;
    }
}

cn_status pgn_out_append(cn_pgn_output *out, const cn_pgn_output *part, uint32_t line_offset) {
    const size_t base = out->string_length;
    if (!reserve((void **)&out->records, &out->record_capacity, out->record_count + part->record_count,
                 CN_PGN_RECORD_INTS * sizeof(int32_t)) ||
        !reserve((void **)&out->strings, &out->string_capacity, base + part->string_length, 1))
        return CN_ERR_NO_MEMORY;
    /* A part without records may meet an output without memory yet: no
     * pointer arithmetic on NULL. */
    int32_t *dst = part->record_count ? out->records + out->record_count * CN_PGN_RECORD_INTS : NULL;
    if (dst) memcpy(dst, part->records, part->record_count * CN_PGN_RECORD_INTS * sizeof(int32_t));
    for (size_t i = 0; i < part->record_count; i++, dst += CN_PGN_RECORD_INTS) {
        const int field = offset_field(dst[0]);
        /* START of the standard start holds offset 0, not a string. */
        const int32_t op = dst[CN_PGN_RECORD_OP];
        if (field && (op != CN_PGN_OP_START || dst[CN_PGN_START_FEN_LENGTH] != 0)) dst[field] += (int32_t)base;
        /* Lines are uint32 in the reader, stored as int32. */
        if (op == CN_PGN_OP_GAME) dst[CN_PGN_GAME_LINE] = (int32_t)((uint32_t)dst[CN_PGN_GAME_LINE] + line_offset);
        if (op == CN_PGN_OP_WHERE) dst[CN_PGN_WHERE_LINE] = (int32_t)((uint32_t)dst[CN_PGN_WHERE_LINE] + line_offset);
    }
    if (part->string_length) memcpy(out->strings + base, part->strings, part->string_length);
    out->record_count += part->record_count;
    out->string_length += part->string_length;
    out->games += part->games;
    return CN_OK;
}
