/*
 * perft_job.h - perft at scale: one perft run on the job's own native
 * threads, optionally through a shared transposition table, cancellable,
 * with progress that any thread can read while it runs.
 *
 * No Node headers: the binding drives a job from the JS thread and
 * the C tests drive it directly.
 *
 * How the work is split: the tree is expanded breadth-first from the root
 * (cn_legal_moves + cn_make, so Polyglot keys stay right) until there are
 * enough subtrees for good load balance, and the threads take subtrees from
 * that queue in order (so root moves complete roughly one after another).
 * Inside a subtree the job recurses itself down to a few plies above the
 * leaves, checking the cancel flag at every node, and hands the last plies
 * to the engine's bulk-counting perft (cn_active_impl()->perft, or
 * ->perft_hashed when there is a table). That keeps cancellation prompt at
 * any depth without a table too, and progress counts flowing.
 *
 * Exactness with a table: see transposition_table.h. A slot is accepted only
 * when it matches two independent 64-bit keys of the position, each mixed
 * with the remaining depth: the Polyglot key in all 64 bits and a second key
 * (the key set below) in 32, so torn writes and index collisions are misses.
 * A wrong count needs a probe to meet another position's entry with the same
 * 96 checked bits: at most 3 slots * 2^-96 per probe, so below 4e-14 even
 * for 10^15 probes, assuming the keys behave like random values. Running a
 * count again with another key seed (what --verify does) checks even that.
 * The table belongs to one job, so chess960 castling rooks, which the keys do
 * not cover, are the same for every position in it.
 *
 * Threading contract: start, progress, state, cancel, memory and the result
 * readers may be called from any thread; wait and free from one controlling
 * thread only. on_finish runs once on a job thread (never inside
 * cn_perft_job_start) after the result is final and the table and work queue
 * have been freed; it must not call wait or free itself.
 */
#ifndef CN_PERFT_JOB_H
#define CN_PERFT_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "chess_native.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CN_PERFT_JOB_MAX_THREADS 256
#define CN_PERFT_JOB_MAX_DEPTH   32
/* The largest fixed leaf_depth: a job thread's stack is sized for that many
 * plies of the engine's hashed perft, each of which holds all its children. */
#define CN_PERFT_JOB_MAX_LEAF_DEPTH 8
/* Most units one job counts (its queue holds about 100 bytes a unit). */
#define CN_PERFT_JOB_MAX_UNITS (1 << 20)

/* The hashed perft's second key set: 781 values drawn from xorshift64*
 * seeded with CN_PERFT_KEY_SEED (the default) or the job's key_seed. Counts
 * never depend on it; a record that names the keys it was hashed with (a
 * journal, a work unit) stores cn_perft_key_set_name's string.
 * CN_PERFT_VERIFY_KEY_SEED is the other set a verifying run counts with. */
#define CN_PERFT_KEY_SEED        UINT64_C(0x6A09E667F3BCC909)
#define CN_PERFT_VERIFY_KEY_SEED UINT64_C(0xBB67AE8584CAA73B)
/* Room for cn_perft_key_set_name's string and its NUL. */
#define CN_PERFT_KEY_SET_NAME_MAX 48

typedef struct cn_perft_job cn_perft_job;

typedef enum cn_perft_job_state {
    CN_PERFT_JOB_RUNNING = 0,
    CN_PERFT_JOB_DONE = 1,     /* the counts are exact */
    CN_PERFT_JOB_CANCELLED = 2 /* cancelled before it finished: no counts */
} cn_perft_job_state;

typedef void (*cn_perft_job_finish_fn)(void *user);

typedef struct cn_perft_job_options {
    int depth;                        /* 0 .. CN_PERFT_JOB_MAX_DEPTH */
    int threads;                      /* 1 .. CN_PERFT_JOB_MAX_THREADS */
    size_t hash_bytes;                /* 0: no table; else its size, rounded down to a power of two */
    cn_perft_job_finish_fn on_finish; /* may be NULL */
    void *user;                       /* passed to on_finish */
    /* Tuning; 0 picks the default. leaf_depth (0 .. CN_PERFT_JOB_MAX_LEAF_DEPTH):
     * plies handed to the engine in one call (default: up to 4, by the
     * estimated subtree size; a small fixed value makes the job's own hashed
     * recursion do more, which tests use). min_queue_items (0 ..
     * CN_PERFT_JOB_MAX_UNITS): stop splitting the root once the queue has
     * this many subtrees (default max(1024, 64 * threads)). */
    int leaf_depth;
    int min_queue_items;
    uint64_t key_seed; /* the table's second key set; 0: CN_PERFT_KEY_SEED */
} cn_perft_job_options;

typedef struct cn_perft_job_progress {
    uint64_t nodes;       /* leaves counted so far (the final total once done) */
    int root_moves_done;  /* root moves whose subtrees are all counted */
    int root_moves_total; /* legal moves at the root (0 at depth 0) */
    uint64_t elapsed_ns;  /* since start; once finished, the run's duration (which
                           * can be a few microseconds below a value read
                           * just before the finish was published) */
} cn_perft_job_progress;

/* Starts the job and returns at once (the work runs on new threads); the
 * position is copied. A build without threads (CN_NO_THREADS, every
 * WebAssembly build) runs the work on the calling thread instead: the job
 * has finished, and on_finish has run, when this returns. Returns CN_OK with
 * the job in *job, or (*job NULL):
 *   CN_ERR_BAD_ARGUMENT  no position or options, or an option out of its range
 *                        (depth, threads, leaf_depth, min_queue_items)
 *   CN_ERR_BAD_POSITION  the position fails cn_position_validate
 *   CN_ERR_NO_MEMORY     the table or the work queue cannot be allocated
 *   CN_ERR_NO_THREAD     not even one thread could start
 *   what cn_init returns when it fails. */
cn_status cn_perft_job_start(const cn_position *pos, const cn_perft_job_options *options, cn_perft_job **job);

/* Starts a job over a list of positions, the units (for example the unique
 * positions some plies below a root), each counted to options->depth: the
 * units are the job's roots, and one table serves them all. The units are
 * copied. Progress counts units as root moves; cn_perft_job_unit_results reads
 * each unit's count as soon as it is final, also while the job runs and
 * after a cancel. Returns what cn_perft_job_start returns, and
 * CN_ERR_BAD_ARGUMENT for a unit count outside 0 .. CN_PERFT_JOB_MAX_UNITS,
 * CN_ERR_BAD_POSITION when a unit fails cn_position_validate or two units
 * disagree on the rook of a castling right (the table's keys do not cover it). */
cn_status cn_perft_job_start_units(const cn_position *units, int unit_count, const cn_perft_job_options *options,
                                   cn_perft_job **job);

/* Asks the threads to stop; they do within milliseconds. Harmless after the
 * finish (the job then stays DONE). */
void cn_perft_job_cancel(cn_perft_job *job);

cn_perft_job_state cn_perft_job_state_get(const cn_perft_job *job);

void cn_perft_job_progress_get(const cn_perft_job *job, cn_perft_job_progress *out);

/* Result readers, meaningful once the state is DONE. Root moves are in
 * generation order; counts[i] is the perft(depth - 1) of moves[i]. A units
 * job has no root moves (cn_perft_job_root_moves returns 0); its nodes are
 * the sum of its units' counts. */
uint64_t cn_perft_job_nodes(const cn_perft_job *job);
int cn_perft_job_root_moves(const cn_perft_job *job, const cn_move **moves, const uint64_t **counts);

/* For a units job: copies, for units first .. first + count - 1 (clipped to
 * the units there are), done[i] = 1 when unit first + i is fully counted, with
 * its count in counts[i] (else 0 and 0). Returns the number of units copied
 * (0 for a job started by cn_perft_job_start). Any thread, at any time. */
int cn_perft_job_unit_results(const cn_perft_job *job, int first, int count, uint64_t *counts, uint8_t *done);

/* Bytes the job holds for its table and work queue: 0 once it has finished
 * or been cancelled (the last thread frees them before on_finish). */
size_t cn_perft_job_memory(const cn_perft_job *job);

/* Bytes of the table actually allocated (hash_bytes rounded down). */
size_t cn_perft_job_table_bytes(const cn_perft_job *job);

/* The name of the key set of `seed` (0: CN_PERFT_KEY_SEED), for example
 * "xorshift64star-v1-6a09e667f3bcc909": it changes whenever the keys would.
 * Writes at most CN_PERFT_KEY_SET_NAME_MAX bytes with the NUL; returns the
 * length. */
size_t cn_perft_key_set_name(uint64_t seed, char *out, size_t cap);

/* Blocks until every job thread has exited. */
void cn_perft_job_wait(cn_perft_job *job);

/* Cancels if still running, waits, and frees the job. NULL is a no-op. */
void cn_perft_job_free(cn_perft_job *job);

#ifdef __cplusplus
}
#endif

#endif /* CN_PERFT_JOB_H */
