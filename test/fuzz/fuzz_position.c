/*
 * fuzz_position.c - libFuzzer target: cn_position structs that did not come
 * from the FEN parser (as the binding copies them in from JS memory).
 *
 * Byte 0 picks the mode. Odd: the rest is copied raw over a zeroed struct.
 * Even: a struct is built from the bytes, which reaches valid positions far
 * more often: byte 1 side, 2 castling, 3 ep square, 4-7 castle rooks, 8
 * chess960, 9-10 halfmove, 11-14 fullmove, then (square, piece) pairs
 * (piece: bits 0-2 type, 6 and 7 = junk in one bitboard only; bit 3 colour;
 * bit 4 also set the other colour). Bad structs must be rejected by
 * cn_position_validate without a crash; for every struct it accepts, move
 * generation must match the reference on every path, perft(2) must agree
 * across paths, make/unmake must be exact, cn_fen_write must not crash and
 * its FEN must parse back to the same position.
 */
#include <stddef.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

static void build(cn_position *p, const uint8_t *d, size_t n) {
    memset(p, 0, sizeof *p);
    uint8_t h[15] = {0};
    memcpy(h, d, n < sizeof h ? n : sizeof h);
    p->side = h[1];
    p->castling = h[2];
    p->ep_square = h[3];
    memcpy(p->castle_rook, h + 4, 4);
    p->chess960 = h[8];
    p->halfmove = (uint16_t)(h[9] | h[10] << 8);
    p->fullmove = (uint32_t)h[11] | (uint32_t)h[12] << 8 | (uint32_t)h[13] << 16 | (uint32_t)h[14] << 24;
    for (size_t i = sizeof h; i + 1 < n; i += 2) {
        unsigned square = d[i] & 63u, type = d[i + 1] & 7u, color = (d[i + 1] >> 3) & 1u;
        uint64_t b = 1ULL << square;
        if (type < 6) p->by_type[type] |= b;
        if (type != 7) p->by_color[color] |= b;
        if (d[i + 1] & 16u) p->by_color[color ^ 1] |= b;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 512) return 0;
    cn_position p;
    if (data[0] & 1) {
        /* Up to the end of reserved[]: the struct's 4 bytes of tail
         * padding are not data (the binding's buffers keep them zero). */
        const size_t data_bytes = offsetof(cn_position, reserved) + sizeof p.reserved;
        memset(&p, 0, sizeof p);
        memcpy(&p, data + 1, size - 1 < data_bytes ? size - 1 : data_bytes);
    } else {
        build(&p, data, size);
    }
    const cn_position before = p;
    cn_status st = cn_position_validate(&p);
    FUZZ_CHECK(memcmp(&before, &p, sizeof p) == 0, "validate changed the struct");
    if (st != CN_OK) {
        FUZZ_CHECK(st == CN_ERR_BAD_POSITION, "status %d", st);
        return 0;
    }
    /* The key is not part of validation; the engine's make/unmake keep
     * whatever is there consistent relative to it, so make it right. */
    p.key = cn_position_compute_key(&p);

    cn_move moves[CN_MAX_MOVES];
    int n = fuzz_check_moves(&p, moves);
    for (int i = 0; i < n; i++) fuzz_check_make_unmake(&p, moves[i]);
    uint64_t expected = 0;
    for (int i = 0; i < n; i++) {
        cn_position c = p;
        cn_undo u;
        cn_make(&c, moves[i], &u);
        expected += (uint64_t)cn_count_legal_moves(&c);
    }
    for (int k = 0; k < fuzz_impl_count; k++)
        FUZZ_CHECK(fuzz_impls[k]->perft(&p, 2) == expected, "%s perft(2)", fuzz_impls[k]->name);
    char fen[128];
    size_t len = cn_fen_write(&p, fen, sizeof fen);
    FUZZ_CHECK(len < 100, "FEN length %zu", len);
    fuzz_check_fen_round_trip(&p, moves, n);
    fuzz_check_notation(&p, moves, n);
    return 0;
}
