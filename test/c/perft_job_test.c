/*
 * perft_job_test.c - tests for csrc/engine/perft_job.c (threaded, hashed,
 * cancellable perft).
 *
 * Entry point: int perft_job_tests_run(const char *perft_dir), returning the
 * number of failures and printing each one. It can be #included by the
 * engine test runner (every other name here is static and starts with pj_)
 * or built and run alone: `make -C test/c job-test`.
 *
 * Expected counts come only from the published suite files; divides are
 * compared with the engine's single-threaded cn_divide.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

#include "chess_native.h"
#include "clock.h"
#include "perft_job.h"
#include "suite.h"

int perft_job_tests_run(const char *perft_dir);

static int pj_failures;

#define PJ_FAIL(...)                                                                                                   \
    do {                                                                                                               \
        pj_failures++;                                                                                                 \
        printf("perft_job_test FAIL (line %d): ", __LINE__);                                                           \
        printf(__VA_ARGS__);                                                                                           \
        printf("\n");                                                                                                  \
    } while (0)

#define PJ_CHECK(cond, ...)                                                                                            \
    do {                                                                                                               \
        if (!(cond)) PJ_FAIL(__VA_ARGS__);                                                                             \
    } while (0)

#define PJ_START_FEN    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define PJ_KIWIPETE_FEN "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

static double pj_now(void) { return cn_monotonic_nanoseconds() / 1e9; }

static void pj_sleep_ms(double ms) {
#ifdef _WIN32
    Sleep((DWORD)(ms + 0.999)); /* whole milliseconds, rounded up */
#else
    struct timespec ts;
    ts.tv_sec = (time_t)(ms / 1000);
    ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000) * 1e6);
    nanosleep(&ts, NULL);
#endif
}

static int pj_parse(cn_position *pos, const char *fen, int chess960) {
    cn_fen_error err;
    if (cn_fen_parse(pos, fen, strlen(fen), chess960, &err) != CN_OK) {
        PJ_FAIL("cannot parse %s: %s", fen, err.message);
        return -1;
    }
    return 0;
}

/* Counts on_finish calls (each test job has its own counter). */
static void pj_on_finish(void *user) { __atomic_add_fetch((int *)user, 1, __ATOMIC_ACQ_REL); }

typedef struct pj_config {
    int threads;
    size_t hash_bytes;
    int leaf_depth;
    int min_queue_items;
    const char *name;
    uint64_t max_nodes; /* suite counts above this are skipped in this config */
} pj_config;

/* Runs one job to the end; checks the total against expected, the divide
 * against cn_divide, the bookkeeping (on_finish once, memory released,
 * progress complete). Returns the total. */
static uint64_t pj_run_checked(const cn_position *pos, int depth, const pj_config *config, uint64_t expected,
                               const char *what) {
    int finished = 0;
    cn_perft_job_options options = {depth,     config->threads,    config->hash_bytes,      pj_on_finish,
                                    &finished, config->leaf_depth, config->min_queue_items, 0};
    cn_perft_job *job;
    const cn_status status = cn_perft_job_start(pos, &options, &job);
    if (status != CN_OK) {
        PJ_FAIL("%s depth %d [%s]: start failed with %s", what, depth, config->name, cn_status_name(status));
        return 0;
    }
    cn_perft_job_wait(job);
    PJ_CHECK(cn_perft_job_state_get(job) == CN_PERFT_JOB_DONE, "%s depth %d [%s]: state %d", what, depth, config->name,
             (int)cn_perft_job_state_get(job));
    PJ_CHECK(__atomic_load_n(&finished, __ATOMIC_ACQUIRE) == 1, "%s [%s]: on_finish ran %d times", what, config->name,
             finished);
    PJ_CHECK(cn_perft_job_memory(job) == 0, "%s [%s]: %zu bytes still held", what, config->name,
             cn_perft_job_memory(job));
    const uint64_t total = cn_perft_job_nodes(job);
    PJ_CHECK(total == expected, "%s depth %d [%s]: %" PRIu64 " nodes, expected %" PRIu64, what, depth, config->name,
             total, expected);

    const cn_move *moves;
    const uint64_t *counts;
    const int root_count = cn_perft_job_root_moves(job, &moves, &counts);
    cn_perft_job_progress progress;
    cn_perft_job_progress_get(job, &progress);
    PJ_CHECK(progress.nodes == total && progress.root_moves_done == progress.root_moves_total &&
                 progress.root_moves_total == root_count,
             "%s [%s]: final progress %" PRIu64 " nodes, %d/%d roots", what, config->name, progress.nodes,
             progress.root_moves_done, progress.root_moves_total);
    if (depth >= 1) {
        cn_move ref_moves[CN_MAX_MOVES];
        uint64_t ref_counts[CN_MAX_MOVES];
        const int ref_count = cn_divide(pos, depth, ref_moves, ref_counts);
        PJ_CHECK(ref_count == root_count, "%s [%s]: %d root moves, cn_divide has %d", what, config->name, root_count,
                 ref_count);
        uint64_t sum = 0;
        for (int i = 0; i < root_count && i < ref_count; i++) {
            sum += counts[i];
            PJ_CHECK(moves[i] == ref_moves[i] && counts[i] == ref_counts[i],
                     "%s depth %d [%s]: root move %d: %u %" PRIu64 " vs cn_divide %u %" PRIu64, what, depth,
                     config->name, i, moves[i], counts[i], ref_moves[i], ref_counts[i]);
        }
        PJ_CHECK(sum == total, "%s [%s]: divide sums to %" PRIu64 ", total %" PRIu64, what, config->name, sum, total);
    } else {
        PJ_CHECK(root_count == 0, "%s: depth 0 has %d root moves", what, root_count);
    }
    cn_perft_job_free(job);
    return total;
}

/* Every suite line and depth with at most max_nodes leaves, in each config. */
static void pj_test_suites(const char *dir, const pj_config *config) {
    static const struct {
        const char *file;
        int chess960;
        int line_step; /* fischer.epd has 960 lines: take every 12th */
    } suites[] = {{"perftsuite.epd", 0, 1},  {"cpw.epd", 0, 1},      {"tricky.epd", 0, 1},
                  {"unreachable.epd", 0, 1}, {"fischer.epd", 1, 12}, {"tricky960.epd", 1, 1}};
    char path[1024];
    double start = pj_now();
    long runs = 0;
    uint64_t nodes = 0;
    for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        snprintf(path, sizeof path, "%s/%s", dir, suites[s].file);
        suite_file suite;
        if (suite_load(path, suites[s].chess960, &suite) != 0) {
            PJ_FAIL("cannot read %s", path);
            continue;
        }
        for (int i = 0; i < suite.count; i += suites[s].line_step) {
            const suite_line *line = &suite.lines[i];
            cn_position pos;
            if (pj_parse(&pos, line->fen, line->chess960) != 0) continue;
            for (int d = 0; d < line->depth_count; d++) {
                if (line->expected[d] > config->max_nodes) continue;
                char what[200];
                snprintf(what, sizeof what, "%s:%d", suites[s].file, i + 1);
                nodes += pj_run_checked(&pos, line->depths[d], config, line->expected[d], what);
                runs++;
            }
        }
        suite_free(&suite);
    }
    printf("perft_job: suites [%s]: %ld runs, %" PRIu64 " nodes, %.2f s\n", config->name, runs, nodes,
           pj_now() - start);
}

/* The largest leaf depth runs on a job thread's stack: the hashed search
 * recurses that many plies below one queued subtree (bare kings keep it
 * quick). */
static void pj_test_deepest_leaves(void) {
    static const pj_config deepest = {1, 1 << 16, CN_PERFT_JOB_MAX_LEAF_DEPTH, 1, "deepest leaves", 0};
    cn_position pos;
    if (pj_parse(&pos, "7k/8/8/8/8/8/8/K7 w - - 0 1", 0) != 0) return;
    const int depth = CN_PERFT_JOB_MAX_LEAF_DEPTH + 1;
    pj_run_checked(&pos, depth, &deepest, cn_perft(&pos, depth), "bare kings");
}

static void pj_test_edges(void) {
    cn_position pos;
    static const pj_config one = {1, 0, 0, 0, "1 thread", 0};
    static const pj_config many = {7, 4096, 0, 0, "7 threads, 4 KiB", 0};
    if (pj_parse(&pos, PJ_START_FEN, 0) != 0) return;
    pj_run_checked(&pos, 0, &one, 1, "start");
    pj_run_checked(&pos, 0, &many, 1, "start");
    pj_run_checked(&pos, 1, &many, 20, "start");
    pj_run_checked(&pos, 2, &many, 400, "start");

    /* Fool's mate: no moves at the root. */
    if (pj_parse(&pos, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0) != 0) return;
    for (int depth = 0; depth <= 5; depth++) pj_run_checked(&pos, depth, &many, depth == 0 ? 1 : 0, "mated");
    /* Stalemate. */
    if (pj_parse(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0) != 0) return;
    pj_run_checked(&pos, 3, &one, 0, "stalemate");

    /* Bad arguments never start threads. */
    if (pj_parse(&pos, PJ_START_FEN, 0) != 0) return;
    const int bad[][2] = {{-1, 1}, {CN_PERFT_JOB_MAX_DEPTH + 1, 1}, {3, 0}, {3, -2}, {3, CN_PERFT_JOB_MAX_THREADS + 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cn_perft_job_options options = {bad[i][0], bad[i][1], 0, NULL, NULL, 0, 0, 0};
        char sentinel;
        cn_perft_job *job = (cn_perft_job *)(void *)&sentinel; /* a failed start sets it to NULL */
        const cn_status status = cn_perft_job_start(&pos, &options, &job);
        PJ_CHECK(job == NULL && status == CN_ERR_BAD_ARGUMENT, "depth %d threads %d: %s", bad[i][0], bad[i][1],
                 cn_status_name(status));
    }
    /* Tuning out of range: a leaf depth the thread stack has no room for (19
     * plies of the hashed search overflowed 1 MiB), a negative one, a queue
     * target beyond the units a queue may hold. */
    const int bad_tuning[][2] = {
        {-1, 0}, {CN_PERFT_JOB_MAX_LEAF_DEPTH + 1, 0}, {19, 0}, {0, -1}, {0, CN_PERFT_JOB_MAX_UNITS + 1}};
    for (size_t i = 0; i < sizeof bad_tuning / sizeof bad_tuning[0]; i++) {
        cn_perft_job_options options = {3, 1, 4096, NULL, NULL, bad_tuning[i][0], bad_tuning[i][1], 0};
        cn_perft_job *job = NULL;
        cn_status status = cn_perft_job_start(&pos, &options, &job);
        PJ_CHECK(job == NULL && status == CN_ERR_BAD_ARGUMENT, "leaf_depth %d min_queue_items %d: %s", bad_tuning[i][0],
                 bad_tuning[i][1], cn_status_name(status));
        cn_perft_job_free(job);
        status = cn_perft_job_start_units(&pos, 1, &options, &job);
        PJ_CHECK(job == NULL && status == CN_ERR_BAD_ARGUMENT, "units, leaf_depth %d min_queue_items %d: %s",
                 bad_tuning[i][0], bad_tuning[i][1], cn_status_name(status));
        cn_perft_job_free(job);
    }
    pj_test_deepest_leaves();

    cn_position broken = pos;
    broken.by_type[CN_KING] &= ~(1ULL << 4); /* no white king */
    broken.by_color[CN_WHITE] &= ~(1ULL << 4);
    cn_perft_job_options options = {3, 1, 0, NULL, NULL, 0, 0, 0};
    cn_perft_job *job;
    cn_status status = cn_perft_job_start(&broken, &options, &job);
    PJ_CHECK(job == NULL && status == CN_ERR_BAD_POSITION, "a position without a white king: %s",
             cn_status_name(status));

    /* The table size is rounded down to a power of two of 32-byte buckets. */
    cn_perft_job_options hashed = {3, 1, 3000, NULL, NULL, 0, 0, 0};
    status = cn_perft_job_start(&pos, &hashed, &job);
    PJ_CHECK(status == CN_OK && cn_perft_job_table_bytes(job) == 2048, "3000 bytes of table became %zu (%s)",
             job ? cn_perft_job_table_bytes(job) : 0, cn_status_name(status));
    cn_perft_job_free(job);
}

/* A deep run is cancelled while it runs; it must stop quickly, report
 * CANCELLED, call on_finish once and hold no memory. */
static void pj_test_cancel(const char *fen, int depth, int threads, size_t hash_bytes, double run_ms) {
    cn_position pos;
    if (pj_parse(&pos, fen, 0) != 0) return;
    int finished = 0;
    cn_perft_job_options options = {depth, threads, hash_bytes, pj_on_finish, &finished, 0, 0, 0};
    cn_perft_job *job;
    if (cn_perft_job_start(&pos, &options, &job) != CN_OK) {
        PJ_FAIL("cancel test: start failed");
        return;
    }
    PJ_CHECK(cn_perft_job_memory(job) > hash_bytes / 2, "a running job holds only %zu bytes", cn_perft_job_memory(job));
    pj_sleep_ms(run_ms);
    cn_perft_job_progress before;
    cn_perft_job_progress_get(job, &before);
    /* Under valgrind or a loaded machine the first subtree can take longer
     * than run_ms: wait (up to 10 s) for some progress before cancelling. */
    const double waited_from = pj_now();
    while (before.nodes == 0 && cn_perft_job_state_get(job) == CN_PERFT_JOB_RUNNING && pj_now() - waited_from < 10) {
        pj_sleep_ms(1);
        cn_perft_job_progress_get(job, &before);
    }
    PJ_CHECK(cn_perft_job_state_get(job) == CN_PERFT_JOB_RUNNING, "depth %d finished within %.0f ms?", depth, run_ms);
    const double cancelled_at = pj_now();
    cn_perft_job_cancel(job);
    while (cn_perft_job_state_get(job) == CN_PERFT_JOB_RUNNING && pj_now() - cancelled_at < 5) pj_sleep_ms(0.2);
    const double stop_ms = (pj_now() - cancelled_at) * 1000;
    cn_perft_job_wait(job);
    const double joined_ms = (pj_now() - cancelled_at) * 1000;
    printf("perft_job: cancel of depth %d (%d threads, %zu MiB table) after %.0f ms and %" PRIu64
           " nodes: stopped in %.2f ms, joined in %.2f ms\n",
           depth, threads, hash_bytes >> 20, run_ms, before.nodes, stop_ms, joined_ms);
    /* Generous: the design target is a few milliseconds. */
    PJ_CHECK(joined_ms < 1000, "cancel took %.0f ms", joined_ms);
    PJ_CHECK(cn_perft_job_state_get(job) == CN_PERFT_JOB_CANCELLED, "state after cancel: %d",
             (int)cn_perft_job_state_get(job));
    PJ_CHECK(finished == 1, "on_finish ran %d times after cancel", finished);
    PJ_CHECK(cn_perft_job_memory(job) == 0, "%zu bytes held after cancel", cn_perft_job_memory(job));
    PJ_CHECK(cn_perft_job_nodes(job) == 0, "a cancelled job reports nodes");
    PJ_CHECK(before.nodes > 0, "no progress after %.0f ms and 10 s more", run_ms);
    cn_perft_job_free(job);
}

/* Cancel and free straight after the start, racing the threads' start-up;
 * and free a running job without cancelling first. */
static void pj_test_cancel_races(void) {
    cn_position pos;
    if (pj_parse(&pos, PJ_START_FEN, 0) != 0) return;
    for (int i = 0; i < 50; i++) {
        int finished = 0;
        cn_perft_job_options options = {9, 1 + i % 4, (i % 2) ? (size_t)1 << 16 : 0, pj_on_finish, &finished, 0, 0, 0};
        cn_perft_job *job;
        if (cn_perft_job_start(&pos, &options, &job) != CN_OK) {
            PJ_FAIL("start failed");
            return;
        }
        if (i % 3 == 0) cn_perft_job_cancel(job);
        cn_perft_job_free(job); /* cancels, joins */
        PJ_CHECK(finished == 1, "race %d: on_finish ran %d times", i, finished);
    }
}

/* Progress read while a job runs only grows, stays within bounds, and ends
 * at the result. */
static void pj_test_progress(int threads, size_t hash_bytes) {
    cn_position pos;
    if (pj_parse(&pos, PJ_KIWIPETE_FEN, 0) != 0) return;
    const uint64_t expected = 193690690; /* cpw.epd, kiwipete D5 */
    cn_perft_job_options options = {5, threads, hash_bytes, NULL, NULL, 0, 0, 0};
    cn_perft_job *job;
    if (cn_perft_job_start(&pos, &options, &job) != CN_OK) {
        PJ_FAIL("progress test: start failed");
        return;
    }
    cn_perft_job_progress last = {0, 0, 0, 0};
    int samples = 0, intermediate = 0, regressions = 0;
    for (;;) {
        cn_perft_job_progress now;
        cn_perft_job_progress_get(job, &now);
        /* Read after the sample: RUNNING now means it was running then too. */
        const int running = cn_perft_job_state_get(job) == CN_PERFT_JOB_RUNNING;
        samples++;
        /* elapsed is only compared while running: the final duration is
         * taken just before the finish is published, so a sample read in
         * between can be a few microseconds later than it. */
        if (now.nodes < last.nodes || now.root_moves_done < last.root_moves_done ||
            (running && now.elapsed_ns < last.elapsed_ns) || now.root_moves_done > now.root_moves_total ||
            now.nodes > expected || now.root_moves_total != 48)
            regressions++;
        if (now.nodes > 0 && now.nodes < expected) intermediate++;
        last = now;
        if (!running) break;
        pj_sleep_ms(0.5);
    }
    cn_perft_job_wait(job);
    cn_perft_job_progress_get(job, &last);
    PJ_CHECK(regressions == 0, "progress went backwards or out of bounds %d times in %d samples", regressions, samples);
    PJ_CHECK(intermediate > 0, "no intermediate progress seen in %d samples", samples);
    PJ_CHECK(last.nodes == expected && last.root_moves_done == 48, "final progress %" PRIu64 " nodes, %d roots",
             last.nodes, last.root_moves_done);
    PJ_CHECK(cn_perft_job_nodes(job) == expected, "kiwipete 5: %" PRIu64, cn_perft_job_nodes(job));
    printf("perft_job: progress, %d threads, %zu MiB table: %d samples, %d intermediate, %.3f s\n", threads,
           hash_bytes >> 20, samples, intermediate, last.elapsed_ns / 1e9);
    cn_perft_job_free(job);
}

/* The positions two plies below pos (every path: transpositions repeat). */
static int pj_grandchildren(const cn_position *pos, cn_position *out, int room) {
    cn_move moves[CN_MAX_MOVES], replies[CN_MAX_MOVES];
    const int count = cn_legal_moves(pos, moves);
    int n = 0;
    for (int i = 0; i < count; i++) {
        cn_position child = *pos;
        cn_undo undo;
        cn_make(&child, moves[i], &undo);
        const int reply_count = cn_legal_moves(&child, replies);
        for (int r = 0; r < reply_count && n < room; r++, n++) {
            out[n] = child;
            cn_make(&out[n], replies[r], &undo);
        }
    }
    return n;
}

/* A units job over kiwipete's 2-ply positions, counted 3 plies deeper, sums
 * to the published perft(5); each unit's count is its own cn_perft. */
static void pj_test_units(const pj_config *config) {
    static cn_position units[4096];
    cn_position pos;
    if (pj_parse(&pos, PJ_KIWIPETE_FEN, 0) != 0) return;
    const int count = pj_grandchildren(&pos, units, 4096);
    int finished = 0;
    cn_perft_job_options options = {3,         config->threads,    config->hash_bytes,      pj_on_finish,
                                    &finished, config->leaf_depth, config->min_queue_items, 0};
    cn_perft_job *job;
    cn_status status = cn_perft_job_start_units(units, count, &options, &job);
    if (status != CN_OK) {
        PJ_FAIL("units [%s]: start failed with %s", config->name, cn_status_name(status));
        return;
    }
    cn_perft_job_wait(job);
    static uint64_t counts[4096];
    static uint8_t done[4096];
    const int copied = cn_perft_job_unit_results(job, 0, count + 5, counts, done);
    uint64_t sum = 0;
    int wrong = 0;
    for (int u = 0; u < copied; u++) {
        sum += counts[u];
        if (!done[u] || counts[u] != cn_perft(&units[u], 3)) wrong++;
    }
    const cn_move *moves;
    const uint64_t *root_counts;
    cn_perft_job_progress progress;
    cn_perft_job_progress_get(job, &progress);
    PJ_CHECK(copied == count && count == 2039 && wrong == 0, "units [%s]: %d of %d copied, %d wrong", config->name,
             copied, count, wrong);
    PJ_CHECK(sum == 193690690 && cn_perft_job_nodes(job) == sum, "units [%s]: sum %" PRIu64 ", nodes %" PRIu64,
             config->name, sum, cn_perft_job_nodes(job));
    PJ_CHECK(progress.root_moves_done == count && progress.root_moves_total == count && finished == 1,
             "units [%s]: progress %d/%d units, on_finish %d", config->name, progress.root_moves_done,
             progress.root_moves_total, finished);
    PJ_CHECK(cn_perft_job_root_moves(job, &moves, &root_counts) == 0, "a units job reports root moves");
    PJ_CHECK(cn_perft_job_unit_results(job, count - 2, 10, counts, done) == 2 && done[1] &&
                 cn_perft_job_unit_results(job, count + 1, 1, counts, done) == 0,
             "units [%s]: a clipped read", config->name);
    cn_perft_job_free(job);
}

/* Units: edge cases, refusals, and counts read while running and after a
 * cancel (a unit reported done is exact). */
static void pj_test_units_edges(void) {
    static cn_position units[512];
    cn_position pos;
    cn_perft_job *job;
    cn_perft_job_options options = {5, 2, 0, NULL, NULL, 0, 0, 0};
    uint64_t counts[4];
    uint8_t done[4];
    PJ_CHECK(cn_perft_job_start_units(units, -1, &options, &job) == CN_ERR_BAD_ARGUMENT && !job, "-1 units");
    PJ_CHECK(cn_perft_job_start_units(units, CN_PERFT_JOB_MAX_UNITS + 1, &options, &job) == CN_ERR_BAD_ARGUMENT,
             "too many units");
    if (cn_perft_job_start_units(NULL, 0, &options, &job) == CN_OK) {
        cn_perft_job_wait(job);
        PJ_CHECK(cn_perft_job_state_get(job) == CN_PERFT_JOB_DONE && cn_perft_job_nodes(job) == 0 &&
                     cn_perft_job_unit_results(job, 0, 4, counts, done) == 0,
                 "no units: done with 0 nodes");
        cn_perft_job_free(job);
    } else {
        PJ_FAIL("a job of no units did not start");
    }
    /* Two Chess960 units with different rooks for the same rights. */
    if (pj_parse(&units[0], "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", 1) != 0 ||
        pj_parse(&units[1], "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", 1) != 0)
        return;
    PJ_CHECK(cn_perft_job_start_units(units, 2, &options, &job) == CN_ERR_BAD_POSITION && !job,
             "units disagreeing on castling rooks were accepted");
    /* Few deep units: the queue expands below them. Depth 0: one leaf each. */
    if (pj_parse(&pos, PJ_START_FEN, 0) != 0) return;
    units[0] = units[1] = units[2] = pos;
    for (int depth = 0; depth <= 5; depth += 5) {
        options.depth = depth;
        if (cn_perft_job_start_units(units, 3, &options, &job) != CN_OK) {
            PJ_FAIL("three start positions did not start");
            continue;
        }
        cn_perft_job_wait(job);
        const uint64_t each = depth == 0 ? 1 : 4865609;
        PJ_CHECK(cn_perft_job_unit_results(job, 0, 3, counts, done) == 3 && done[0] && done[2] && counts[0] == each &&
                     counts[2] == each && cn_perft_job_nodes(job) == 3 * each,
                 "three start positions at depth %d: %" PRIu64 " nodes", depth, cn_perft_job_nodes(job));
        cn_perft_job_free(job);
    }
    /* Cancel a run of the start position's 400 2-ply units at depth 5 once
     * some are done: the done ones keep exact counts. */
    const int count = pj_grandchildren(&pos, units, 512);
    options.depth = 5;
    if (cn_perft_job_start_units(units, count, &options, &job) != CN_OK) {
        PJ_FAIL("400 units did not start");
        return;
    }
    static uint64_t all_counts[512];
    static uint8_t all_done[512];
    int done_count = 0;
    const double from = pj_now();
    while (done_count < 3 && cn_perft_job_state_get(job) == CN_PERFT_JOB_RUNNING && pj_now() - from < 20) {
        pj_sleep_ms(1);
        cn_perft_job_unit_results(job, 0, count, all_counts, all_done);
        done_count = 0;
        for (int u = 0; u < count; u++) done_count += all_done[u];
    }
    cn_perft_job_cancel(job);
    cn_perft_job_wait(job);
    cn_perft_job_unit_results(job, 0, count, all_counts, all_done);
    int checked = 0, wrong = 0, after = 0;
    for (int u = 0; u < count; u++) {
        after += all_done[u];
        if (!all_done[u] || checked == 5) continue;
        checked++;
        wrong += all_counts[u] != cn_perft(&units[u], 5);
    }
    PJ_CHECK(count == 400 && checked >= 3 && wrong == 0 && after < count,
             "cancelled units: %d done, %d checked, %d wrong", after, checked, wrong);
    cn_perft_job_free(job);
}

int perft_job_tests_run(const char *perft_dir) {
    pj_failures = 0;
    if (cn_init() != CN_OK) {
        PJ_FAIL("cn_init: %s", cn_init_message());
        return pj_failures;
    }
    pj_test_edges();

    /* Every suite count up to 400k leaves, in each mode. The 2 KiB table (32
     * buckets) and the one-bucket one are overwritten constantly and nearly
     * every probe lands on a
     * slot of another position; leaf_depth 1 with a one-ply queue makes the
     * job's own hashed recursion cover all but the last ply. */
    static const pj_config configs[] = {
        {1, 0, 0, 0, "1 thread", 400000},
        {2, 0, 0, 0, "2 threads", 400000},
        {3, 0, 1, 1, "3 threads, own recursion", 400000},
        {1, 2048, 0, 0, "1 thread, 2 KiB", 400000},
        {2, 2048, 1, 1, "2 threads, 2 KiB, own recursion", 400000},
        {3, 2048, 2, 0, "3 threads, 2 KiB, leaf 2", 400000},
        {2, 64, 1, 1, "2 threads, one bucket, own recursion", 400000},
        {2, (size_t)1 << 20, 0, 0, "2 threads, 1 MiB", 400000},
        {3, (size_t)1 << 20, 1, 1, "3 threads, 1 MiB, own recursion", 400000},
    };
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) pj_test_suites(perft_dir, &configs[c]);

    /* Deeper runs, where the queue is split at ply 3 and tables fill up. */
    cn_position pos;
    if (pj_parse(&pos, PJ_START_FEN, 0) == 0) {
        static const pj_config deep[] = {
            {2, 0, 0, 0, "2 threads", 0},
            {3, 4096, 0, 0, "3 threads, 4 KiB", 0},
            {2, (size_t)32 << 20, 2, 0, "2 threads, 32 MiB, leaf 2", 0},
        };
        for (size_t c = 0; c < sizeof deep / sizeof deep[0]; c++) pj_run_checked(&pos, 6, &deep[c], 119060324, "start");
    }
    if (pj_parse(&pos, PJ_KIWIPETE_FEN, 0) == 0) {
        static const pj_config deep = {2, (size_t)1 << 20, 3, 0, "2 threads, 1 MiB, leaf 3", 0};
        pj_run_checked(&pos, 5, &deep, 193690690, "kiwipete");
    }

    static const pj_config unit_configs[] = {
        {1, 0, 0, 0, "1 thread", 0},
        {2, 2048, 0, 0, "2 threads, 2 KiB", 0},
        {3, (size_t)1 << 20, 1, 1, "3 threads, 1 MiB, own recursion", 0},
    };
    for (size_t c = 0; c < sizeof unit_configs / sizeof unit_configs[0]; c++) pj_test_units(&unit_configs[c]);
    pj_test_units_edges();

    pj_test_progress(2, 0);
    pj_test_progress(3, (size_t)8 << 20);
    pj_test_cancel(PJ_START_FEN, 10, 2, 0, 300);
    pj_test_cancel(PJ_START_FEN, 12, 2, (size_t)64 << 20, 300);
    pj_test_cancel(PJ_KIWIPETE_FEN, 9, 3, 0, 100);
    pj_test_cancel_races();
    return pj_failures;
}

#ifdef PERFT_JOB_TEST_MAIN
int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: perft_job_test PERFT_DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    int failures = perft_job_tests_run(dir);
    printf("perft_job_test: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
#endif
