/*
 * fuzz_moves.c - libFuzzer target: games driven by the input bytes.
 *
 * Input: byte 0 holds flags (bit 0: Chess960, bit 1: the FEN follows in the
 * input up to a newline, else byte 1 picks one of fuzz_fens[]). Each later
 * byte is an operation (top 3 bits) with an argument (low 5 bits):
 *   0-3  play legal move number (next byte) % count
 *   4    unmake one move; the position must equal, bit for bit, the one
 *        saved before that move was made
 *   5    take (arg % 8) bytes as a UCI string (exact-size copy, no NUL) and
 *        give them to cn_move_from_uci; a move it accepts must be legal,
 *        and is played when arg >= 16
 *   6    the same with (arg % 16) bytes through cn_move_from_san
 *   7    perft(1 + arg % 3) on every code path (and hashed) must agree
 *        with the sum over the legal moves
 * After every move: incremental key == fresh key, validate == CN_OK, move
 * list == the reference generator's on every code path, UCI and SAN round
 * trips, FEN round trip. At the end everything is unmade and the start
 * position must come back bit for bit.
 */
#include "fuzz_common.h"

#define MAX_PLIES 300

static cn_tt fuzz_tt;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_init();
    if (cn_tt_create(&fuzz_tt, 1u << 16, 0) != CN_OK) abort();
    return 0;
}

typedef struct game {
    cn_position pos;
    cn_position saved[MAX_PLIES];
    cn_undo undo[MAX_PLIES];
    int plies;
    cn_move moves[CN_MAX_MOVES];
    int count;
} game;

static void after_change(game *g) {
    FUZZ_CHECK(g->pos.key == cn_position_compute_key(&g->pos), "incremental key");
    FUZZ_CHECK(cn_position_validate(&g->pos) == CN_OK, "position invalid");
    g->count = fuzz_check_moves(&g->pos, g->moves);
    fuzz_check_fen_round_trip(&g->pos, g->moves, g->count);
    fuzz_check_notation(&g->pos, g->moves, g->count);
}

static void play(game *g, cn_move move) {
    if (g->plies == MAX_PLIES) return;
    int listed = 0;
    for (int i = 0; i < g->count; i++) listed |= g->moves[i] == move;
    FUZZ_CHECK(listed, "playing an unlisted move 0x%04x", move);
    g->saved[g->plies] = g->pos;
    cn_make(&g->pos, move, &g->undo[g->plies]);
    g->plies++;
    after_change(g);
}

static void undo_one(game *g) {
    if (g->plies == 0) return;
    g->plies--;
    cn_unmake(&g->pos, &g->undo[g->plies]);
    FUZZ_CHECK(memcmp(&g->pos, &g->saved[g->plies], sizeof g->pos) == 0, "unmake at ply %d not bit-identical",
               g->plies);
    g->count = cn_legal_moves(&g->pos, g->moves);
}

static void check_perft(const game *g, int depth) {
    static const uint64_t no_abort = 0;
    uint64_t expected = 0;
    if (depth == 1) {
        expected = (uint64_t)g->count;
    } else {
        for (int i = 0; i < g->count; i++) {
            cn_position c = g->pos;
            cn_undo u;
            cn_make(&c, g->moves[i], &u);
            expected += cn_perft(&c, depth - 1);
        }
    }
    for (int k = 0; k < fuzz_impl_count; k++) {
        uint64_t got = fuzz_impls[k]->perft(&g->pos, depth);
        FUZZ_CHECK(got == expected, "%s perft(%d) = %llu, sum over moves %llu", fuzz_impls[k]->name, depth,
                   (unsigned long long)got, (unsigned long long)expected);
        FUZZ_CHECK(fuzz_impls[k]->perft_full(&g->pos, depth) == expected, "%s full perft(%d)", fuzz_impls[k]->name,
                   depth);
        FUZZ_CHECK(fuzz_impls[k]->perft_hashed(&g->pos, depth, &fuzz_tt, &no_abort) == expected, "%s hashed perft(%d)",
                   fuzz_impls[k]->name, depth);
    }
    if (depth >= 1) {
        cn_move dm[CN_MAX_MOVES];
        uint64_t dc[CN_MAX_MOVES], sum = 0;
        int dn = cn_divide(&g->pos, depth, dm, dc);
        FUZZ_CHECK(dn == g->count, "divide lists %d moves, expected %d", dn, g->count);
        for (int i = 0; i < dn; i++) sum += dc[i];
        FUZZ_CHECK(sum == expected, "divide sums to %llu", (unsigned long long)sum);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static game g;
    if (size < 2 || size > 8192) return 0;
    const int chess960 = data[0] & 1;
    size_t at;
    int parsed = 0;
    if (data[0] & 2) {
        const uint8_t *nl = memchr(data + 1, '\n', size - 1);
        size_t fen_len = nl ? (size_t)(nl - (data + 1)) : size - 1;
        char *fen = fuzz_exact_copy(data + 1, fen_len);
        parsed = cn_fen_parse(&g.pos, fen, fen_len, chess960, NULL) == CN_OK;
        free(fen);
        at = 1 + fen_len + (nl ? 1 : 0);
    } else {
        const fuzz_fen *f = &fuzz_fens[data[1] % FUZZ_FEN_COUNT];
        parsed = cn_fen_parse(&g.pos, f->fen, strlen(f->fen), f->chess960 | chess960, NULL) == CN_OK;
        FUZZ_CHECK(parsed, "built-in FEN %s rejected", f->fen);
        at = 2;
    }
    if (!parsed) return 0;
    const cn_position start = g.pos;
    g.plies = 0;
    after_change(&g);

    while (at < size) {
        const unsigned op = data[at] >> 5, arg = data[at] & 31u;
        at++;
        if (op <= 3) {
            if (at >= size) break;
            unsigned choice = data[at++];
            if (g.count == 0)
                undo_one(&g);
            else
                play(&g, g.moves[choice % (unsigned)g.count]);
        } else if (op == 4) {
            undo_one(&g);
        } else if (op == 5 || op == 6) {
            size_t len = op == 5 ? arg % 8 : arg % 16;
            if (len > size - at) len = size - at;
            char *text = fuzz_exact_copy(data + at, len);
            at += len;
            cn_move move = CN_MOVE_NONE;
            const cn_position before = g.pos;
            cn_status st =
                op == 5 ? cn_move_from_uci(&g.pos, text, len, &move) : cn_move_from_san(&g.pos, text, len, &move);
            free(text);
            FUZZ_CHECK(memcmp(&before, &g.pos, sizeof before) == 0, "parsing a move changed the position");
            FUZZ_CHECK(st == CN_OK || st == CN_ERR_BAD_MOVE || st == CN_ERR_ILLEGAL_MOVE, "status %d", st);
            if (st == CN_OK && arg >= 16)
                play(&g, move);
            else if (st == CN_OK) {
                int listed = 0;
                for (int i = 0; i < g.count; i++) listed |= g.moves[i] == move;
                FUZZ_CHECK(listed, "parsed move 0x%04x is not legal", move);
            }
        } else {
            int depth = 1 + (int)(arg % 3);
            /* Keep a single input fast: depth 3 only where moves are few. */
            if (depth == 3 && g.count > 12) depth = 2;
            check_perft(&g, depth);
        }
    }
    while (g.plies > 0) undo_one(&g);
    FUZZ_CHECK(memcmp(&g.pos, &start, sizeof start) == 0, "unmaking everything did not restore the start position");
    return 0;
}
