/*
 * perft_impl.h - perft, compiled once per variant (see variant.h): bulk
 * counting at the last ply, the last two plies fused, a full variant that
 * plays every leaf, a hashed variant through a shared table, and divide.
 */

/* Keeps a computed child alive in "full" perft, so the compiler cannot
 * drop the make that nothing reads. */
#if defined(_MSC_VER) && !defined(__clang__)
#define KEEP_ALIVE(ptr) _ReadWriteBarrier()
#else
#define KEEP_ALIVE(ptr) __asm__ __volatile__("" : : "r"(ptr) : "memory")
#endif

/* Bulk-counting perft, depth >= 2. One body, compiled per side to move:
 * `us` is a constant in each of the two wrappers. */
static uint64_t perft_white(const cn_position *p, int depth, const castle_geometry *castling);
static uint64_t perft_black(const cn_position *p, int depth, const castle_geometry *castling);

/* The last two plies, fused (MODE_CHILDREN), with the children's counts
 * inlined into them but for those marked CN_NOINLINE: a call per child
 * would cost its prologue, its saved registers and the child written to
 * memory and read back, 9-14% of the perft's instructions. The pext path
 * only: the multiply path's lookups are longer, and with them the inlined
 * code ran slower on kiwipete and pos4 than the calls it saves. */
#if CN_USE_PEXT
#define PERFT2_INLINE CN_FLATTEN
#else
#define PERFT2_INLINE
#endif
PERFT2_INLINE static uint64_t perft2_white(const cn_position *p, const castle_geometry *castling) {
    return generate_moves(p, 0, MODE_CHILDREN, NULL, castling, NULL);
}
PERFT2_INLINE static uint64_t perft2_black(const cn_position *p, const castle_geometry *castling) {
    return generate_moves(p, 1, MODE_CHILDREN, NULL, castling, NULL);
}

CN_INLINE uint64_t perft_side(const cn_position *p, int depth, const castle_geometry *castling, const int us) {
    if (depth == 2) return us ? perft2_black(p, castling) : perft2_white(p, castling);
    gen_move moves[CN_MAX_MOVES];
    const int count = (int)generate_moves(p, us, MODE_LIST, moves, castling, NULL);
    uint64_t nodes = 0;
    cn_position child;
    for (int i = 0; i < count; i++) {
        make_child(p, &child, moves[i], castling, us);
        nodes += us ? perft_white(&child, depth - 1, castling) : perft_black(&child, depth - 1, castling);
    }
    return nodes;
}

static uint64_t perft_white(const cn_position *p, int depth, const castle_geometry *castling) {
    return perft_side(p, depth, castling, 0);
}
static uint64_t perft_black(const cn_position *p, int depth, const castle_geometry *castling) {
    return perft_side(p, depth, castling, 1);
}

static uint64_t perft_with_geometry(const cn_position *p, int depth, const castle_geometry *castling) {
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)(p->side ? count_moves_black(p, castling, 0) : count_moves_white(p, castling, 0));
    return p->side ? perft_black(p, depth, castling) : perft_white(p, depth, castling);
}

static uint64_t impl_perft(const cn_position *p, int depth) {
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    return perft_with_geometry(p, depth, &castling);
}

/* Every leaf move is generated and played: for comparison with engines that
 * do not bulk-count. */
static uint64_t perft_full_rec(const cn_position *p, int depth, const castle_geometry *castling) {
    gen_move moves[CN_MAX_MOVES];
    const int count = list_moves(p, moves, castling);
    uint64_t nodes = 0;
    cn_position child;
    for (int i = 0; i < count; i++) {
        make_child_any(p, &child, moves[i], castling);
        if (depth == 1) {
            KEEP_ALIVE(&child);
            nodes++;
        } else {
            nodes += perft_full_rec(&child, depth - 1, castling);
        }
    }
    return nodes;
}

static uint64_t impl_perft_full(const cn_position *p, int depth) {
    if (depth <= 0) return 1;
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    return perft_full_rec(p, depth, &castling);
}

/* Hashed perft. Subtrees of depth >= 2 go through the table. abort_flag is
 * polled at depth >= 3; once set, the search unwinds with meaningless
 * counts (the caller discards them) and stores nothing more. */
#define ABORTED(flag) (CN_TT_LOAD(flag) != 0)

typedef struct hashed_search {
    const cn_tt *tt;
    const uint64_t *keys2; /* the table's second key set */
    const uint64_t *abort_flag;
    castle_geometry castling;
} hashed_search;

static uint64_t perft_hashed_white(const cn_position *p, uint64_t key2, int depth, const hashed_search *search);
static uint64_t perft_hashed_black(const cn_position *p, uint64_t key2, int depth, const hashed_search *search);

/* key2: the position's second key (see transposition_table.h). */
CN_INLINE uint64_t perft_hashed_side(const cn_position *p, uint64_t key2, int depth, const hashed_search *search,
                                     const int us) {
    const uint64_t tag = cn_tt_tag(p->key, depth), tag2 = cn_tt_tag2(search->tt, key2, depth);
    uint64_t nodes = 0;
    if (cn_tt_probe(search->tt, tag, tag2, &nodes)) return nodes;
    if (depth == 2) {
        /* The last two plies need no keys: the fused count. */
        nodes = generate_moves(p, us, MODE_CHILDREN, NULL, &search->castling, NULL);
        cn_tt_store(search->tt, tag, tag2, nodes);
        return nodes;
    }
    if (ABORTED(search->abort_flag)) return 0;
    /* Every child is made and its bucket prefetched before the first is
     * searched: the probes then overlap their cache misses with one
     * another and with the search of the children before them. */
    cn_hashed_ply ply;
    gen_move *const moves = ply.moves;
    cn_position *const children = ply.children;
    uint64_t *const child_keys2 = ply.child_keys2;
    const int count = (int)generate_moves(p, us, MODE_LIST, moves, &search->castling, NULL);
    for (int i = 0; i < count; i++) {
        child_keys2[i] = make_child_keyed(p, &children[i], moves[i], &search->castling, us, key2, search->keys2);
        cn_tt_prefetch(search->tt, cn_tt_tag(children[i].key, depth - 1));
    }
    for (int i = 0; i < count; i++)
        nodes += us ? perft_hashed_white(&children[i], child_keys2[i], depth - 1, search)
                    : perft_hashed_black(&children[i], child_keys2[i], depth - 1, search);
    if (!ABORTED(search->abort_flag)) cn_tt_store(search->tt, tag, tag2, nodes);
    return nodes;
}

static uint64_t perft_hashed_white(const cn_position *p, uint64_t key2, int depth, const hashed_search *search) {
    return perft_hashed_side(p, key2, depth, search, 0);
}
static uint64_t perft_hashed_black(const cn_position *p, uint64_t key2, int depth, const hashed_search *search) {
    return perft_hashed_side(p, key2, depth, search, 1);
}

static uint64_t impl_perft_hashed(const cn_position *p, int depth, const cn_tt *tt, const uint64_t *abort_flag) {
    hashed_search search;
    search.tt = tt;
    search.keys2 = tt->keys.random;
    search.abort_flag = abort_flag;
    compute_castle_geometry(p, &search.castling);
    if (depth <= 1) return perft_with_geometry(p, depth, &search.castling);
    const uint64_t key2 = cn_tt_key2(tt, p);
    return p->side ? perft_hashed_black(p, key2, depth, &search) : perft_hashed_white(p, key2, depth, &search);
}

static int impl_divide(const cn_position *p, int depth, cn_move *out_moves, uint64_t *counts) {
    gen_move moves[CN_MAX_MOVES];
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    const int count = list_moves(p, moves, &castling);
    cn_position child;
    for (int i = 0; i < count; i++) {
        make_child_any(p, &child, moves[i], &castling);
        out_moves[i] = gen_move_public(moves[i]);
        counts[i] = perft_with_geometry(&child, depth - 1, &castling);
    }
    return count;
}
