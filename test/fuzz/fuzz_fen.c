/*
 * fuzz_fen.c - libFuzzer target: cn_fen_parse on arbitrary bytes.
 *
 * The input is the FEN text, given with its exact length (no terminator),
 * parsed in standard and in Chess960 mode. A rejected FEN must fill in a
 * field and a message that names it and leave the output struct untouched;
 * an accepted one must validate, carry the right key, list the same moves
 * as the reference generator on every code path, and survive a FEN round
 * trip.
 */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

static void check_one(const char *fen, size_t len, int chess960) {
    cn_position pos, before;
    memset(&pos, 0x5A, sizeof pos);
    before = pos;
    cn_fen_error err;
    memset(&err, 0x7F, sizeof err);
    cn_status status = cn_fen_parse(&pos, fen, len, chess960, &err);
    if (status != CN_OK) {
        FUZZ_CHECK(status == CN_ERR_FEN, "status %d", status);
        FUZZ_CHECK(memcmp(&pos, &before, sizeof pos) == 0, "a rejected FEN changed the position");
        FUZZ_CHECK(err.field >= CN_FEN_FIELD_COUNT && err.field <= CN_FEN_FIELD_FULLMOVE, "field %d", (int)err.field);
        FUZZ_CHECK(memchr(err.message, 0, sizeof err.message) != NULL, "message not terminated");
        const char *name = cn_fen_field_name(err.field);
        FUZZ_CHECK(strncmp(err.message, name, strlen(name)) == 0, "message '%s' does not name field %s", err.message,
                   name);
        FUZZ_CHECK(strlen(err.message) > strlen(name) + 2, "message '%s' says nothing", err.message);
        /* A NULL err must be safe too, with the same verdict. */
        FUZZ_CHECK(cn_fen_parse(&pos, fen, len, chess960, NULL) == status, "verdict depends on err");
        return;
    }
    FUZZ_CHECK(cn_position_validate(&pos) == CN_OK, "accepted FEN gives an invalid position");
    FUZZ_CHECK(pos.key == cn_position_compute_key(&pos), "key of a parsed position");
    FUZZ_CHECK(pos.chess960 == (chess960 ? 1 : 0), "chess960 flag");
    for (int i = 0; i < 6; i++) FUZZ_CHECK(pos.reserved[i] == 0, "reserved byte %d set", i);
    cn_move moves[CN_MAX_MOVES];
    int n = fuzz_check_moves(&pos, moves);
    fuzz_check_fen_round_trip(&pos, moves, n);
    fuzz_check_notation(&pos, moves, n);
    for (int i = 0; i < n; i++) fuzz_check_make_unmake(&pos, moves[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    char *fen = fuzz_exact_copy(data, size);
    check_one(fen, size, 0);
    check_one(fen, size, 1);
    free(fen);
    return 0;
}
