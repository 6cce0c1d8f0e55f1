/*
 * tt_test.c - white-box tests of the perft table's two keys
 * (csrc/engine/transposition_table.h): the second key set, the hashed
 * perft's incremental second key, a slot rejected by the second key alone,
 * and a slot torn between two writes.
 *
 * Entry point: int tt_tests_run(const char *perft_dir), returning the number
 * of failures. #included by engine_test.c; every other name starts with tt_.
 *
 * Entries are forged through the table's own store with tags computed from
 * scratch (cn_make's Polyglot key, cn_tt_key2), then a hashed perft one ply
 * above them shows which entries it accepted: a forged count it accepts
 * changes its total.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "chess_native.h"
#include "impl.h"
#include "perft_job.h"
#include "suite.h"
#include "transposition_table.h"

int tt_tests_run(const char *perft_dir);

static int tt_failures;
static long tt_checks;

#define TT_CHECK(cond, ...)                                                                                            \
    do {                                                                                                               \
        tt_checks++;                                                                                                   \
        if (!(cond)) {                                                                                                 \
            tt_failures++;                                                                                             \
            printf("tt_test FAIL (line %d): ", __LINE__);                                                              \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
        }                                                                                                              \
    } while (0)

/* Added to a real count to make a forged one: no subtree here is that big. */
#define TT_FORGED_OFFSET UINT64_C(1000000000000)

static void tt_test_key_sets(void) {
    static cn_tt_keys a, b, c;
    cn_tt_keys_init(&a, 0);
    cn_tt_keys_init(&b, CN_PERFT_KEY_SEED);
    cn_tt_keys_init(&c, CN_PERFT_VERIFY_KEY_SEED);
    TT_CHECK(a.seed == CN_PERFT_KEY_SEED && memcmp(&a, &b, sizeof a) == 0, "seed 0 is not the default key set");
    int equal_to_other = 0, equal_to_polyglot = 0;
    for (int i = 0; i < CN_POLYGLOT_RANDOM_COUNT; i++) {
        equal_to_other += a.random[i] == c.random[i];
        equal_to_polyglot += a.random[i] == cn_polyglot_random[i];
    }
    TT_CHECK(equal_to_other == 0 && equal_to_polyglot == 0 && a.depth_mix != c.depth_mix && (a.depth_mix & 1),
             "key sets overlap: %d values equal to the verify set's, %d to Polyglot's", equal_to_other,
             equal_to_polyglot);
    char name[CN_PERFT_KEY_SET_NAME_MAX];
    const size_t length = cn_perft_key_set_name(0, name, sizeof name);
    TT_CHECK(length == strlen(name) && strcmp(name, "xorshift64star-v1-6a09e667f3bcc909") == 0, "key set name %s",
             name);
    cn_perft_key_set_name(CN_PERFT_VERIFY_KEY_SEED, name, sizeof name);
    TT_CHECK(strcmp(name, "xorshift64star-v1-bb67ae8584caa73b") == 0, "verify key set name %s", name);
}

/* A slot whose count word comes from one write and check words from
 * another is a miss for both positions. */
static void tt_test_torn_slot(void) {
    cn_tt tt;
    if (cn_tt_create(&tt, sizeof(cn_tt_bucket), 0) != CN_OK) {
        TT_CHECK(0, "cannot allocate a one-bucket table");
        return;
    }
    const uint64_t tag_a = 0x0123456789ABCDEFULL, tag2_a = 0x1111222233334444ULL;
    const uint64_t tag_b = 0x7EDCBA9876543210ULL, tag2_b = 0x5555666677778888ULL;
    uint64_t count = 0;
    cn_tt_store(&tt, tag_a, tag2_a, 1234);
    TT_CHECK(cn_tt_probe(&tt, tag_a, tag2_a, &count) && count == 1234, "a stored entry is not found");
    TT_CHECK(!cn_tt_probe(&tt, tag_a, tag2_b, &count), "an entry matched with another second key");
    tt.buckets[0].count[0] = 5678; /* the count of a write for b that tore this slot */
    TT_CHECK(!cn_tt_probe(&tt, tag_a, tag2_a, &count), "a torn slot was read for its checks' position");
    TT_CHECK(!cn_tt_probe(&tt, tag_b, tag2_b, &count), "a torn slot was read for its count's position");
    cn_tt_destroy(&tt);
}

/* The children of pos with their from-scratch keys; returns their number. */
static int tt_children(const cn_tt *tt, const cn_position *pos, cn_position *children, uint64_t *keys2) {
    cn_move moves[CN_MAX_MOVES];
    const int count = cn_legal_moves(pos, moves);
    for (int i = 0; i < count; i++) {
        cn_undo undo;
        children[i] = *pos;
        cn_make(&children[i], moves[i], &undo);
        keys2[i] = cn_tt_key2(tt, &children[i]);
    }
    return count;
}

/* Forges an entry at depth 2 for every child of pos, with the child's
 * Polyglot key and the second key of child (i + shift) % count, then runs
 * the hashed perft(3). shift 0: every entry matches and the total is the
 * sum of the forged counts, so the engine's incremental second key equals
 * cn_tt_key2 for every move played. Other shifts: only the second key
 * differs, and the total must be exact. */
static void tt_test_forged(const cn_impl *impl, const cn_position *pos, const char *what) {
    static cn_position children[CN_MAX_MOVES];
    static uint64_t keys2[CN_MAX_MOVES];
    static const uint64_t no_abort = 0;
    static cn_tt tt;
    for (int shift = 0; shift < 2; shift++) {
        if (cn_tt_create(&tt, (size_t)4 << 20, shift ? CN_PERFT_VERIFY_KEY_SEED : 0) != CN_OK) {
            TT_CHECK(0, "cannot allocate a 4 MiB table");
            return;
        }
        const int count = tt_children(&tt, pos, children, keys2);
        uint64_t exact = 0, forged = 0;
        for (int i = 0; i < count; i++) {
            const uint64_t nodes = cn_perft(&children[i], 2);
            exact += nodes;
            forged += nodes + TT_FORGED_OFFSET;
            const uint64_t key2 = keys2[(i + shift) % count];
            cn_tt_store(&tt, cn_tt_tag(children[i].key, 2), cn_tt_tag2(&tt, key2, 2), nodes + TT_FORGED_OFFSET);
        }
        const uint64_t got = impl->perft_hashed(pos, 3, &tt, &no_abort);
        if (shift == 0)
            TT_CHECK(got == forged, "%s [%s]: %" PRIu64 " with every child forged, expected %" PRIu64, what, impl->name,
                     got, forged);
        else if (count > 1)
            TT_CHECK(got == exact, "%s [%s]: %" PRIu64 " with second keys swapped, expected %" PRIu64, what, impl->name,
                     got, exact);
        cn_tt_destroy(&tt);
    }
}

static void tt_test_suite(const char *dir, const char *file, int chess960) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    suite_file suite;
    if (suite_load(path, chess960, &suite) != 0) {
        TT_CHECK(0, "cannot read %s", path);
        return;
    }
    const cn_impl *impl = cn_active_impl();
    for (int i = 0; i < suite.count; i++) {
        cn_position pos;
        cn_fen_error err;
        if (cn_fen_parse(&pos, suite.lines[i].fen, strlen(suite.lines[i].fen), chess960, &err) != CN_OK) {
            TT_CHECK(0, "%s:%d: FEN rejected", file, i + 1);
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "%s:%d", file, i + 1);
        tt_test_forged(impl, &pos, what);
    }
    suite_free(&suite);
}

int tt_tests_run(const char *perft_dir) {
    tt_failures = 0;
    tt_checks = 0;
    if (cn_init() != CN_OK) return 1;
    tt_test_key_sets();
    tt_test_torn_slot();
    tt_test_suite(perft_dir, "tricky.epd", 0);
    tt_test_suite(perft_dir, "perftsuite.epd", 0);
    tt_test_suite(perft_dir, "tricky960.epd", 1);
    printf("tt: %ld checks (forged entries: both keys accepted, the second alone rejected; torn slots)\n", tt_checks);
    return tt_failures;
}
