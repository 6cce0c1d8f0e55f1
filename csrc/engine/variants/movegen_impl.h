/*
 * movegen_impl.h - legal move generation and bulk-counting perft.
 *
 * Not a normal header: each impl_*.c includes it once, after choosing an
 * instruction set, and it defines that variant's static functions plus the
 * cn_impl table named CN_IMPL_SYMBOL. The including file defines:
 *   CN_IMPL_SYMBOL   name of the cn_impl object to define
 *   CN_IMPL_NAME     its printable name
 *   CN_USE_PEXT      1 to index the slider tables with pext, else 0
 *   CN_FAST_BITS     (optional) hardware popcount may be used
 *
 * Legality without make-and-test: a check mask (squares that block or
 * capture a single checker), two pin masks (the rays from the king through a
 * pinned piece to its pinner, split into orthogonal and diagonal), king moves
 * tested with the king lifted off the board, and an exact re-test for the
 * rare en-passant capture. The generator runs in two modes from one body:
 * listing moves, or only counting them (bulk counting at perft's last ply).
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

/* Copy-make for the search: the child gets the parent's state with the move
 * applied. Clocks and the key are left alone: perft does not read them. */
CN_INLINE void make_child(const cn_position *p, cn_position *c, gen_move move, const int us) {
    const int them = us ^ 1;
    const unsigned from = move & 63u, to = (move >> 6) & 63u;
    const unsigned kind = (move >> 14) & 3u, piece = move >> GEN_PIECE_SHIFT;
    const bitboard from_bb = bb_square(from), to_bb = bb_square(to);
    *c = *p;
    c->side = (uint8_t)them;
    c->ep_square = CN_NO_SQUARE;
    if (kind == CN_MOVE_CASTLING) {
        const unsigned back_rank = us ? 7u : 0u;
        const int queenside = to < from;
        const bitboard king_to = bb_square(make_square(queenside ? 2u : 6u, back_rank));
        const bitboard rook_to = bb_square(make_square(queenside ? 3u : 5u, back_rank));
        /* Clear then set: in Chess960 the squares may overlap. */
        c->by_type[CN_KING] = (c->by_type[CN_KING] & ~from_bb) | king_to;
        c->by_type[CN_ROOK] = (c->by_type[CN_ROOK] & ~to_bb) | rook_to;
        c->by_color[us] = (c->by_color[us] & ~(from_bb | to_bb)) | king_to | rook_to;
        c->castling &= (uint8_t)(us ? ~(CN_BLACK_OO | CN_BLACK_OOO) : ~(CN_WHITE_OO | CN_WHITE_OOO));
        return;
    }
    /* Clearing the destination unconditionally is cheaper than branching
     * on whether the move captures; the king is never captured. */
    c->by_type[CN_PAWN] &= ~to_bb;
    c->by_type[CN_KNIGHT] &= ~to_bb;
    c->by_type[CN_BISHOP] &= ~to_bb;
    c->by_type[CN_ROOK] &= ~to_bb;
    c->by_type[CN_QUEEN] &= ~to_bb;
    c->by_color[them] &= ~to_bb;
    c->by_color[us] ^= from_bb | to_bb;
    if (kind == CN_MOVE_NORMAL) {
        c->by_type[piece] ^= from_bb | to_bb;
        if (piece == CN_PAWN && (from ^ to) == 16u) {
            const unsigned ep = (from + to) >> 1;
            if (cn_pawn_attacks[us][ep] & p->by_type[CN_PAWN] & p->by_color[them]) c->ep_square = (uint8_t)ep;
        }
    } else if (kind == CN_MOVE_PROMOTION) {
        c->by_type[CN_PAWN] ^= from_bb;
        c->by_type[((move >> 12) & 3u) + CN_KNIGHT] |= to_bb;
    } else { /* en passant */
        const bitboard captured = bb_square((unsigned)((int)to - PUSH_DELTA(us)));
        c->by_type[CN_PAWN] ^= from_bb | to_bb | captured;
        c->by_color[them] ^= captured;
    }
    if (c->castling) {
        if (piece == CN_KING) c->castling &= (uint8_t)(us ? ~(CN_BLACK_OO | CN_BLACK_OOO) : ~(CN_WHITE_OO | CN_WHITE_OOO));
        const bitboard touched = from_bb | to_bb;
        if (touched & (CN_RANK_1 | CN_RANK_8)) {
            for (unsigned right = 0; right < 4; right++)
                if ((c->castling & (1u << right)) && (touched & bb_square(p->castle_rook[right])))
                    c->castling &= (uint8_t)~(1u << right);
        }
    }
}

/* make_child plus the incremental Polyglot key, for the hashed perft. */
CN_INLINE void make_child_keyed(const cn_position *p, cn_position *c, gen_move move, const int us) {
    const int them = us ^ 1;
    const unsigned from = move & 63u, to = (move >> 6) & 63u;
    const unsigned kind = (move >> 14) & 3u, piece = move >> GEN_PIECE_SHIFT;
    uint64_t key = p->key ^ cn_polyglot_random[CN_POLYGLOT_TURN];
    if (kind == CN_MOVE_CASTLING) {
        const unsigned back_rank = us ? 7u : 0u;
        const int queenside = to < from;
        key ^= cn_polyglot_piece_key(us, CN_KING, from) ^ cn_polyglot_piece_key(us, CN_ROOK, to) ^
               cn_polyglot_piece_key(us, CN_KING, make_square(queenside ? 2u : 6u, back_rank)) ^
               cn_polyglot_piece_key(us, CN_ROOK, make_square(queenside ? 3u : 5u, back_rank));
    } else {
        const bitboard to_bb = bb_square(to);
        if (kind == CN_MOVE_EN_PASSANT) {
            key ^= cn_polyglot_piece_key(them, CN_PAWN, (unsigned)((int)to - PUSH_DELTA(us)));
        } else if (p->by_color[them] & to_bb) {
            int captured = CN_PAWN;
            while (!(p->by_type[captured] & to_bb)) captured++;
            key ^= cn_polyglot_piece_key(them, captured, to);
        }
        const unsigned placed = kind == CN_MOVE_PROMOTION ? ((move >> 12) & 3u) + CN_KNIGHT : piece;
        key ^= cn_polyglot_piece_key(us, (int)piece, from) ^ cn_polyglot_piece_key(us, (int)placed, to);
    }
    make_child(p, c, move, us);
    const unsigned lost_rights = (unsigned)(p->castling ^ c->castling);
    if (lost_rights)
        for (unsigned right = 0; right < 4; right++)
            if (lost_rights & (1u << right)) key ^= cn_polyglot_random[CN_POLYGLOT_CASTLE_OFFSET + right];
    if (p->ep_square != CN_NO_SQUARE) key ^= cn_polyglot_random[CN_POLYGLOT_EP_OFFSET + square_file(p->ep_square)];
    if (c->ep_square != CN_NO_SQUARE) key ^= cn_polyglot_random[CN_POLYGLOT_EP_OFFSET + square_file(c->ep_square)];
    c->key = key;
}

/* Keeps a computed child alive in "full" perft, so the compiler cannot
 * drop the make that nothing reads. */
#if defined(_MSC_VER) && !defined(__clang__)
#define KEEP_ALIVE(ptr) _ReadWriteBarrier()
#else
#define KEEP_ALIVE(ptr) __asm__ __volatile__("" : : "r"(ptr) : "memory")
#endif


static int count_moves_white(const cn_position *p, const castle_geometry *castling) {
    return (int)generate_moves(p, 0, MODE_COUNT, NULL, castling, NULL);
}
static int count_moves_black(const cn_position *p, const castle_geometry *castling) {
    return (int)generate_moves(p, 1, MODE_COUNT, NULL, castling, NULL);
}

/* Bulk-counting perft, depth >= 2. One body, compiled per side to move:
 * `us` is a constant in each of the two wrappers. */
static uint64_t perft_white(const cn_position *p, int depth, const castle_geometry *castling);
static uint64_t perft_black(const cn_position *p, int depth, const castle_geometry *castling);

CN_INLINE uint64_t perft_side(const cn_position *p, int depth, const castle_geometry *castling, const int us) {
    if (depth == 2) return generate_moves(p, us, MODE_CHILDREN, NULL, castling, NULL);
    gen_move moves[CN_MAX_MOVES];
    const int count = (int)generate_moves(p, us, MODE_LIST, moves, castling, NULL);
    uint64_t nodes = 0;
    cn_position child;
    for (int i = 0; i < count; i++) {
        make_child(p, &child, moves[i], us);
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

static int list_moves(const cn_position *p, gen_move *moves, const castle_geometry *castling) {
    return p->side ? (int)generate_moves(p, 1, MODE_LIST, moves, castling, NULL)
                   : (int)generate_moves(p, 0, MODE_LIST, moves, castling, NULL);
}

static uint64_t perft_with_geometry(const cn_position *p, int depth, const castle_geometry *castling) {
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)(p->side ? count_moves_black(p, castling) : count_moves_white(p, castling));
    return p->side ? perft_black(p, depth, castling) : perft_white(p, depth, castling);
}

static int impl_count(const cn_position *p) {
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    return p->side ? count_moves_black(p, &castling) : count_moves_white(p, &castling);
}

static uint64_t impl_perft(const cn_position *p, int depth) {
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    return perft_with_geometry(p, depth, &castling);
}

static int impl_generate(const cn_position *p, cn_move *out) {
    gen_move moves[CN_MAX_MOVES];
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    const int count = list_moves(p, moves, &castling);
    for (int i = 0; i < count; i++) out[i] = (cn_move)moves[i];
    return count;
}

/* The destination field of a move (to << 6) by the destination's UCI-order index. */
#define UCI_DEST(i) (uint16_t)(((((i) & 7u) << 3) | ((i) >> 3)) << 6)
#define UCI_DEST8(i) UCI_DEST(i), UCI_DEST(i + 1), UCI_DEST(i + 2), UCI_DEST(i + 3), \
    UCI_DEST(i + 4), UCI_DEST(i + 5), UCI_DEST(i + 6), UCI_DEST(i + 7)
static const uint16_t uci_destination_bits[64] = {UCI_DEST8(0u),  UCI_DEST8(8u),  UCI_DEST8(16u), UCI_DEST8(24u),
                                                  UCI_DEST8(32u), UCI_DEST8(40u), UCI_DEST8(48u), UCI_DEST8(56u)};
#undef UCI_DEST8
#undef UCI_DEST

/* The moves of a set_sink, sorted by their UCI strings: origins in UCI
 * order, then each origin's destinations in UCI order, promotions in
 * letter order (b, n, q, r). Castling is merged into the king's moves by
 * the square its UCI names: the king's two steps in standard chess with
 * the king on the e-file, else the rook's square. */
static int write_sorted(const cn_position *p, const set_sink *sets, cn_move *out) {
    static const unsigned letter_order[4] = {1, 0, 3, 2}; /* n=0 b=1 r=2 q=3 in the move */
    const bitboard pawns = p->by_type[CN_PAWN];
    const unsigned ep = p->ep_square;
    unsigned castle_keys[2] = {64, 64};
    cn_move castles[2] = {0, 0};
    for (int i = 0; i < sets->castle_count; i++) {
        castles[i] = (cn_move)sets->castles[i];
        castle_keys[i] = cn_uci_order(cn_uci_destination(p, castles[i]));
    }
    if (castle_keys[1] < castle_keys[0]) {
        const unsigned key = castle_keys[0];
        const cn_move move = castles[0];
        castle_keys[0] = castle_keys[1], castles[0] = castles[1];
        castle_keys[1] = key, castles[1] = move;
    }
    int n = 0;
    bitboard origins = sets->origins;
    while (origins) {
        const unsigned index = bb_pop_lsb(&origins);
        const unsigned from = cn_uci_order(index); /* the mapping is its own inverse */
        bitboard targets = sets->sets[index];
        if (pawns & bb_square(from)) {
            while (targets) {
                const unsigned to = cn_uci_order(bb_pop_lsb(&targets));
                const unsigned move = from | (to << 6);
                if (bb_square(to) & (CN_RANK_1 | CN_RANK_8)) {
                    for (int k = 0; k < 4; k++) out[n++] = (cn_move)(move | KIND_PROMOTION | (letter_order[k] << 12));
                } else {
                    out[n++] = (cn_move)(to == ep ? move | KIND_EN_PASSANT : move);
                }
            }
        } else if (sets->castle_count && (sets->castles[0] & 63u) == from) {
            int next_castle = 0;
            while (targets) {
                const unsigned to_index = bb_pop_lsb(&targets);
                while (next_castle < sets->castle_count && castle_keys[next_castle] < to_index) out[n++] = castles[next_castle++];
                out[n++] = (cn_move)(from | uci_destination_bits[to_index]);
            }
            while (next_castle < sets->castle_count) out[n++] = castles[next_castle++];
        } else {
            while (targets) out[n++] = (cn_move)(from | uci_destination_bits[bb_pop_lsb(&targets)]);
        }
    }
    return n;
}

static int impl_generate_sorted(const cn_position *p, cn_move *out) {
    castle_geometry castling;
    set_sink sets;
    compute_castle_geometry(p, &castling);
    sets.origins = 0;
    sets.castle_count = 0;
    if (p->side)
        generate_moves(p, 1, MODE_SETS, NULL, &castling, &sets);
    else
        generate_moves(p, 0, MODE_SETS, NULL, &castling, &sets);
    return write_sorted(p, &sets, out);
}

CN_INLINE void make_child_any(const cn_position *p, cn_position *c, gen_move move) {
    if (p->side)
        make_child(p, c, move, 1);
    else
        make_child(p, c, move, 0);
}

/* Every leaf move is generated and played: for comparison with engines that
 * do not bulk-count. */
static uint64_t perft_full_rec(const cn_position *p, int depth, const castle_geometry *castling) {
    gen_move moves[CN_MAX_MOVES];
    const int count = list_moves(p, moves, castling);
    uint64_t nodes = 0;
    cn_position child;
    for (int i = 0; i < count; i++) {
        make_child_any(p, &child, moves[i]);
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
    const uint64_t *abort_flag;
    castle_geometry castling;
} hashed_search;

static uint64_t perft_hashed_white(const cn_position *p, int depth, const hashed_search *search);
static uint64_t perft_hashed_black(const cn_position *p, int depth, const hashed_search *search);

CN_INLINE uint64_t perft_hashed_side(const cn_position *p, int depth, const hashed_search *search, const int us) {
    const uint64_t tag = cn_tt_tag(p->key, depth);
    uint64_t nodes = 0;
    if (cn_tt_probe(search->tt, tag, &nodes)) return nodes;
    if (depth == 2) {
        /* The last two plies need no keys: the fused count. */
        nodes = generate_moves(p, us, MODE_CHILDREN, NULL, &search->castling, NULL);
        cn_tt_store(search->tt, tag, nodes);
        return nodes;
    }
    if (ABORTED(search->abort_flag)) return 0;
    gen_move moves[CN_MAX_MOVES];
    const int count = (int)generate_moves(p, us, MODE_LIST, moves, &search->castling, NULL);
    cn_position child;
    for (int i = 0; i < count; i++) {
        make_child_keyed(p, &child, moves[i], us);
        nodes += us ? perft_hashed_white(&child, depth - 1, search) : perft_hashed_black(&child, depth - 1, search);
    }
    if (!ABORTED(search->abort_flag)) cn_tt_store(search->tt, tag, nodes);
    return nodes;
}

static uint64_t perft_hashed_white(const cn_position *p, int depth, const hashed_search *search) {
    return perft_hashed_side(p, depth, search, 0);
}
static uint64_t perft_hashed_black(const cn_position *p, int depth, const hashed_search *search) {
    return perft_hashed_side(p, depth, search, 1);
}

static uint64_t impl_perft_hashed(const cn_position *p, int depth, const cn_tt *tt, const uint64_t *abort_flag) {
    hashed_search search;
    search.tt = tt;
    search.abort_flag = abort_flag;
    compute_castle_geometry(p, &search.castling);
    if (depth <= 1) return perft_with_geometry(p, depth, &search.castling);
    return p->side ? perft_hashed_black(p, depth, &search) : perft_hashed_white(p, depth, &search);
}

static int impl_divide(const cn_position *p, int depth, cn_move *out_moves, uint64_t *counts) {
    gen_move moves[CN_MAX_MOVES];
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    const int count = list_moves(p, moves, &castling);
    cn_position child;
    for (int i = 0; i < count; i++) {
        make_child_any(p, &child, moves[i]);
        out_moves[i] = (cn_move)moves[i];
        counts[i] = perft_with_geometry(&child, depth - 1, &castling);
    }
    return count;
}

static const cn_impl impl_table = {
    CN_IMPL_NAME, CN_USE_PEXT, impl_generate, impl_generate_sorted, impl_count, impl_perft, impl_perft_full, impl_divide, impl_perft_hashed,
};
const cn_impl *const CN_IMPL_SYMBOL = &impl_table;
