/*
 * perft_job.c - threaded, hashed, cancellable perft (see perft_job.h).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* pthreads, sched_yield */
#endif

#include "include/perft_job.h"

#include <stdlib.h>
#include <string.h>

#include "atomics.h"
#include "clock.h"
#include "expand.h"
#include "impl.h"
#include "thread.h"
#include "transposition_table.h"

#if defined(CN_NO_THREADS)
#elif defined(_WIN32)
#include <windows.h>
#else
#include <sched.h>
#endif

/* --- threads ------------------------------------------------------------ */

/* What one ply of the job's own recursion (count_subtree) holds. */
typedef struct job_ply {
    cn_move moves[CN_MAX_MOVES];
    cn_position child;
    cn_undo undo;
} job_ply;

/* A job thread's stack, set explicitly because some platforms' default is
 * small (musl: 128 KiB): the job's recursion, at most CN_PERFT_JOB_MAX_DEPTH
 * plies, above the engine's, at most CN_PERFT_JOB_MAX_LEAF_DEPTH plies of the
 * hashed perft (the larger of its two searches). A ply takes its arrays plus
 * FRAME_EXTRA_BYTES of scalars, saved registers and return address (a few
 * hundred bytes with GCC -O3); the generator and the C library below the last
 * ply take CALLS_BYTES. Rounded up to 64 KiB, a multiple of every page size. */
#define FRAME_EXTRA_BYTES ((size_t)1024)
#define CALLS_BYTES       ((size_t)64 << 10)
#define STACK_ROUNDING    ((size_t)64 << 10)
#define JOB_STACK_NEED                                                                                                 \
    ((size_t)CN_PERFT_JOB_MAX_DEPTH * (sizeof(job_ply) + FRAME_EXTRA_BYTES) +                                          \
     (size_t)CN_PERFT_JOB_MAX_LEAF_DEPTH * (sizeof(cn_hashed_ply) + FRAME_EXTRA_BYTES) + CALLS_BYTES)
#define JOB_STACK_BYTES ((JOB_STACK_NEED + STACK_ROUNDING - 1) / STACK_ROUNDING * STACK_ROUNDING)
/* 256 threads of it must stay a modest share of a 32-bit address space too. */
_Static_assert(JOB_STACK_BYTES <= ((size_t)1 << 20), "a job thread's stack exceeds 1 MiB");
/* ASan and TSan put redzones and bookkeeping around every frame's locals: an
 * instrumented build gets four times the room. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STACK_FACTOR 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define STACK_FACTOR 4
#endif
#endif
#ifndef STACK_FACTOR
#define STACK_FACTOR 1
#endif
#define JOB_THREAD_STACK_BYTES (JOB_STACK_BYTES * STACK_FACTOR)

static void yield_thread(void) {
#if defined(CN_NO_THREADS)
    /* no other thread to yield to */
#elif defined(_WIN32)
    SwitchToThread();
#else
    sched_yield();
#endif
}

/* --- the job --------------------------------------------------------------- */

/* A subtree goes to the engine in one call when it is at most MAX_LEAF_DEPTH
 * plies deep and its estimated size (legal moves here, to the power of the
 * depth) is at most LEAF_BUDGET leaves: a few milliseconds, which bounds how
 * long a cancel takes without a table (the hashed search also polls the
 * flag), while the job's own slower recursion stays a few percent of the
 * work. Depth 2 and less always go. */
#define MAX_LEAF_DEPTH 4
#define LEAF_BUDGET    ((uint64_t)4 << 20)

/* Stop splitting once the queue has this many subtrees per thread (and at
 * least QUEUE_MIN_ITEMS), or once the subtrees are shallower than the leaf
 * depth: a few thousand subtrees keep threads evenly busy to the end. */
#define QUEUE_ITEMS_PER_THREAD 64
#define QUEUE_MIN_ITEMS        1024

typedef struct job_item {
    cn_position pos;
    int root; /* index of the root move above this subtree; -1 at depth 0 */
} job_item;

struct cn_perft_job {
    /* Set up by cn_perft_job_start, read-only while the threads run. */
    const cn_impl *impl;
    int depth;
    int item_depth; /* remaining depth below every queued subtree */
    int leaf_depth; /* a fixed leaf depth from the options, or 0: see LEAF_BUDGET */
    job_item *items;
    uint64_t item_count;
    int hashed;
    cn_tt tt;
    size_t table_bytes;
    size_t queue_bytes;
    int root_count; /* root moves, or units */
    int units;      /* 1: the queue's roots are the caller's units, not root moves */
    cn_move root_moves[CN_MAX_MOVES];
    cn_perft_job_finish_fn on_finish;
    void *user;
    uint64_t start_ns;

    /* Shared between threads: touched only through atomics.h. */
    uint64_t abort_flag;      /* read by the engine with CN_TT_LOAD */
    uint64_t next_item;       /* the queue's head */
    uint64_t items_completed; /* DONE iff this reaches item_count */
    uint64_t nodes;           /* progress: leaves counted so far */
    uint64_t roots_done;      /* progress: root moves completed */
    uint64_t workers_left;    /* the thread that takes it to 0 finishes */
    uint64_t gate_open;       /* workers start once workers_left is set */
    uint64_t state;           /* cn_perft_job_state */
    uint64_t memory_bytes;    /* table + queue while held */
    uint64_t end_ns;          /* written before state leaves RUNNING */
    uint64_t *root_counts;    /* per root move (or unit), root_count entries */
    uint64_t *root_pending;   /* subtrees of each root move (or unit) not yet counted */

    /* Owned by the controlling thread. */
    int thread_count;
    int joined;
    cn_thread threads[CN_PERFT_JOB_MAX_THREADS];
};

static int aborted(const cn_perft_job *job) { return CN_TT_LOAD(&job->abort_flag) != 0; }

static void credit(cn_perft_job *job, int root, uint64_t nodes) {
    cn_atomic_add(&job->nodes, nodes);
    if (root >= 0) cn_atomic_add(&job->root_counts[root], nodes);
}

static int is_leaf(const cn_perft_job *job, const cn_position *pos, int depth) {
    if (job->leaf_depth > 0) return depth <= job->leaf_depth;
    if (depth <= 2) return 1;
    if (depth > MAX_LEAF_DEPTH) return 0;
    const uint64_t branching = (uint64_t)cn_count_legal_moves(pos);
    uint64_t estimate = 1;
    for (int i = 0; i < depth; i++) estimate *= branching;
    return estimate <= LEAF_BUDGET;
}

/* Leaves below pos at depth, crediting progress as they are counted. After a
 * cancel the return value is meaningless and nothing more is stored. */
static uint64_t count_subtree(cn_perft_job *job, const cn_position *pos, int depth, int root) {
    if (aborted(job)) return 0;
    if (is_leaf(job, pos, depth)) {
        uint64_t nodes = job->hashed ? job->impl->perft_hashed(pos, depth, &job->tt, &job->abort_flag)
                                     : job->impl->perft(pos, depth);
        if (!aborted(job)) credit(job, root, nodes);
        return nodes;
    }
    /* The same tags as the engine's hashed perft, so entries are shared
     * between these upper plies and the engine's lower ones. The second key
     * comes from scratch: these plies are few. */
    const uint64_t tag = cn_tt_tag(pos->key, depth);
    const uint64_t tag2 = job->hashed ? cn_tt_tag2(&job->tt, cn_tt_key2(&job->tt, pos), depth) : 0;
    uint64_t nodes = 0;
    if (job->hashed && cn_tt_probe(&job->tt, tag, tag2, &nodes)) {
        credit(job, root, nodes);
        return nodes;
    }
    job_ply ply;
    const int count = cn_legal_moves(pos, ply.moves);
    for (int i = 0; i < count && !aborted(job); i++) {
        ply.child = *pos;
        cn_make(&ply.child, ply.moves[i], &ply.undo);
        nodes += count_subtree(job, &ply.child, depth - 1, root);
    }
    if (job->hashed && !aborted(job)) cn_tt_store(&job->tt, tag, tag2, nodes);
    return nodes;
}

/* Frees the table and the queue. */
static void release_work(cn_perft_job *job) {
    if (job->hashed) cn_tt_destroy(&job->tt);
    free(job->items);
    job->items = NULL;
}

/* Frees what the threads no longer need, publishes the outcome, and calls
 * on_finish. Runs on the last thread to finish. */
static void finish(cn_perft_job *job) {
    job->end_ns = cn_monotonic_nanoseconds();
    release_work(job);
    cn_atomic_store_release(&job->memory_bytes, 0);
    const int complete = cn_atomic_load_acquire(&job->items_completed) == job->item_count;
    cn_atomic_store_release(&job->state, complete ? CN_PERFT_JOB_DONE : CN_PERFT_JOB_CANCELLED);
    if (job->on_finish) job->on_finish(job->user);
}

static void worker(void *arg) {
    cn_perft_job *job = arg;
    /* workers_left is set after the last thread is created: wait for it, so
     * that the thread that takes it to zero is always a job thread. */
    while (!cn_atomic_load_acquire(&job->gate_open)) yield_thread();
    while (!aborted(job)) {
        const uint64_t index = cn_atomic_add(&job->next_item, 1) - 1;
        if (index >= job->item_count) break;
        const job_item *item = &job->items[index];
        count_subtree(job, &item->pos, job->item_depth, item->root);
        if (aborted(job)) break; /* the count may be partial: not completed */
        if (item->root >= 0 && CN_ATOMIC_SUB_ONE(&job->root_pending[item->root]) == 0)
            cn_atomic_add(&job->roots_done, 1);
        cn_atomic_add(&job->items_completed, 1);
    }
    if (CN_ATOMIC_SUB_ONE(&job->workers_left) == 0) finish(job);
}

/* Where cn_expand's children go: items after `next`, each under the root
 * move of its parent in `parents` (NULL: under its own move, at the root). */
typedef struct queue_fill {
    const job_item *parents;
    job_item *next;
} queue_fill;

static int add_item(void *user, size_t parent, int move, const cn_position *child) {
    queue_fill *fill = user;
    fill->next->pos = *child;
    fill->next->root = fill->parents ? fill->parents[parent].root : move;
    fill->next++;
    return 0;
}

/* Children of items[0, count), each keeping its root move; NULL when memory
 * is short. *next_count gets their number. */
static job_item *expand_items(const job_item *items, uint64_t count, uint64_t *next_count) {
    uint64_t total = 0;
    for (uint64_t i = 0; i < count; i++) total += (uint64_t)cn_count_legal_moves(&items[i].pos);
    job_item *next = malloc(sizeof(job_item) * (size_t)(total ? total : 1));
    if (!next) return NULL;
    queue_fill fill = {items, next};
    cn_expand(items, sizeof *items, (size_t)count, cn_legal_moves, add_item, &fill);
    *next_count = total;
    return next;
}

/* One item per unit, each its own root; NULL when memory is short. */
static job_item *unit_items(const cn_position *units, int count) {
    job_item *items = malloc(sizeof(job_item) * (size_t)(count ? count : 1));
    for (int i = 0; items && i < count; i++) {
        items[i].pos = units[i];
        items[i].root = i;
    }
    return items;
}

/* The root's children (all of the queue at depth 1), or at depth 0 the root
 * itself; NULL when memory is short. */
static job_item *root_items(cn_perft_job *job, const cn_position *root) {
    if (job->depth == 0) {
        job_item *item = malloc(sizeof(job_item));
        if (item) {
            item->pos = *root;
            item->root = -1;
        }
        return item;
    }
    job->root_count = cn_legal_moves(root, job->root_moves);
    job_item *items = malloc(sizeof(job_item) * (size_t)(job->root_count ? job->root_count : 1));
    if (!items) return NULL;
    queue_fill fill = {NULL, items};
    cn_expand(root, sizeof *root, 1, cn_legal_moves, add_item, &fill);
    return items;
}

/* Builds the queue: the root's children, expanded ply by ply (each item
 * keeping its root move) until there are `wanted` subtrees or they are as
 * shallow as the leaf depth. */
static cn_status build_queue(cn_perft_job *job, const cn_position *roots, uint64_t wanted) {
    job_item *items = job->units ? unit_items(roots, job->root_count) : root_items(job, roots);
    if (!items) return CN_ERR_NO_MEMORY;
    uint64_t count = job->units ? (uint64_t)job->root_count : job->depth == 0 ? 1 : (uint64_t)job->root_count;
    int ply = job->units || job->depth == 0 ? 0 : 1;
    const int split_floor = job->leaf_depth > 0 ? job->leaf_depth : MAX_LEAF_DEPTH;
    while (count > 0 && count < wanted && job->depth - ply >= split_floor) {
        job_item *next = expand_items(items, count, &count);
        free(items);
        if (!next) return CN_ERR_NO_MEMORY;
        items = next;
        ply++;
    }
    job->items = items;
    job->item_count = count;
    job->item_depth = job->depth - ply;
    job->queue_bytes = sizeof(job_item) * (size_t)(count ? count : 1);
    const size_t roots_room = (size_t)(job->units ? job->root_count : CN_MAX_MOVES) + 1;
    job->root_counts = calloc(roots_room, sizeof(uint64_t));
    job->root_pending = calloc(roots_room, sizeof(uint64_t));
    if (!job->root_counts || !job->root_pending) return CN_ERR_NO_MEMORY;
    for (uint64_t i = 0; i < count; i++)
        if (items[i].root >= 0) job->root_pending[items[i].root]++;
    for (int r = 0; r < job->root_count; r++)
        if (job->root_pending[r] == 0) job->roots_done++; /* no leaves below: already complete */
    return CN_OK;
}

/* A table only pays where the engine would probe it (depth >= 2). */
static cn_status create_table(cn_perft_job *job, size_t hash_bytes, uint64_t key_seed) {
    if (hash_bytes == 0 || job->depth < 2) return CN_OK;
    const cn_status status = cn_tt_create(&job->tt, hash_bytes, key_seed);
    if (status != CN_OK) return status;
    job->hashed = 1;
    job->table_bytes = cn_tt_bytes(&job->tt);
    return CN_OK;
}

#if defined(CN_NO_THREADS)
/* No threads: the one worker runs here, so the job has finished (and
 * on_finish has run) when cn_perft_job_start returns. */
static cn_status start_threads(cn_perft_job *job, int threads) {
    (void)threads;
    job->workers_left = 1;
    job->gate_open = 1;
    worker(job);
    return CN_OK;
}
#else
/* Starts up to `threads` workers (more than subtrees would only wait);
 * fewer than asked only makes the run slower, none is an error. */
static cn_status start_threads(cn_perft_job *job, int threads) {
    if ((uint64_t)threads > job->item_count) threads = job->item_count ? (int)job->item_count : 1;
    for (int i = 0; i < threads; i++) {
        if (!cn_thread_start(&job->threads[i], worker, job, JOB_THREAD_STACK_BYTES)) break;
        job->thread_count++;
    }
    if (job->thread_count == 0) return CN_ERR_NO_THREAD;
    job->workers_left = (uint64_t)job->thread_count;
    cn_atomic_store_release(&job->gate_open, 1);
    return CN_OK;
}
#endif

/* The job as the options set it up, before any work exists. */
static void configure(cn_perft_job *job, const cn_perft_job_options *options) {
    job->start_ns = cn_monotonic_nanoseconds();
    job->impl = cn_active_impl();
    job->depth = options->depth;
    job->on_finish = options->on_finish;
    job->user = options->user;
    job->state = CN_PERFT_JOB_RUNNING;
    job->leaf_depth = options->leaf_depth;
}

/* Subtrees to queue before the threads start. */
static uint64_t queue_target(const cn_perft_job_options *options) {
    if (options->min_queue_items > 0) return (uint64_t)options->min_queue_items;
    const uint64_t per_threads = (uint64_t)options->threads * QUEUE_ITEMS_PER_THREAD;
    return per_threads < QUEUE_MIN_ITEMS ? QUEUE_MIN_ITEMS : per_threads;
}

static int in_range(int value, int low, int high) { return value >= low && value <= high; }

static int options_valid(const cn_perft_job_options *options) {
    return options && in_range(options->depth, 0, CN_PERFT_JOB_MAX_DEPTH) &&
           in_range(options->threads, 1, CN_PERFT_JOB_MAX_THREADS) &&
           in_range(options->leaf_depth, 0, CN_PERFT_JOB_MAX_LEAF_DEPTH) &&
           in_range(options->min_queue_items, 0, CN_PERFT_JOB_MAX_UNITS);
}

/* Frees a job that never started its threads. */
static void discard(cn_perft_job *job) {
    release_work(job);
    free(job->root_counts);
    free(job->root_pending);
    free(job);
}

/* Builds the queue from `roots` (the root position, or the units), the table
 * and the threads. */
static cn_status launch(const cn_position *roots, int unit_count, const cn_perft_job_options *options,
                        cn_perft_job **out) {
    cn_perft_job *job = calloc(1, sizeof *job);
    if (!job) return CN_ERR_NO_MEMORY;
    configure(job, options);
    job->units = unit_count >= 0;
    if (job->units) job->root_count = unit_count;
    cn_status status;
    if ((status = build_queue(job, roots, queue_target(options))) == CN_OK &&
        (status = create_table(job, options->hash_bytes, options->key_seed)) == CN_OK) {
        job->memory_bytes = job->table_bytes + job->queue_bytes;
        status = start_threads(job, options->threads);
    }
    if (status != CN_OK) {
        discard(job);
        return status;
    }
    *out = job;
    return CN_OK;
}

cn_status cn_perft_job_start(const cn_position *pos, const cn_perft_job_options *options, cn_perft_job **out) {
    *out = NULL;
    if (!pos || !options_valid(options)) return CN_ERR_BAD_ARGUMENT;
    cn_status status = cn_init();
    if (status != CN_OK) return status;
    /* The job's variants count strict positions only. */
    if (cn_position_validate(pos) != CN_OK || pos->relaxed) return CN_ERR_BAD_POSITION;
    return launch(pos, -1, options, out);
}

/* Whether every unit that holds a castling right has the same rook for it as
 * the first unit that holds it: the table's keys do not cover the rook. */
static int castle_rooks_agree(const cn_position *units, int count) {
    uint8_t rook[4] = {CN_NO_SQUARE, CN_NO_SQUARE, CN_NO_SQUARE, CN_NO_SQUARE};
    for (int u = 0; u < count; u++) {
        for (int i = 0; i < 4; i++) {
            const uint8_t square = units[u].castle_rook[i];
            if (square == CN_NO_SQUARE) continue;
            if (rook[i] != CN_NO_SQUARE && rook[i] != square) return 0;
            rook[i] = square;
        }
    }
    return 1;
}

cn_status cn_perft_job_start_units(const cn_position *units, int unit_count, const cn_perft_job_options *options,
                                   cn_perft_job **out) {
    *out = NULL;
    if ((!units && unit_count > 0) || unit_count < 0 || unit_count > CN_PERFT_JOB_MAX_UNITS || !options_valid(options))
        return CN_ERR_BAD_ARGUMENT;
    cn_status status = cn_init();
    if (status != CN_OK) return status;
    for (int u = 0; u < unit_count; u++)
        if (cn_position_validate(&units[u]) != CN_OK || units[u].relaxed) return CN_ERR_BAD_POSITION;
    if (!castle_rooks_agree(units, unit_count)) return CN_ERR_BAD_POSITION;
    return launch(units, unit_count, options, out);
}

void cn_perft_job_cancel(cn_perft_job *job) {
    if (job) CN_TT_STORE(&job->abort_flag, 1);
}

cn_perft_job_state cn_perft_job_state_get(const cn_perft_job *job) {
    return (cn_perft_job_state)cn_atomic_load_acquire(&job->state);
}

void cn_perft_job_progress_get(const cn_perft_job *job, cn_perft_job_progress *out) {
    const int running = cn_atomic_load_acquire(&job->state) == CN_PERFT_JOB_RUNNING;
    out->nodes = cn_atomic_load_acquire(&job->nodes);
    out->root_moves_done = (int)cn_atomic_load_acquire(&job->roots_done);
    out->root_moves_total = job->root_count;
    out->elapsed_ns = (running ? cn_monotonic_nanoseconds() : job->end_ns) - job->start_ns;
}

uint64_t cn_perft_job_nodes(const cn_perft_job *job) {
    return cn_perft_job_state_get(job) == CN_PERFT_JOB_DONE ? cn_atomic_load_acquire(&job->nodes) : 0;
}

int cn_perft_job_root_moves(const cn_perft_job *job, const cn_move **moves, const uint64_t **counts) {
    *moves = job->root_moves;
    *counts = job->root_counts;
    return cn_perft_job_state_get(job) == CN_PERFT_JOB_DONE && !job->units ? job->root_count : 0;
}

int cn_perft_job_unit_results(const cn_perft_job *job, int first, int count, uint64_t *counts, uint8_t *done) {
    if (!job->units || first < 0 || count < 0 || first > job->root_count) return 0;
    if (count > job->root_count - first) count = job->root_count - first;
    for (int i = 0; i < count; i++) {
        /* Acquire: every credit to a unit happens before its last pending
         * subtree is taken off, so a unit seen done has its final count. */
        done[i] = cn_atomic_load_acquire(&job->root_pending[first + i]) == 0;
        counts[i] = done[i] ? cn_atomic_load_acquire(&job->root_counts[first + i]) : 0;
    }
    return count;
}

size_t cn_perft_job_memory(const cn_perft_job *job) { return (size_t)cn_atomic_load_acquire(&job->memory_bytes); }

size_t cn_perft_job_table_bytes(const cn_perft_job *job) { return job->table_bytes; }

size_t cn_perft_key_set_name(uint64_t seed, char *out, size_t cap) {
    static const char prefix[] = "xorshift64star-v1-", digits[] = "0123456789abcdef";
    if (seed == 0) seed = CN_PERFT_KEY_SEED;
    size_t length = 0;
    for (const char *c = prefix; *c && length + 1 < cap; c++) out[length++] = *c;
    for (int shift = 60; shift >= 0 && length + 1 < cap; shift -= 4) out[length++] = digits[(seed >> shift) & 15u];
    if (cap > 0) out[length] = '\0';
    return length;
}

void cn_perft_job_wait(cn_perft_job *job) {
    if (job->joined) return;
    for (int i = 0; i < job->thread_count; i++) cn_thread_join(&job->threads[i]);
    job->joined = 1;
}

void cn_perft_job_free(cn_perft_job *job) {
    if (!job) return;
    cn_perft_job_cancel(job);
    cn_perft_job_wait(job);
    free(job->root_counts);
    free(job->root_pending);
    free(job);
}
