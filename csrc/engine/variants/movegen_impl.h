/*
 * movegen_impl.h - legal move generation, compiled once per variant
 * (variant.h includes it after turning the variant's instruction set on;
 * CN_USE_PEXT picks the slider indexing).
 *
 * Legality without make-and-test: a check mask (squares that block or
 * capture a single checker), two pin masks (the rays from the king through a
 * pinned piece to its pinner, split into orthogonal and diagonal), king moves
 * tested with the king lifted off the board, and an exact re-test for the
 * rare en-passant capture.
 */
#include <string.h>

#include "../attacks.h"
#include "../bitboard.h"
#include "../impl.h"
#include "../transposition_table.h"
#include "../zobrist.h"

#if CN_USE_PEXT
#include <immintrin.h>
#define SLIDER_TABLE(piece) cn_##piece##_pext
CN_INLINE bitboard rook_attacks(unsigned square, bitboard occupied) {
    const cn_slider_table *t = &cn_rook_pext[square];
    return t->attacks[_pext_u64(occupied, t->mask)];
}
CN_INLINE bitboard bishop_attacks(unsigned square, bitboard occupied) {
    const cn_slider_table *t = &cn_bishop_pext[square];
    return t->attacks[_pext_u64(occupied, t->mask)];
}
#else
#define SLIDER_TABLE(piece) cn_##piece##_magics
CN_INLINE bitboard rook_attacks(unsigned square, bitboard occupied) {
    const cn_slider_table *t = &cn_rook_magics[square];
    return t->attacks[((occupied & t->mask) * t->magic) >> t->shift];
}
CN_INLINE bitboard bishop_attacks(unsigned square, bitboard occupied) {
    const cn_slider_table *t = &cn_bishop_magics[square];
    return t->attacks[((occupied & t->mask) * t->magic) >> t->shift];
}
#endif

/* Internal moves carry the moving piece in bits 16-18 so that make does not
 * have to search the bitboards for it. */
typedef uint32_t gen_move;
#define GEN_PIECE_SHIFT 16
#define KIND_PROMOTION ((unsigned)CN_MOVE_PROMOTION << 14)
#define KIND_EN_PASSANT ((unsigned)CN_MOVE_EN_PASSANT << 14)
#define KIND_CASTLING ((unsigned)CN_MOVE_CASTLING << 14)

/* Castling geometry for the rights a position holds. King and rook stand
 * still while a right lasts (moving either loses it), so a search computes
 * this once at its root and every descendant can use it. */
typedef struct castle_geometry {
    cn_castle_path rights[4]; /* by right; zero for a right not held */
} castle_geometry;

static void compute_castle_geometry(const cn_position *p, castle_geometry *g) {
    memset(g, 0, sizeof *g);
    for (unsigned right = 0; right < 4; right++) {
        if (!(p->castling & (1u << right))) continue;
        const unsigned king = bb_lsb(p->by_type[CN_KING] & p->by_color[right >= 2]);
        g->rights[right] = cn_castle_paths[right][square_file(king)][square_file(p->castle_rook[right])];
    }
}

/* What the generator does with each legal move: count it, list it, or
 * play it and count the replies (perft's last two plies, fused so that no
 * list is written and each make is specialised for its piece). */
enum { MODE_COUNT = 0, MODE_LIST = 1, MODE_CHILDREN = 2, MODE_SETS = 3 };

/* Square a1..h8 (rank * 8 + file) to its place in UCI string order (file *
 * 8 + rank) for a whole set: the bitboard mirrored about the a1-h8
 * diagonal, in three swaps of bit blocks. */
CN_INLINE bitboard uci_order_set(bitboard b) {
    bitboard t;
    t = 0x0F0F0F0F00000000ULL & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = 0x3333000033330000ULL & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = 0x5500550055005500ULL & (b ^ (b << 7));
    b ^= t ^ (t >> 7);
    return b;
}

/* MODE_SETS: the moves as destination sets by origin, the form in which
 * write_sorted puts them in UCI order without comparing anything. Squares
 * are stored in UCI order (cn_uci_order), so that the mirroring is done as
 * the sets are made, where it overlaps other work. A piece adds its whole
 * target set at once; promotions appear once (the four pieces are
 * implied); castling moves are kept aside. */
typedef struct set_sink {
    bitboard origins;  /* UCI-order indexes of the origins whose entry in sets is valid */
    bitboard sets[64]; /* destinations (UCI-order set) by origin's UCI-order index; castling excluded */
    gen_move castles[2];
    int castle_count;
} set_sink;

/* Adds destinations, given as a UCI-order set, to the origin square `from`. */
CN_INLINE void add_destinations(set_sink *sets, unsigned from, bitboard uci_targets) {
    const unsigned index = cn_uci_order(from);
    const bitboard index_bb = bb_square(index);
    sets->sets[index] = ((sets->origins & index_bb) ? sets->sets[index] : 0) | uci_targets;
    sets->origins |= index_bb;
}

typedef struct move_sink {
    gen_move *moves;
    int count;
    uint64_t nodes;
    const cn_position *parent;
    const castle_geometry *castling;
    set_sink *sets; /* MODE_SETS only */
} move_sink;

static int count_moves_white(const cn_position *p, const castle_geometry *castling);
static int count_moves_black(const cn_position *p, const castle_geometry *castling);
CN_INLINE void make_child(const cn_position *p, cn_position *c, gen_move move, const int us);

CN_INLINE void emit_move(move_sink *sink, const int mode, const int us, gen_move move) {
    if (mode == MODE_SETS) {
        if (((move >> 14) & 3u) == CN_MOVE_CASTLING) {
            sink->sets->castles[sink->sets->castle_count++] = move;
            add_destinations(sink->sets, move & 63u, 0);
        } else {
            add_destinations(sink->sets, move & 63u, bb_square(cn_uci_order((move >> 6) & 63u)));
        }
    } else if (mode == MODE_LIST) {
        sink->moves[sink->count++] = move;
    } else if (mode == MODE_COUNT) {
        sink->count++;
    } else {
        cn_position child;
        make_child(sink->parent, &child, move, us);
        sink->nodes += (uint64_t)(us ? count_moves_white(&child, sink->castling) : count_moves_black(&child, sink->castling));
    }
}

/* Pawn geometry seen from the side to move. */
CN_INLINE bitboard pawn_push(bitboard b, const int us) { return us ? bb_south(b) : bb_north(b); }
CN_INLINE bitboard pawn_capture_east(bitboard b, const int us) { return us ? bb_south_east(b) : bb_north_east(b); }
CN_INLINE bitboard pawn_capture_west(bitboard b, const int us) { return us ? bb_south_west(b) : bb_north_west(b); }
#define PUSH_DELTA(us) ((us) ? -8 : 8)
#define EAST_DELTA(us) ((us) ? -7 : 9)
#define WEST_DELTA(us) ((us) ? -9 : 7)
#define PROMOTION_RANK(us) ((us) ? CN_RANK_1 : CN_RANK_8)
#define DOUBLE_PUSH_RANK(us) ((us) ? CN_RANK_6 : CN_RANK_3) /* after one step */

/* Check and pin information of one position, for the side to move. */
typedef struct node_masks {
    unsigned king;
    bitboard checkers;
    bitboard check_mask; /* all squares if no check; none if double check */
    bitboard pin_orthogonal;
    bitboard pin_diagonal;
} node_masks;

/* Snipers are enemy sliders seen from the king through our own pieces (the
 * lookup used only enemy blockers). With nothing between, a sniper is a
 * checker (added to *checkers); with exactly one of ours, a pinner. Returns
 * the union of the pin rays, pinners included. */
CN_INLINE bitboard scan_snipers(unsigned king, bitboard snipers, bitboard occupied, bitboard *checkers) {
    bitboard pin_rays = 0;
    while (snipers) {
        unsigned sniper = bb_pop_lsb(&snipers);
        bitboard blockers = cn_between[king][sniper] & occupied;
        if (!blockers)
            *checkers |= bb_square(sniper);
        else if (!bb_more_than_one(blockers))
            pin_rays |= cn_between[king][sniper] | bb_square(sniper);
    }
    return pin_rays;
}

CN_INLINE void compute_masks(const cn_position *p, const int us, node_masks *nm) {
    const int them = us ^ 1;
    const bitboard own = p->by_color[us], opponent = p->by_color[them];
    const bitboard occupied = own | opponent;
    const unsigned king = bb_lsb(p->by_type[CN_KING] & own);
    bitboard checkers = (cn_pawn_attacks[us][king] & p->by_type[CN_PAWN] & opponent) |
                        (cn_knight_attacks[king] & p->by_type[CN_KNIGHT] & opponent);
    const bitboard rooks_queens = (p->by_type[CN_ROOK] | p->by_type[CN_QUEEN]) & opponent;
    const bitboard bishops_queens = (p->by_type[CN_BISHOP] | p->by_type[CN_QUEEN]) & opponent;
    bitboard pin_orthogonal = 0, pin_diagonal = 0;

    /* Entry 0 of a square's table is its attack set on an empty board: a
     * cheap test that skips the lookup when no enemy slider is aligned. */
    if (SLIDER_TABLE(rook)[king].attacks[0] & rooks_queens)
        pin_orthogonal = scan_snipers(king, rook_attacks(king, opponent) & rooks_queens, occupied, &checkers);
    if (SLIDER_TABLE(bishop)[king].attacks[0] & bishops_queens)
        pin_diagonal = scan_snipers(king, bishop_attacks(king, opponent) & bishops_queens, occupied, &checkers);
    nm->king = king;
    nm->checkers = checkers;
    nm->pin_orthogonal = pin_orthogonal;
    nm->pin_diagonal = pin_diagonal;
    if (!checkers)
        nm->check_mask = ~0ULL;
    else if (bb_more_than_one(checkers))
        nm->check_mask = 0;
    else
        nm->check_mask = cn_between[king][bb_lsb(checkers)] | checkers;
}

CN_INLINE void emit_from(move_sink *sink, const int mode, const int us, unsigned from, bitboard targets, unsigned piece) {
    if (mode == MODE_SETS) {
        if (targets) add_destinations(sink->sets, from, uci_order_set(targets));
    } else if (mode != MODE_COUNT) {
        while (targets) {
            unsigned to = bb_pop_lsb(&targets);
            emit_move(sink, mode, us, from | (to << 6) | (piece << GEN_PIECE_SHIFT));
        }
    } else {
        sink->count += bb_popcount(targets);
    }
}

/* Pawn moves given as a set of destinations; origin = destination - delta. */
CN_INLINE void emit_pawns(move_sink *sink, const int mode, bitboard targets, int delta, const int us) {
    const bitboard promotions = targets & PROMOTION_RANK(us);
    targets &= ~PROMOTION_RANK(us);
    if (mode != MODE_COUNT) {
        while (targets) {
            unsigned to = bb_pop_lsb(&targets);
            emit_move(sink, mode, us, (unsigned)((int)to - delta) | (to << 6) | ((unsigned)CN_PAWN << GEN_PIECE_SHIFT));
        }
        bitboard b = promotions;
        while (b) {
            unsigned to = bb_pop_lsb(&b);
            unsigned base = (unsigned)((int)to - delta) | (to << 6) | KIND_PROMOTION | ((unsigned)CN_PAWN << GEN_PIECE_SHIFT);
            if (mode == MODE_SETS) {
                emit_move(sink, mode, us, base);
                continue;
            }
            /* Queen first: it helps nothing here but reads naturally. */
            for (unsigned promo = 4; promo-- > 0;) emit_move(sink, mode, us, base | (promo << 12));
        }
    } else {
        sink->count += bb_popcount(targets) + 4 * bb_popcount(promotions);
    }
}

/* Bishop-like (diagonal = 1) or rook-like moves of the side's sliders,
 * queens included. same_pins: pin rays of this kind; other_pins: of the
 * other kind. */
CN_INLINE void emit_sliders(move_sink *sink, const int mode, const int us, const cn_position *p, bitboard own,
                            bitboard occupied, bitboard movable, bitboard same_pins, bitboard other_pins,
                            const int diagonal) {
    const bitboard queens = p->by_type[CN_QUEEN];
    const unsigned piece_type = diagonal ? CN_BISHOP : CN_ROOK;
    bitboard movers = (p->by_type[piece_type] | queens) & own & ~other_pins;
    bitboard pinned_movers = movers & same_pins;
    movers &= ~same_pins;
    while (movers) {
        unsigned from = bb_pop_lsb(&movers);
        unsigned piece = (queens & bb_square(from)) ? CN_QUEEN : piece_type;
        bitboard attacks = diagonal ? bishop_attacks(from, occupied) : rook_attacks(from, occupied);
        emit_from(sink, mode, us, from, attacks & movable, piece);
    }
    while (pinned_movers) {
        unsigned from = bb_pop_lsb(&pinned_movers);
        unsigned piece = (queens & bb_square(from)) ? CN_QUEEN : piece_type;
        bitboard attacks = diagonal ? bishop_attacks(from, occupied) : rook_attacks(from, occupied);
        emit_from(sink, mode, us, from, attacks & movable & same_pins, piece);
    }
}

/*
 * One body for all three modes (count, list, play-and-count-replies). `us`
 * and `mode` are compile-time constants at every call site, so each
 * combination is compiled into its own straight-line code.
 */
CN_INLINE uint64_t generate_moves(const cn_position *p, const int us, const int mode, gen_move *out,
                                   const castle_geometry *castling, set_sink *sets) {
    const int them = us ^ 1;
    node_masks nm;
    compute_masks(p, us, &nm);
    move_sink sink = {out, 0, 0, p, castling, sets};
    const bitboard own = p->by_color[us], opponent = p->by_color[them];
    const bitboard occupied = own | opponent;
    const unsigned king = nm.king;
    const bitboard pawns = p->by_type[CN_PAWN] & own;
    const bitboard enemy_rooks_queens = (p->by_type[CN_ROOK] | p->by_type[CN_QUEEN]) & opponent;
    const bitboard enemy_bishops_queens = (p->by_type[CN_BISHOP] | p->by_type[CN_QUEEN]) & opponent;

    /* Squares the enemy's king, pawns and knights attack: cheap set-wise,
     * and independent of blockers (used for king moves and castling). */
    bitboard leaper_attacks;
    {
        const bitboard enemy_pawns = p->by_type[CN_PAWN] & opponent;
        leaper_attacks = cn_king_attacks[bb_lsb(p->by_type[CN_KING] & opponent)] |
                         pawn_capture_east(enemy_pawns, them) | pawn_capture_west(enemy_pawns, them);
        bitboard knights = p->by_type[CN_KNIGHT] & opponent;
        while (knights) leaper_attacks |= cn_knight_attacks[bb_pop_lsb(&knights)];
    }
    /* King: sliders are tested with the king lifted, so that a king cannot
     * step back along a checking ray. */
    {
        bitboard candidates = cn_king_attacks[king] & ~own & ~leaper_attacks;
        const bitboard occupied_without_king = occupied ^ bb_square(king);
        bitboard safe = candidates;
        /* Per candidate square two lookups, or one lookup per enemy slider
         * for its whole attack set: whichever is fewer. */
        if (candidates) {
            const int per_square = 2 * bb_popcount(candidates);
            const int per_slider = bb_popcount(enemy_rooks_queens | enemy_bishops_queens) +
                                   bb_popcount(enemy_rooks_queens & enemy_bishops_queens);
            if (per_square <= per_slider) {
                while (candidates) {
                    unsigned to = bb_pop_lsb(&candidates);
                    if ((bishop_attacks(to, occupied_without_king) & enemy_bishops_queens) ||
                        (rook_attacks(to, occupied_without_king) & enemy_rooks_queens))
                        safe ^= bb_square(to);
                }
            } else {
                bitboard sliders = enemy_bishops_queens;
                while (sliders) safe &= ~bishop_attacks(bb_pop_lsb(&sliders), occupied_without_king);
                sliders = enemy_rooks_queens;
                while (sliders) safe &= ~rook_attacks(bb_pop_lsb(&sliders), occupied_without_king);
            }
        }
        emit_from(&sink, mode, us, king, safe, CN_KING);
    }

    /* En passant: rare, so tested exactly on the board after the capture
     * (this covers the two pawns leaving one rank, and evasions). */
    if (p->ep_square != CN_NO_SQUARE) {
        const unsigned ep = p->ep_square;
        const unsigned captured = (unsigned)((int)ep - PUSH_DELTA(us));
        bitboard capturers = cn_pawn_attacks[them][ep] & pawns;
        while (capturers) {
            unsigned from = bb_pop_lsb(&capturers);
            bitboard after = (occupied ^ bb_square(from) ^ bb_square(captured)) | bb_square(ep);
            if (rook_attacks(king, after) & enemy_rooks_queens) continue;
            if (bishop_attacks(king, after) & enemy_bishops_queens) continue;
            if (cn_knight_attacks[king] & p->by_type[CN_KNIGHT] & opponent) continue;
            if (cn_pawn_attacks[us][king] & p->by_type[CN_PAWN] & opponent & ~bb_square(captured)) continue;
            emit_move(&sink, mode, us, from | (ep << 6) | KIND_EN_PASSANT | ((unsigned)CN_PAWN << GEN_PIECE_SHIFT));
        }
    }

    if (!nm.check_mask) return mode == MODE_CHILDREN ? sink.nodes : (uint64_t)sink.count; /* double check */

    const bitboard movable = ~own & nm.check_mask;
    const bitboard pinned = (nm.pin_orthogonal | nm.pin_diagonal) & own;

    /* Knights: a pinned knight never moves. */
    {
        bitboard knights = p->by_type[CN_KNIGHT] & own & ~pinned;
        while (knights) {
            unsigned from = bb_pop_lsb(&knights);
            emit_from(&sink, mode, us, from, cn_knight_attacks[from] & movable, CN_KNIGHT);
        }
    }
    /* Sliders. A pinned one stays on its pin ray; the union of rays is
     * safe because a second ray from the king can only meet its moves on
     * the king's own lines, which it cannot reach. A piece pinned on a line
     * of the other kind cannot move this way at all. */
    emit_sliders(&sink, mode, us, p, own, occupied, movable, nm.pin_diagonal, nm.pin_orthogonal, 1);
    emit_sliders(&sink, mode, us, p, own, occupied, movable, nm.pin_orthogonal, nm.pin_diagonal, 0);
    /* Pawns, set-wise. Pushes: a diagonally pinned pawn cannot push, an
     * orthogonally pinned one only along its file (its ray). Captures: the
     * mirror image. */
    {
        const bitboard empty = ~occupied;
        const bitboard pushers = pawns & ~nm.pin_diagonal;
        bitboard single = (pawn_push(pushers & ~nm.pin_orthogonal, us) |
                           (pawn_push(pushers & nm.pin_orthogonal, us) & nm.pin_orthogonal)) &
                          empty;
        bitboard double_push = pawn_push(single & DOUBLE_PUSH_RANK(us), us) & empty & nm.check_mask;
        single &= nm.check_mask;
        emit_pawns(&sink, mode, single, PUSH_DELTA(us), us);
        if (mode != MODE_COUNT) {
            while (double_push) {
                unsigned to = bb_pop_lsb(&double_push);
                emit_move(&sink, mode, us, (unsigned)((int)to - 2 * PUSH_DELTA(us)) | (to << 6) | ((unsigned)CN_PAWN << GEN_PIECE_SHIFT));
            }
        } else {
            sink.count += bb_popcount(double_push);
        }

        const bitboard capturers = pawns & ~nm.pin_orthogonal;
        const bitboard free_capturers = capturers & ~nm.pin_diagonal;
        const bitboard pinned_capturers = capturers & nm.pin_diagonal;
        const bitboard capture_targets = opponent & nm.check_mask;
        bitboard east = (pawn_capture_east(free_capturers, us) |
                         (pawn_capture_east(pinned_capturers, us) & nm.pin_diagonal)) &
                        capture_targets;
        bitboard west = (pawn_capture_west(free_capturers, us) |
                         (pawn_capture_west(pinned_capturers, us) & nm.pin_diagonal)) &
                        capture_targets;
        emit_pawns(&sink, mode, east, EAST_DELTA(us), us);
        emit_pawns(&sink, mode, west, WEST_DELTA(us), us);
    }
    /* Castling (Chess960-general): never out of, through or into check. The
     * king's path is tested with king and rook lifted, since in Chess960 the
     * castling rook may be what shields the king's destination. */
    if (!nm.checkers && (p->castling & (us ? (CN_BLACK_OO | CN_BLACK_OOO) : (CN_WHITE_OO | CN_WHITE_OOO)))) {
        for (unsigned right = 2u * (unsigned)us; right < 2u * (unsigned)us + 2u; right++) {
            if (!(p->castling & (1u << right))) continue;
            const cn_castle_path *path = &castling->rights[right];
            if (occupied & path->must_be_empty) continue;
            if (path->king_path & leaper_attacks) continue;
            /* Slider lookups only when some slider stands on a line through
             * the path. */
            const int diagonal_risk = (path->diagonal_rays & enemy_bishops_queens) != 0;
            const int orthogonal_risk = (path->orthogonal_rays & enemy_rooks_queens) != 0;
            if (diagonal_risk || orthogonal_risk) {
                const bitboard lifted = occupied ^ path->lifted;
                bitboard squares = path->king_path;
                int safe = 1;
                while (squares) {
                    const unsigned square = bb_pop_lsb(&squares);
                    if ((diagonal_risk && (bishop_attacks(square, lifted) & enemy_bishops_queens)) ||
                        (orthogonal_risk && (rook_attacks(square, lifted) & enemy_rooks_queens))) {
                        safe = 0;
                        break;
                    }
                }
                if (!safe) continue;
            }
            emit_move(&sink, mode, us,
                      king | ((unsigned)p->castle_rook[right] << 6) | KIND_CASTLING | ((unsigned)CN_KING << GEN_PIECE_SHIFT));
        }
    }
    return mode == MODE_CHILDREN ? sink.nodes : (uint64_t)sink.count;
}

static int count_moves_white(const cn_position *p, const castle_geometry *castling) {
    return (int)generate_moves(p, 0, MODE_COUNT, NULL, castling, NULL);
}
static int count_moves_black(const cn_position *p, const castle_geometry *castling) {
    return (int)generate_moves(p, 1, MODE_COUNT, NULL, castling, NULL);
}

static int list_moves(const cn_position *p, gen_move *moves, const castle_geometry *castling) {
    return p->side ? (int)generate_moves(p, 1, MODE_LIST, moves, castling, NULL)
                   : (int)generate_moves(p, 0, MODE_LIST, moves, castling, NULL);
}

static int impl_count(const cn_position *p) {
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    return p->side ? count_moves_black(p, &castling) : count_moves_white(p, &castling);
}

static int impl_generate(const cn_position *p, cn_move *out) {
    gen_move moves[CN_MAX_MOVES];
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    const int count = list_moves(p, moves, &castling);
    for (int i = 0; i < count; i++) out[i] = (cn_move)moves[i];
    return count;
}
