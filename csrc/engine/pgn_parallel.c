/*
 * pgn_parallel.c - cn_pgn_read_parts and cn_pgn_read_parallel: one text
 * read as blocks on several threads, whose outputs are, in order, exactly
 * the output of one cn_pgn_read.
 *
 * A block starts at a line that opens a tag pair after a line that does
 * not, which is where a game starts in any ordinary file. That guess is
 * checked, never trusted: the block before reads on past its end until a
 * game would start at or after it (cn_pgn_input.stop), so it ends where a
 * single reader would be between games; the next block is kept only if
 * that is exactly its start, at a line start.
 *
 * Nothing is counted or copied before the threads start or after they
 * end: each block after the first is read from line 1, and its part's
 * line offset (the lines before it, which the blocks before it count as
 * they read) is found once they are done.
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
#include "thread.h"

/* The reader allocates its state; a block's thread needs little stack. */
#define BLOCK_THREAD_STACK_BYTES ((size_t)256 << 10)
/* Blocks a thread, so that the threads' shares even out. */
#define BLOCKS_PER_THREAD 4

typedef struct pgn_block {
    size_t start; /* offset in the whole text */
    cn_pgn_input in;
    cn_pgn_output *out; /* the block's part */
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
        b->status = cn_pgn_read(&b->in, b->out);
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

/* Cuts in->text into at most `count` blocks, reading into parts[0..);
 * returns how many. Every block after the first is read from line 1. */
static size_t cut_blocks(const cn_pgn_input *in, cn_pgn_part *parts, pgn_block *blocks, size_t count,
                         size_t min_block) {
    size_t made = 0, start = 0;
    while (made < count) {
        pgn_block *b = &blocks[made];
        b->start = start;
        b->in.text = in->text + start;
        b->in.length = in->length - start;
        b->in.final = in->final;
        b->in.cut = in->cut;
        b->in.mode = in->mode;
        b->in.line = made ? 1 : in->line ? in->line : 1;
        b->in.column = made ? 0 : in->column;
        b->out = &parts[made].out;
        made++;
        const size_t goal = start + (in->length - start) / (count - made + 1);
        const size_t next = next_block_start(in->text, in->length, goal > start + min_block ? goal : start + min_block);
        if (made == count || next + min_block > in->length) break;
        b->in.stop = next - start;
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
static int ends_at_next(const pgn_block *b) { return b->in.consumed == b->in.stop && b->in.consumed_column == 0; }

/* Keeps the parts of the blocks read in order, gives each its line
 * offset, and reads in order into the part after them what follows a
 * block that did not end where the next one starts. */
static cn_status keep_blocks(cn_pgn_input *in, cn_pgn_parts *parts, pgn_block *blocks, size_t count) {
    size_t k = 0;
    cn_status status = blocks[0].status;
    parts->part[0].line_offset = 0;
    while (status == CN_OK && k + 1 < count && ends_at_next(&blocks[k])) {
        /* Block k+1, read from line 1, starts on the line block k ended on. */
        parts->part[k + 1].line_offset = parts->part[k].line_offset + blocks[k].in.consumed_line - 1;
        k++;
        status = blocks[k].status;
    }
    for (size_t j = k + 1; j < count; j++) cn_pgn_output_free(&parts->part[j].out);
    parts->count = k + 1;
    const pgn_block *last = &blocks[k];
    in->blocks = k + 1;
    in->consumed = last->start + last->in.consumed;
    in->consumed_line = parts->part[k].line_offset + last->in.consumed_line;
    in->consumed_column = last->in.consumed_column;
    if (status != CN_OK || k + 1 == count || last->in.consumed < last->in.stop) return status;
    cn_pgn_input rest = *in; /* the text after a block that read past the next one's start */
    rest.text = in->text + in->consumed;
    rest.length = in->length - in->consumed;
    rest.line = in->consumed_line;
    rest.column = in->consumed_column;
    rest.stop = 0;
    cn_pgn_part *after = &parts->part[parts->count++];
    after->line_offset = 0;
    status = cn_pgn_read(&rest, &after->out);
    in->consumed += rest.consumed;
    in->consumed_line = rest.consumed_line;
    in->consumed_column = rest.consumed_column;
    return status;
}

cn_status cn_pgn_read_parts(cn_pgn_input *in, cn_pgn_parts *parts, int threads, size_t min_block) {
    memset(parts, 0, sizeof *parts);
    if (min_block < 1) min_block = 1;
    const size_t thread_count = threads < 1 ? 1 : threads > CN_PGN_MAX_THREADS ? CN_PGN_MAX_THREADS : (size_t)threads;
    size_t count = thread_count * BLOCKS_PER_THREAD;
    if (count > in->length / min_block) count = in->length / min_block;
    if (thread_count < 2 || count < 2 || in->max_games || in->stop || in->mode == CN_PGN_MODE_CHESSJS) count = 1;
    /* One part a block and one for a read after them. */
    parts->part = calloc(count + 1, sizeof *parts->part);
    if (!parts->part) return CN_ERR_NO_MEMORY;
    in->blocks = 1;
    if (count == 1) {
        parts->count = 1;
        return cn_pgn_read(in, &parts->part[0].out);
    }
    pgn_block *blocks = calloc(count, sizeof *blocks);
    if (!blocks) return CN_ERR_NO_MEMORY;
    count = cut_blocks(in, parts->part, blocks, count, min_block);
    run_blocks(blocks, count, thread_count < count ? thread_count : count);
    const cn_status status = keep_blocks(in, parts, blocks, count);
    free(blocks);
    return status;
}

void cn_pgn_parts_free(cn_pgn_parts *parts) {
    if (parts->part)
        for (size_t k = 0; k < parts->count; k++) cn_pgn_output_free(&parts->part[k].out);
    free(parts->part);
    memset(parts, 0, sizeof *parts);
}

cn_status cn_pgn_read_parallel(cn_pgn_input *in, cn_pgn_output *out, int threads, size_t min_block) {
    cn_pgn_parts parts;
    cn_status status = cn_pgn_read_parts(in, &parts, threads, min_block);
    for (size_t k = 0; k < parts.count; k++) {
        const cn_status joined = pgn_out_append(out, &parts.part[k].out, parts.part[k].line_offset);
        if (status == CN_OK) status = joined;
    }
    cn_pgn_parts_free(&parts);
    return status;
}
