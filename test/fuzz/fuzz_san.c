/*
 * fuzz_san.c - libFuzzer target: cn_move_from_san on arbitrary bytes.
 *
 * Input: byte 0 holds flags (bit 0: Chess960, bit 1: a FEN follows up to a
 * newline, else byte 1 picks one of fuzz_fens[]); the rest is the SAN text,
 * given with its exact length and no terminator (it is the tail of the
 * input buffer, so ASan sees any read past it). An accepted SAN must name a
 * legal move, and writing that move as SAN and parsing it again must give
 * the same move. The verdict must not depend on what follows the text.
 */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > 4096) return 0;
    const int chess960 = data[0] & 1;
    cn_position pos;
    size_t at;
    if (data[0] & 2) {
        const uint8_t *nl = memchr(data + 1, '\n', size - 1);
        if (!nl) return 0;
        size_t fen_len = (size_t)(nl - (data + 1));
        char *fen = fuzz_exact_copy(data + 1, fen_len);
        int ok = cn_fen_parse(&pos, fen, fen_len, chess960, NULL) == CN_OK;
        free(fen);
        if (!ok) return 0;
        at = 1 + fen_len + 1;
    } else {
        const fuzz_fen *f = &fuzz_fens[data[1] % FUZZ_FEN_COUNT];
        FUZZ_CHECK(cn_fen_parse(&pos, f->fen, strlen(f->fen), f->chess960 | chess960, NULL) == CN_OK, "built-in FEN");
        at = 2;
    }
    const size_t len = size - at;
    char *san = fuzz_exact_copy(data + at, len);
    const cn_position before = pos;
    cn_move move = CN_MOVE_NONE;
    cn_status st = cn_move_from_san(&pos, san, len, &move);
    FUZZ_CHECK(memcmp(&before, &pos, sizeof pos) == 0, "cn_move_from_san changed the position");
    FUZZ_CHECK(st == CN_OK || st == CN_ERR_BAD_MOVE || st == CN_ERR_ILLEGAL_MOVE, "status %d", st);

    /* Same text followed by a NUL and junk: same verdict. */
    char *padded = malloc(len + 8);
    if (len) memcpy(padded, san, len);
    memcpy(padded + len, "\0Qxh8=Q", 8);
    cn_move move2 = CN_MOVE_NONE;
    FUZZ_CHECK(cn_move_from_san(&pos, padded, len, &move2) == st && move2 == move, "verdict depends on bytes past len");
    free(padded);

    /* The same through UCI, which must also never over-read. */
    cn_move uci_move;
    cn_status ust = cn_move_from_uci(&pos, san, len, &uci_move);
    FUZZ_CHECK(ust == CN_OK || ust == CN_ERR_BAD_MOVE || ust == CN_ERR_ILLEGAL_MOVE, "uci status %d", ust);
    free(san);

    if (st == CN_OK) {
        cn_move moves[CN_MAX_MOVES];
        int n = cn_legal_moves(&pos, moves), listed = 0;
        for (int i = 0; i < n; i++) listed |= moves[i] == move;
        FUZZ_CHECK(listed, "SAN gave an illegal move 0x%04x", move);
        char out[CN_SAN_MAX];
        int olen = cn_move_to_san(&pos, move, out);
        cn_move back = CN_MOVE_NONE;
        FUZZ_CHECK(olen > 0 && cn_move_from_san(&pos, out, (size_t)olen, &back) == CN_OK && back == move,
                   "SAN round trip of 0x%04x via '%s'", move, out);
    }
    return 0;
}
