/*
 * pgn_parallel.c - cn_pgn_read_parallel: one text read as blocks on
 * several threads, joined into exactly the output of one cn_pgn_read.
 *
 * A block starts at a line that opens a tag pair after a line that does
 * not, which is where a game starts in any ordinary file. That guess is
 * checked, never trusted: the block before reads on past its end until a
 * game would start at or after it (cn_pgn_input.stop), so it ends where a
 * single reader would be between games; the next block is kept only if
 * that is exactly its start and line.
 *
 * The text is cut into several blocks a thread, which the threads take in
 * turn: a thread the system starts late, or a block slower than the rest,
 * then delays the read by one small block, not by a thread's share.
 */
#include <stdlib.h>
#include <string.h>

#include "atomics.h"
#include "include/pgn.h"
#include "pgn_lexer.h"
#include "pgn_output.h"
#include "sse2.h"
#include "thread.h"

/* The reader allocates its state; a block's thread needs little stack. */
#define BLOCK_THREAD_STACK_BYTES ((size_t)256 << 10)
/* Blocks a thread, so that the threads' shares even out. */
#define BLOCKS_PER_THREAD 4

typedef struct pgn_block {
    size_t start; /* offset in the whole text */
    cn_pgn_input in;
    cn_pgn_output own;     /* the output of blocks after the first */
    cn_pgn_output *target; /* where this block's records go */
    cn_status status;
} pgn_block;

/* The blocks the threads share; `next` is the first not yet taken. */
typedef struct pgn_blocks {
    pgn_block *block;
    size_t count;
    uint64_t next;
} pgn_blocks;

/* Reads blocks in turn until none is left. */
static void read_blocks(void *arg) {
    pgn_blocks *blocks = arg;
    for (;;) {
        const uint64_t k = cn_atomic_add(&blocks->next, 1) - 1;
        if (k >= blocks->count) return;
        pgn_block *b = &blocks->block[k];
        b->status = cn_pgn_read(&b->in, b->target);
    }
}

/* Is text[from..] a line that opens a tag pair? */
static int opens_tag(const char *text, size_t length, size_t from) { return from < length && text[from] == '['; }

/* The first line start at or after `from` (> 0) that opens a tag pair
 * after a line that does not; `length` when there is none. */
static size_t next_block_start(const char *text, size_t length, size_t from) {
    size_t p = from - 1;
    for (;;) {
        const char *nl = memchr(text + p, '\n', length - p);
        if (!nl) return length;
        const size_t next = (size_t)(nl - text) + 1;
        if (pgn_tag_line_at(text, length, next)) {
            size_t previous = next - 1; /* the line before: back to its start */
            while (previous > 0 && text[previous - 1] != '\n') previous--;
            if (!opens_tag(text, next - 1, previous)) return next;
        }
        p = next;
    }
}

/* The cut counts every line of a text before any thread starts, so this
 * is on the read's serial path. SSE2 counts 16 bytes a step in byte lanes,
 * summed by psadbw before a lane can overflow: on a 1 MiB text in cache,
 * a third of the time of a memchr call per line; other CPUs count in a loop
 * the compiler vectorizes. */
static uint32_t newlines(const char *text, size_t from, size_t to) {
    uint64_t n = 0;
    size_t i = from;
#if CN_HAVE_SSE2
    const __m128i newline = _mm_set1_epi8('\n');
    while (to - i >= 16) {
        size_t steps = (to - i) / 16;
        if (steps > 255) steps = 255;
        __m128i lanes = _mm_setzero_si128();
        for (size_t k = 0; k < steps; k++, i += 16)
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(text + i)), newline));
        const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
        n += (uint64_t)_mm_cvtsi128_si32(sums) + (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#endif
    for (; i < to; i++) n += text[i] == '\n';
    return (uint32_t)n;
}

/* Cuts in->text into at most `count` blocks; returns how many. */
static size_t cut_blocks(const cn_pgn_input *in, cn_pgn_output *out, pgn_block *blocks, size_t count,
                         size_t min_block) {
    size_t made = 0, start = 0;
    uint32_t line = in->line ? in->line : 1;
    while (made < count) {
        pgn_block *b = &blocks[made];
        b->start = start;
        b->in.text = in->text + start;
        b->in.length = in->length - start;
        b->in.final = in->final;
        b->in.mode = in->mode;
        b->in.line = line;
        b->in.column = made ? 0 : in->column;
        b->target = made ? &b->own : out;
        made++;
        const size_t goal = start + (in->length - start) / (count - made + 1);
        const size_t next = next_block_start(in->text, in->length, goal > start + min_block ? goal : start + min_block);
        if (made == count || next + min_block > in->length) break;
        b->in.stop = next - start;
        line += newlines(in->text, start, next);
        start = next;
    }
    return made;
}

/* Reads every block on the calling thread and threads - 1 others; a thread
 * that cannot be started leaves its share to the rest. */
static void run_blocks(pgn_block *block, size_t count, size_t threads) {
    pgn_blocks blocks = {block, count, 0};
    cn_thread helpers[CN_PGN_MAX_THREADS];
    int started[CN_PGN_MAX_THREADS] = {0};
    for (size_t t = 1; t < threads; t++)
        started[t] = cn_thread_start_beside(&helpers[t], read_blocks, &blocks, BLOCK_THREAD_STACK_BYTES);
    read_blocks(&blocks);
    for (size_t t = 1; t < threads; t++)
        if (started[t]) cn_thread_join(&helpers[t]);
}

/* Did block b end exactly where the block after it starts? */
static int ends_at_next(const pgn_block *b, const pgn_block *next) {
    return b->in.consumed == b->in.stop && b->in.consumed_line == next->in.line && b->in.consumed_column == 0;
}

/* Joins the kept blocks' outputs into out and reads in order what follows
 * a block that did not end where the next one starts. */
static cn_status join_blocks(cn_pgn_input *in, cn_pgn_output *out, pgn_block *blocks, size_t count) {
    size_t k = 0;
    cn_status status = blocks[0].status;
    while (status == CN_OK && k + 1 < count && ends_at_next(&blocks[k], &blocks[k + 1])) {
        k++;
        status = blocks[k].status;
        if (status == CN_OK) status = pgn_out_append(out, &blocks[k].own);
    }
    const pgn_block *last = &blocks[k];
    in->blocks = k + 1;
    in->consumed = last->start + last->in.consumed;
    in->consumed_line = last->in.consumed_line;
    in->consumed_column = last->in.consumed_column;
    if (status != CN_OK || k + 1 == count || last->in.consumed < last->in.stop) return status;
    cn_pgn_input rest = *in; /* the text after a block that read past the next one's start */
    rest.text = in->text + in->consumed;
    rest.length = in->length - in->consumed;
    rest.line = in->consumed_line;
    rest.column = in->consumed_column;
    rest.stop = 0;
    status = cn_pgn_read(&rest, out);
    in->consumed += rest.consumed;
    in->consumed_line = rest.consumed_line;
    in->consumed_column = rest.consumed_column;
    return status;
}

cn_status cn_pgn_read_parallel(cn_pgn_input *in, cn_pgn_output *out, int threads, size_t min_block) {
    if (min_block < 1) min_block = 1;
    const size_t thread_count = threads < 1 ? 1 : threads > CN_PGN_MAX_THREADS ? CN_PGN_MAX_THREADS : (size_t)threads;
    size_t count = thread_count * BLOCKS_PER_THREAD;
    if (count > in->length / min_block) count = in->length / min_block;
    in->blocks = 1;
    if (thread_count < 2 || count < 2 || in->max_games || in->stop) return cn_pgn_read(in, out);
    pgn_block *blocks = calloc(count, sizeof *blocks);
    if (!blocks) return CN_ERR_NO_MEMORY;
    count = cut_blocks(in, out, blocks, count, min_block);
    run_blocks(blocks, count, thread_count < count ? thread_count : count);
    const cn_status status = join_blocks(in, out, blocks, count);
    for (size_t k = 1; k < count; k++) cn_pgn_output_free(&blocks[k].own);
    free(blocks);
    return status;
}
