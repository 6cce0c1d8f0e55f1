/*
 * engine_test.c - the engine's own tests, without Node.
 *
 *   engine_test --perft-dir DIR [--max-nodes N]
 *
 * DIR holds the perft suites (test/data; `make run` passes PERFT_DIR from
 * test/engine.mk).
 * Runs: concurrent init, table determinism, every slider entry against the
 * ray walk (multiply and hardware pext), FEN parsing and errors, a slow
 * reference move generator against the fast one, make/unmake symmetry and
 * incremental keys on every suite move, the perft suites at every depth
 * whose count is <= --max-nodes, on every code path this CPU can run, and
 * the tests of the files included below (SAN, PGN, split, perft job, table).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#endif

#include "attacks.h"
#include "chess_native.h"
#include "clock.h"
#include "impl.h"
#include "zobrist.h"
#include "reference_movegen.h"
#include "suite.h"
#include "san_test.c"
#include "pgn_test.c"
#include "relaxed_test.c"
#include "perft_job_test.c"
#include "split_test.c"
#include "tt_test.c"

static int failures;
static int checks;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        checks++;                                                                                                      \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                       \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

static double seconds_now(void) { return cn_monotonic_nanoseconds() / 1e9; }

/* --- init ---------------------------------------------------------------- */

/* The threads are the platform's own, like the engine's once-guard. */
#ifdef _WIN32
static DWORD WINAPI init_thread(LPVOID arg) {
    *(cn_status *)arg = cn_init();
    return 0;
}
#else
static void *init_thread(void *arg) {
    *(cn_status *)arg = cn_init();
    return NULL;
}
#endif

static void test_concurrent_init(void) {
    cn_status statuses[8] = {CN_ERR_INIT, CN_ERR_INIT, CN_ERR_INIT, CN_ERR_INIT,
                             CN_ERR_INIT, CN_ERR_INIT, CN_ERR_INIT, CN_ERR_INIT};
#ifdef _WIN32
    HANDLE threads[8];
    for (int i = 0; i < 8; i++) threads[i] = CreateThread(NULL, 0, init_thread, &statuses[i], 0, NULL);
    for (int i = 0; i < 8; i++) CHECK(threads[i] != NULL, "thread %d: CreateThread failed", i);
    for (int i = 0; i < 8; i++) {
        if (threads[i] == NULL) continue;
        WaitForSingleObject(threads[i], INFINITE);
        CloseHandle(threads[i]);
    }
#else
    pthread_t threads[8];
    int created[8];
    for (int i = 0; i < 8; i++) created[i] = pthread_create(&threads[i], NULL, init_thread, &statuses[i]) == 0;
    for (int i = 0; i < 8; i++) CHECK(created[i], "thread %d: pthread_create failed", i);
    for (int i = 0; i < 8; i++)
        if (created[i]) pthread_join(threads[i], NULL);
#endif
    for (int i = 0; i < 8; i++) CHECK(statuses[i] == CN_OK, "init in thread %d: %s", i, cn_init_message());
    printf("init: %.3f ms, active path %s (%s sliders)\n", cn_init_nanoseconds() / 1e6, cn_impl_name(),
           cn_slider_path());
}

static uint64_t table_checksum(void) {
    uint64_t sum = 0;
#if CN_PEXT_TABLES
    const cn_slider_table *tables[] = {&cn_rook_magics, &cn_bishop_magics, &cn_rook_pext, &cn_bishop_pext};
#else
    const cn_slider_table *tables[] = {&cn_rook_magics, &cn_bishop_magics};
#endif
    for (unsigned sq = 0; sq < 64; sq++) {
        for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
            const cn_slider_table *table = tables[t];
            sum = sum * 31 + CN_SLIDER(table, sq, mask);
            sum = sum * 31 + CN_SLIDER(table, sq, magic);
            sum = sum * 31 + CN_SLIDER(table, sq, shift);
            size_t size = (size_t)1 << (64 - (CN_SLIDER(table, sq, magic)
                                                  ? CN_SLIDER(table, sq, shift)
                                                  : 64 - (unsigned)__builtin_popcountll(CN_SLIDER(table, sq, mask))));
            for (size_t i = 0; i < size; i++) sum = sum * 1099511628211ULL + CN_SLIDER(table, sq, attacks)[i];
        }
    }
    return sum;
}

static void test_init_determinism(void) {
    uint64_t first = table_checksum();
    char err[120];
    /* Rebuilding is safe here: no other thread reads the tables meanwhile. */
    CHECK(cn_attacks_init(err, sizeof err) == CN_OK, "second table build failed: %s", err);
    CHECK(table_checksum() == first, "two table builds differ");
}

#if defined(__x86_64__)
__attribute__((target("bmi2"))) static bitboard pext_lookup(const cn_slider_table *t, unsigned square,
                                                            bitboard occupied) {
    return CN_SLIDER(t, square, attacks)[__builtin_ia32_pext_di(occupied, CN_SLIDER(t, square, mask))];
}
#endif

static void test_sliders_against_ray_walk(int have_pext) {
    long entries = 0;
    for (unsigned sq = 0; sq < 64; sq++) {
        for (int rook = 0; rook < 2; rook++) {
            const cn_slider_table *m = rook ? &cn_rook_magics : &cn_bishop_magics;
#if defined(__x86_64__)
            const cn_slider_table *p = rook ? &cn_rook_pext : &cn_bishop_pext;
#endif
            bitboard occ = 0;
            int bad = 0;
            do {
                bitboard expected = rook ? cn_rook_attacks_slow(sq, occ) : cn_bishop_attacks_slow(sq, occ);
                /* Outside-mask bits must not matter: add some. */
                bitboard noisy = occ | (~CN_SLIDER(m, sq, mask) & 0x0F0F0F0F0F0F0F0FULL & ~bb_square(sq));
                bitboard via_magic = CN_SLIDER(m, sq, attacks)[cn_magic_index(m, sq, noisy)];
                if (via_magic != expected) bad++;
#if defined(__x86_64__)
                if (have_pext && pext_lookup(p, sq, noisy) != expected) bad++;
#endif
                entries++;
                occ = (occ - CN_SLIDER(m, sq, mask)) & CN_SLIDER(m, sq, mask);
            } while (occ);
            CHECK(bad == 0, "%s square %u: %d lookups differ from the ray walk", rook ? "rook" : "bishop", sq, bad);
        }
    }
    printf("sliders: %ld occupancies checked against the ray walk (%s)\n", entries,
           have_pext ? "multiply and pext" : "multiply only");
}

/* The engine's variants, fastest first (NULL where not built). */
#define VARIANT_COUNT 5
static const cn_impl *engine_variant(int k) {
    const cn_impl *variants[VARIANT_COUNT] = {cn_impl_pext, cn_impl_bmi2, cn_impl_popcnt, cn_impl_arm64, cn_impl_base};
    return variants[k];
}

/* --- FEN ----------------------------------------------------------------- */

typedef struct fen_error_case {
    const char *fen;
    const char *field;
} fen_error_case;

/* cn_fen_parse_moves against cn_fen_parse then cn_legal_moves_sorted: the
 * same status, error, position and moves; on an error moves and count
 * untouched. */
static void check_fen_parse_moves(const char *fen, size_t len, int chess960) {
    cn_position want, got;
    cn_fen_error want_err = {CN_FEN_FIELD_COUNT, ""}, got_err = {CN_FEN_FIELD_COUNT, ""};
    cn_move want_moves[CN_MAX_MOVES], got_moves[CN_MAX_MOVES];
    memset(&want, 0xAB, sizeof want);
    memset(&got, 0xAB, sizeof got);
    memset(got_moves, 0xCD, sizeof got_moves);
    int count = -1;
    const cn_status want_status = cn_fen_parse(&want, fen, len, chess960, &want_err);
    const cn_status got_status = cn_fen_parse_moves(&got, fen, len, chess960, &got_err, got_moves, &count);
    CHECK(got_status == want_status && memcmp(&got, &want, sizeof got) == 0,
          "'%.*s': cn_fen_parse_moves parsed otherwise", (int)len, fen);
    if (want_status != CN_OK) {
        CHECK(got_err.field == want_err.field && strcmp(got_err.message, want_err.message) == 0,
              "'%.*s': cn_fen_parse_moves failed with '%s', cn_fen_parse with '%s'", (int)len, fen, got_err.message,
              want_err.message);
        CHECK(count == -1 && got_moves[0] == 0xCDCD, "'%.*s': cn_fen_parse_moves wrote moves on an error", (int)len,
              fen);
        return;
    }
    const int n = cn_legal_moves_sorted(&want, want_moves);
    CHECK(count == n && memcmp(got_moves, want_moves, sizeof(cn_move) * (size_t)n) == 0,
          "'%.*s': cn_fen_parse_moves listed other moves", (int)len, fen);
}

/* Parses a corrupted FEN; whatever it accepts must be a valid position
 * with the right key. Returns 1 when accepted. */
static int accepted_valid(const char *fen, size_t len, int chess960) {
    cn_position pos;
    check_fen_parse_moves(fen, len, chess960);
    if (cn_fen_parse(&pos, fen, len, chess960, NULL) != CN_OK) return 0;
    CHECK(cn_position_validate(&pos) == CN_OK, "'%.*s' parsed to an invalid position", (int)len, fen);
    CHECK(pos.key == cn_position_compute_key(&pos), "'%.*s' parsed with a wrong key", (int)len, fen);
    return 1;
}

static void test_fen_errors(void) {
    static const fen_error_case cases[] = {
        {"", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "board"},
        /* A wrong field count is reported before a bad board. */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq", "fields"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "fields"},
        {"  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\r\nKQkq  -  0 1 ", NULL}, /* any separators */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\t\t", "fields"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "board"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1", "board"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1", "board"},
        {"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
        {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
        {"k7/pp6/8/8/QQQQQQQQ/QQQQQQQQ/8/7K w - - 0 1", "board"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn"},
        {"rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPQPPP/RNB1KBNR w KQkq - 0 1", NULL}, /* legal: control */
        {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "turn"},                          /* black in check, white to move */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "castling"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", "castling"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhe - 0 1", "castling"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", NULL}, /* Shredder-FEN */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "enPassant"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "enPassant"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "enPassant"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq x 0 1", "enPassant"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "fullmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", "fullmove"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cn_position pos, before;
        memset(&pos, 0xAB, sizeof pos);
        before = pos;
        cn_fen_error err = {CN_FEN_FIELD_COUNT, ""};
        cn_status status = cn_fen_parse(&pos, cases[i].fen, strlen(cases[i].fen), 0, &err);
        check_fen_parse_moves(cases[i].fen, strlen(cases[i].fen), 0);
        if (cases[i].field == NULL) {
            CHECK(status == CN_OK, "'%s' should parse: %s", cases[i].fen, err.message);
            continue;
        }
        CHECK(status == CN_ERR_FEN, "'%s' should fail", cases[i].fen);
        CHECK(strcmp(cn_fen_field_name(err.field), cases[i].field) == 0, "'%s': field %s, expected %s (%s)",
              cases[i].fen, cn_fen_field_name(err.field), cases[i].field, err.message);
        CHECK(strncmp(err.message, cases[i].field, strlen(cases[i].field)) == 0, "message '%s' should name field %s",
              err.message, cases[i].field);
        CHECK(memcmp(&pos, &before, sizeof pos) == 0, "'%s': failed parse changed the position", cases[i].fen);
    }
    /* Every prefix and single-byte corruption of a FEN: no crash, no read
     * past len (run under ASan to make the second part meaningful). */
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    size_t len = strlen(fen);
    for (size_t cut = 0; cut <= len; cut++) {
        char *copy = malloc(cut ? cut : 1);
        memcpy(copy, fen, cut);
        cn_position pos;
        cn_status status = cn_fen_parse(&pos, copy, cut, 0, NULL);
        if (status == CN_OK)
            CHECK(cn_position_validate(&pos) == CN_OK, "prefix %zu parsed to an invalid position", cut);
        free(copy);
    }
    char mutated[128];
    int accepted = 0;
    for (size_t at = 0; at < len; at++) {
        for (int byte = 0; byte < 256; byte++) {
            memcpy(mutated, fen, len);
            mutated[at] = (char)byte;
            accepted += accepted_valid(mutated, len, byte & 1);
        }
    }
    /* Two changes at once, drawn from the characters a board is made of
     * (and a few it is not): every kind of near miss in the board field.
     * Whatever parses must be a valid position with the right key. */
    static const char board_chars[] = "pnbrqkPNBRQK12345678/ 09x\t";
    const size_t board_length = (size_t)(strchr(fen, ' ') - fen);
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    int pairs = 0, pairs_accepted = 0;
    for (size_t at = 0; at < board_length; at++) {
        for (size_t c = 0; c < sizeof board_chars - 1; c++) {
            for (int k = 0; k < 8; k++) {
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                memcpy(mutated, fen, len);
                mutated[at] = board_chars[c];
                mutated[seed % board_length] = board_chars[(seed >> 32) % (sizeof board_chars - 1)];
                pairs++;
                pairs_accepted += accepted_valid(mutated, len, 0);
            }
        }
    }
    printf("fen: %zu error cases, %zu x 256 mutations (%d accepted), %d double mutations (%d accepted); all valid\n",
           sizeof cases / sizeof cases[0], len, accepted, pairs, pairs_accepted);
}

/* write -> parse gives the same struct (clocks, key and all), and writing
 * again gives the same text. */
static void test_fen_round_trip_position(const cn_position *pos, const char *label) {
    cn_position again;
    cn_fen_error err;
    char out[128];
    cn_fen_write(pos, out, sizeof out);
    CHECK(cn_fen_parse(&again, out, strlen(out), pos->chess960, &err) == CN_OK, "re-parse of '%s': %s", out,
          err.message);
    /* The one allowed change: an en-passant square kept for the Polyglot
     * key (a pawn attacks it) but not written, since the capture is illegal. */
    cn_position expected = *pos;
    cn_move moves[CN_MAX_MOVES];
    int n = cn_legal_moves(pos, moves), ep_legal = 0;
    for (int i = 0; i < n; i++) ep_legal |= cn_move_kind(moves[i]) == CN_MOVE_EN_PASSANT;
    if (!ep_legal && expected.ep_square != CN_NO_SQUARE) {
        expected.ep_square = CN_NO_SQUARE;
        expected.key = cn_position_compute_key(&expected);
    }
    CHECK(memcmp(&expected, &again, sizeof again) == 0, "%s: round trip via '%s' changed the position", label, out);
    char out2[128];
    cn_fen_write(&again, out2, sizeof out2);
    CHECK(strcmp(out, out2) == 0, "FEN output not canonical: '%s' vs '%s'", out, out2);
    /* EPD: the FEN up to its fourth field, with its length returned. */
    char epd[CN_FEN_WRITE_MAX];
    const size_t epd_length = cn_epd_write(pos, epd, sizeof epd);
    const char *clocks = out;
    for (int spaces = 0; spaces < 4; clocks++) spaces += *clocks == ' ';
    CHECK(epd_length == strlen(epd) && epd_length == (size_t)(clocks - 1 - out) && strncmp(epd, out, epd_length) == 0,
          "%s: EPD '%s' is not the FEN '%s' without its clocks", label, epd, out);
}

/* Fast generator == reference on this position; make/unmake symmetry and
 * incremental key for every move. Returns the number of legal moves. */
static void check_position_moves(const cn_position *pos, const char *fen) {
    cn_move fast[CN_MAX_MOVES], slow[CN_MAX_MOVES * 2];
    int nf = cn_legal_moves(pos, fast);
    int ns = reference_legal_moves(pos, slow);
    CHECK(nf == cn_count_legal_moves(pos), "%s: count %d != list %d", fen, cn_count_legal_moves(pos), nf);
    qsort(fast, (size_t)nf, sizeof fast[0], reference_compare_moves);
    qsort(slow, (size_t)ns, sizeof slow[0], reference_compare_moves);
    int same = nf == ns && memcmp(fast, slow, (size_t)nf * sizeof fast[0]) == 0;
    CHECK(same, "%s: fast generator has %d moves, reference %d", fen, nf, ns);
    if (!same) {
        char uci[6];
        for (int i = 0; i < nf; i++) fprintf(stderr, " %s", (cn_move_to_uci(pos, fast[i], uci), uci));
        fprintf(stderr, "\n vs");
        for (int i = 0; i < ns; i++) fprintf(stderr, " %s", (cn_move_to_uci(pos, slow[i], uci), uci));
        fprintf(stderr, "\n");
    }
    /* cn_sort_moves_uci: strictly ascending UCI strings, same set. */
    cn_move sorted[CN_MAX_MOVES];
    memcpy(sorted, fast, (size_t)nf * sizeof fast[0]);
    cn_sort_moves_uci(pos, sorted, nf);
    for (int i = 1; i < nf; i++) {
        char a[6], b[6];
        cn_move_to_uci(pos, sorted[i - 1], a);
        cn_move_to_uci(pos, sorted[i], b);
        CHECK(strcmp(a, b) < 0, "%s: sorted moves out of order: %s before %s", fen, a, b);
    }
    /* Generated in UCI order (MODE_SETS + write_sorted) == listed, then
     * sorted; on every variant this CPU runs. */
    for (int k = 0; k < VARIANT_COUNT; k++) {
        const cn_impl *variant = engine_variant(k);
        if (!cn_impl_runnable(variant)) continue;
        cn_move in_order[CN_MAX_MOVES];
        int n = variant->generate_sorted(pos, in_order);
        CHECK(n == nf && memcmp(in_order, sorted, (size_t)nf * sizeof sorted[0]) == 0,
              "%s: %s generate_sorted differs from generate + sort", fen, variant->name);
    }
    qsort(sorted, (size_t)nf, sizeof sorted[0], reference_compare_moves);
    CHECK(memcmp(sorted, fast, (size_t)nf * sizeof fast[0]) == 0, "%s: sorting changed the move set", fen);
    for (int i = 0; i < nf; i++) {
        cn_position copy = *pos;
        cn_undo undo;
        cn_make(&copy, fast[i], &undo);
        CHECK(copy.key == cn_position_compute_key(&copy), "%s: incremental key wrong after move %d", fen, i);
        CHECK(cn_position_validate(&copy) == CN_OK, "%s: move %d leads to an invalid position", fen, i);
        char uci[6];
        cn_move parsed;
        cn_move_to_uci(pos, fast[i], uci);
        CHECK(cn_move_from_uci(pos, uci, strlen(uci), &parsed) == CN_OK && parsed == fast[i],
              "%s: UCI round trip of %s", fen, uci);
        cn_unmake(&copy, &undo);
        CHECK(memcmp(&copy, pos, sizeof copy) == 0, "%s: unmake of move %s is not bit-exact", fen, uci);
    }
}

/* Walks two plies below the position to exercise more states. */
static void test_moves_around(const suite_line *line, long *positions) {
    cn_position pos;
    check_fen_parse_moves(line->fen, strlen(line->fen), line->chess960);
    if (cn_fen_parse(&pos, line->fen, strlen(line->fen), line->chess960, NULL) != CN_OK) return;
    check_position_moves(&pos, line->fen);
    (*positions)++;
    cn_move moves[CN_MAX_MOVES];
    int n = cn_legal_moves(&pos, moves);
    for (int i = 0; i < n; i++) {
        cn_position child = pos;
        cn_undo undo;
        cn_make(&child, moves[i], &undo);
        check_position_moves(&child, line->fen);
        (*positions)++;
        test_fen_round_trip_position(&child, line->fen);
    }
}

/* --- perft suites --------------------------------------------------------- */

/* with_extras: also full perft (small counts) and hashed perft through a
 * one-bucket table (every probe lands in the same three slots, so the checks
 * reject other positions all the time), with the verify key set, and
 * through a 16 MiB one. */
static void run_suite(const cn_impl *impl, const char *path, int chess960, uint64_t max_nodes, int with_extras) {
    static const uint64_t no_abort = 0;
    cn_tt tiny, normal;
    if (with_extras && (cn_tt_create(&tiny, sizeof(cn_tt_bucket), CN_PERFT_VERIFY_KEY_SEED) != CN_OK ||
                        cn_tt_create(&normal, 16u << 20, 0) != CN_OK)) {
        CHECK(0, "cannot allocate the test hash tables");
        return;
    }
    suite_file suite;
    if (suite_load(path, chess960, &suite) != 0) {
        CHECK(0, "cannot read %s", path);
        return;
    }
    uint64_t nodes = 0;
    int counts = 0;
    double start = seconds_now();
    for (int i = 0; i < suite.count; i++) {
        const suite_line *line = &suite.lines[i];
        cn_position pos;
        cn_fen_error err;
        if (cn_fen_parse(&pos, line->fen, strlen(line->fen), chess960, &err) != CN_OK) {
            CHECK(0, "%s:%d: FEN rejected: %s", path, i + 1, err.message);
            continue;
        }
        for (int d = 0; d < line->depth_count; d++) {
            if (line->expected[d] > max_nodes) continue;
            uint64_t got = impl->perft(&pos, line->depths[d]);
            CHECK(got == line->expected[d], "%s:%d [%s] D%d: %" PRIu64 ", expected %" PRIu64, path, i + 1, impl->name,
                  line->depths[d], got, line->expected[d]);
            if (with_extras && line->expected[d] <= max_nodes / 20) {
                uint64_t full = impl->perft_full(&pos, line->depths[d]);
                CHECK(full == line->expected[d], "%s:%d [%s] full D%d: %" PRIu64, path, i + 1, impl->name,
                      line->depths[d], full);
            }
            if (with_extras) {
                uint64_t hashed_tiny = impl->perft_hashed(&pos, line->depths[d], &tiny, &no_abort);
                uint64_t hashed = impl->perft_hashed(&pos, line->depths[d], &normal, &no_abort);
                CHECK(hashed_tiny == line->expected[d] && hashed == line->expected[d],
                      "%s:%d [%s] hashed D%d: %" PRIu64 " (one bucket), %" PRIu64 " (16 MiB)", path, i + 1, impl->name,
                      line->depths[d], hashed_tiny, hashed);
            }
            nodes += got;
            counts++;
        }
    }
    double elapsed = seconds_now() - start;
    printf("perft %-14s %-16s %4d counts, %12" PRIu64 " nodes, %6.2f s%s\n", impl->name, strrchr(path, '/') + 1, counts,
           nodes, elapsed, with_extras ? " (with full and hashed perft)" : "");
    suite_free(&suite);
    if (with_extras) {
        cn_tt_destroy(&tiny);
        cn_tt_destroy(&normal);
    }
}

int main(int argc, char **argv) {
    const char *dir = NULL;
    uint64_t max_nodes = 5000000;
    int usage_error = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--perft-dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--max-nodes") == 0 && i + 1 < argc)
            max_nodes = strtoull(argv[++i], NULL, 10);
        else
            usage_error = 1;
    }
    if (usage_error || !dir) {
        fprintf(stderr, "usage: engine_test --perft-dir DIR [--max-nodes N]\n");
        return 2;
    }
    test_concurrent_init();
    if (failures) return 1;
    test_init_determinism();
    test_sliders_against_ray_walk(cn_impl_runnable(cn_impl_pext));
    test_fen_errors();
    int san_failures = san_tests_run();
    checks++;
    CHECK(san_failures == 0, "%d SAN test failures", san_failures);
    int pgn_failures = pgn_tests_run();
    checks++;
    CHECK(pgn_failures == 0, "%d PGN test failures", pgn_failures);
    int relaxed_failures = relaxed_tests_run();
    checks++;
    CHECK(relaxed_failures == 0, "%d relaxed position test failures", relaxed_failures);

    static const struct {
        const char *file;
        int chess960;
    } suites[] = {{"perftsuite.epd", 0},  {"cpw.epd", 0},     {"tricky.epd", 0},
                  {"unreachable.epd", 0}, {"fischer.epd", 1}, {"tricky960.epd", 1}};
    const int suite_count = (int)(sizeof suites / sizeof suites[0]);
    char path[1024];
    long positions = 0;
    for (int s = 0; s < suite_count; s++) {
        snprintf(path, sizeof path, "%s/%s", dir, suites[s].file);
        suite_file suite;
        if (suite_load(path, suites[s].chess960, &suite) != 0) {
            CHECK(0, "cannot read %s", path);
            continue;
        }
        for (int i = 0; i < suite.count; i++) {
            cn_position pos;
            cn_fen_error err;
            CHECK(cn_fen_parse(&pos, suite.lines[i].fen, strlen(suite.lines[i].fen), suites[s].chess960, &err) == CN_OK,
                  "%s: %s", suite.lines[i].fen, err.message);
            test_fen_round_trip_position(&pos, suite.lines[i].fen);
            test_moves_around(&suite.lines[i], &positions);
        }
        suite_free(&suite);
    }
    /* The positions of test/fuzz/regressions and their kin: castling whose
     * UCI could be read as a king step, and clocks at their limits. */
    static const char *regressions[] = {
        "4k3/8/8/8/8/8/8/R2K4 w Q - 0 1",
        "4k3/8/8/8/8/8/8/3K3R w K - 0 1",
        "r2k4/8/8/8/8/8/8/4K3 b q - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 999999999",
        "4k3/8/8/8/8/8/8/4K3 b - - 65535 4294967295",
        /* X-FEN rights with a rook beside the king: e1g1 sorts after e1f2
         * although the rook stands on f1 (generate_sorted's castling merge). */
        "4k3/8/8/8/8/8/8/4KR2 w K - 0 1",
        "4kr2/8/8/8/8/8/8/4K3 b k - 0 1",
        "1r2k1r1/8/8/8/8/8/8/4K3 b kq - 0 1",
    };
    for (size_t i = 0; i < sizeof regressions / sizeof regressions[0]; i++) {
        suite_line line;
        memset(&line, 0, sizeof line);
        snprintf(line.fen, sizeof line.fen, "%s", regressions[i]);
        long before = positions;
        test_moves_around(&line, &positions);
        CHECK(positions > before, "regression FEN rejected: %s", regressions[i]);
    }
    printf("movegen: %ld positions: fast == reference generator, make/unmake bit-exact, incremental key\n", positions);

    /* Full and hashed perft on the fastest variant this CPU runs. */
    int variants_tested = 0;
    for (int k = 0; k < VARIANT_COUNT; k++) {
        const cn_impl *impl = engine_variant(k);
        if (!cn_impl_runnable(impl)) {
            if (impl) printf("perft: path %s cannot run on this CPU, not tested\n", impl->name);
            continue;
        }
        for (int s = 0; s < suite_count; s++) {
            snprintf(path, sizeof path, "%s/%s", dir, suites[s].file);
            /* Chess960 suites at <= 2M nodes a count: `make deep` runs the rest. */
            uint64_t limit = suites[s].chess960 && max_nodes > 2000000 ? 2000000 : max_nodes;
            run_suite(impl, path, suites[s].chess960, limit, variants_tested == 0);
        }
        variants_tested++;
    }
    int tt_failures_seen = tt_tests_run(dir);
    CHECK(tt_failures_seen == 0, "%d table key test failures", tt_failures_seen);
    int split_failures = split_tests_run();
    CHECK(split_failures == 0, "%d split test failures", split_failures);
    int job_failures = perft_job_tests_run(dir);
    CHECK(job_failures == 0, "%d perft job test failures", job_failures);
    printf("%d checks: %d passed, %d failed\n", checks, checks - failures, failures);
    return failures ? 1 : 0;
}
