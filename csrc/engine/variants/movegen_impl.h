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
#include "../move_apply.h"
#include "../position.h"
#include "../slider_attacks.h"
#include "../transposition_table.h"
#include "../uci.h"
#include "../zobrist.h"

/* Internal moves carry the moving piece in bits 16-18 so that make does not
 * have to search the bitboards for it; the low 16 bits are the cn_move. */
typedef uint32_t gen_move;
#define GEN_PIECE_SHIFT 16
/* cn_move_encode's fields (a promotion to a knight) plus the piece; built in
 * 32 bits, since a cn_move's truncation to 16 would cost every move an
 * instruction. */
CN_INLINE gen_move gen_move_encode(unsigned from, unsigned to, unsigned kind, unsigned piece) {
    return from | (to << CN_MOVE_TO_SHIFT) | (kind << CN_MOVE_KIND_SHIFT) | (piece << GEN_PIECE_SHIFT);
}
/* A promotion of `base` (a gen_move_encode'd promotion) to `promotion`
 * (CN_KNIGHT..CN_QUEEN). */
CN_INLINE gen_move gen_move_promote(gen_move base, unsigned promotion) {
    return base | ((promotion - CN_KNIGHT) << CN_MOVE_PROMOTION_SHIFT);
}
CN_INLINE cn_move gen_move_public(gen_move move) { return (cn_move)move; }
CN_INLINE unsigned gen_move_piece(gen_move move) { return move >> GEN_PIECE_SHIFT; }

/* Castling geometry for the rights a position holds. King and rook stand
 * still while a right lasts (moving either loses it), so a search computes
 * this once at its root and every descendant can use it. */
typedef struct castle_geometry {
    cn_castle_path rights[4]; /* by right; zero for a right not held */
    bitboard rook_squares;    /* the rook squares of the rights held */
} castle_geometry;

static void compute_castle_geometry(const cn_position *p, castle_geometry *g) {
    /* A right at a time, not a memset of the whole struct: GCC turns that
     * into a rep stos, which costs more to start than these stores. */
    static const cn_castle_path no_path;
    g->rook_squares = 0;
    for (unsigned right = 0; right < 4; right++) {
        if (!(p->castling & (1u << right))) {
            g->rights[right] = no_path;
            continue;
        }
        const unsigned king = bb_lsb(p->by_type[CN_KING] & p->by_color[cn_right_color(right)]);
        g->rights[right] = cn_castle_paths[right][square_file(king)][square_file(p->castle_rook[right])];
        g->rook_squares |= bb_square(p->castle_rook[right]);
    }
}

/* What the generator does with each legal move: count it, list it, play it
 * and count the replies (perft's last two plies, fused so that no list is
 * written and each make is specialised for its piece), or add it to the
 * destination sets of its origin (for the moves in UCI order, below). */
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

/* Where the moves of one generation go; each mode uses its own fields. */
typedef struct move_sink {
    gen_move *moves;                 /* MODE_LIST */
    int count;                       /* MODE_LIST and MODE_COUNT: moves so far */
    uint64_t nodes;                  /* MODE_CHILDREN: replies counted */
    const cn_position *parent;       /* MODE_CHILDREN */
    const castle_geometry *castling; /* MODE_CHILDREN */
    set_sink *sets;                  /* MODE_SETS */
    bitboard mover_knight_attacks;   /* MODE_CHILDREN: squares the side to move's knights attack */
    bitboard mover_pawn_attacks;     /* MODE_CHILDREN: squares the side to move's pawns attack */
    unsigned mover_king;             /* MODE_CHILDREN: the side to move's king square */
} move_sink;

/* The move counts a parent asks of a child, one function per side to move
 * and per what the parent knows of the child's enemy leapers (LEAPERS_*,
 * below): enemy_leaper_attacks is read unless that is LEAPERS_UNKNOWN.
 * attr: CN_NOINLINE keeps the counts after the rare moves (promotions,
 * castling, en passant) out of the perft's fused last two plies, which
 * inline the others (perft_impl.h), so that its code stays small. Declared
 * here, defined after generate_moves_known. */
#define COUNT_FUNCTIONS(X)                                                                                             \
    X(count_moves_white, 0, LEAPERS_UNKNOWN, CN_NOINLINE)                                                              \
    X(count_moves_black, 1, LEAPERS_UNKNOWN, CN_NOINLINE)                                                              \
    X(count_moves_white_known, 0, LEAPERS_KNOWN, )                                                                     \
    X(count_moves_black_known, 1, LEAPERS_KNOWN, )                                                                     \
    X(count_moves_white_after_pawn, 0, LEAPERS_PAWN_MAY_CHECK, )                                                       \
    X(count_moves_black_after_pawn, 1, LEAPERS_PAWN_MAY_CHECK, )                                                       \
    X(count_moves_white_after_knight, 0, LEAPERS_KNIGHT_MAY_CHECK, )                                                   \
    X(count_moves_black_after_knight, 1, LEAPERS_KNIGHT_MAY_CHECK, )
#define DECLARE_COUNT(name, us, leapers, attr)                                                                         \
    static int name(const cn_position *p, const castle_geometry *castling, bitboard enemy_leaper_attacks);
COUNT_FUNCTIONS(DECLARE_COUNT)
#undef DECLARE_COUNT
CN_INLINE void make_child_known(const cn_position *p, cn_position *c, gen_move move, const castle_geometry *castling,
                                const int us, const int quiet);

/* Pawn geometry seen from the side to move. */
CN_INLINE bitboard pawn_push(bitboard b, const int us) { return us ? bb_south(b) : bb_north(b); }
CN_INLINE bitboard pawn_capture_east(bitboard b, const int us) { return us ? bb_south_east(b) : bb_north_east(b); }
CN_INLINE bitboard pawn_capture_west(bitboard b, const int us) { return us ? bb_south_west(b) : bb_north_west(b); }
#define PUSH_DELTA(us)       ((us) ? -8 : 8)
#define EAST_DELTA(us)       ((us) ? -7 : 9)
#define WEST_DELTA(us)       ((us) ? -9 : 7)
#define PROMOTION_RANK(us)   ((us) ? CN_RANK_1 : CN_RANK_8)
#define DOUBLE_PUSH_RANK(us) ((us) ? CN_RANK_6 : CN_RANK_3) /* after one step */

/* Squares the pawns, or the knights, of `color` (men: its pieces) attack. */
CN_INLINE bitboard pawn_attacks_by(const cn_position *p, const int color, bitboard men) {
    const bitboard pawns = p->by_type[CN_PAWN] & men;
    return pawn_capture_east(pawns, color) | pawn_capture_west(pawns, color);
}
CN_INLINE bitboard knight_attacks_by(const cn_position *p, bitboard men) {
    bitboard attacks = 0, knights = p->by_type[CN_KNIGHT] & men;
    while (knights) attacks |= cn_knight_attacks[bb_pop_lsb(&knights)];
    return attacks;
}

/* One legal move, handled as the mode says. quiet: 1 when the move is
 * known to capture nothing (a constant at each call site). */
CN_INLINE void emit_move(move_sink *sink, const int mode, const int us, gen_move move, const int quiet) {
    if (mode == MODE_SETS) {
        const cn_move m = gen_move_public(move);
        if (cn_move_kind(m) == CN_MOVE_CASTLING) {
            sink->sets->castles[sink->sets->castle_count++] = move;
            add_destinations(sink->sets, cn_move_from(m), 0);
        } else {
            add_destinations(sink->sets, cn_move_from(m), bb_square(cn_uci_order(cn_move_to(m))));
        }
    } else if (mode == MODE_LIST) {
        sink->moves[sink->count++] = move;
    } else if (mode == MODE_COUNT) {
        sink->count++;
    } else {
        cn_position child;
        const cn_move m = gen_move_public(move);
        const unsigned piece = gen_move_piece(move);
        make_child_known(sink->parent, &child, move, sink->castling, us, quiet);
        /* Unless a pawn or knight moved, the mover's pawns and knights stand
         * where they stood: the replying side's leaper attacks are the
         * parent's, computed once, plus its king's from where it stands
         * now, and none of them gives check (the side not to move is never
         * in check, and a king gives none). After a pawn move that does not
         * promote only the pawns' share changes: recomputed set-wise, and
         * only a pawn may give check; after a knight move, likewise the
         * knights'. Castling and en passant, rare, take the general count,
         * which stays out of line. */
        if (cn_move_kind(m) == CN_MOVE_CASTLING || cn_move_kind(m) == CN_MOVE_EN_PASSANT) {
            sink->nodes += (uint64_t)(us ? count_moves_white(&child, sink->castling, 0)
                                         : count_moves_black(&child, sink->castling, 0));
        } else if (piece != CN_PAWN && piece != CN_KNIGHT) {
            const unsigned king = piece == CN_KING ? cn_move_to(m) : sink->mover_king;
            const bitboard leaper_attacks =
                sink->mover_knight_attacks | sink->mover_pawn_attacks | cn_king_attacks[king];
            sink->nodes += (uint64_t)(us ? count_moves_white_known(&child, sink->castling, leaper_attacks)
                                         : count_moves_black_known(&child, sink->castling, leaper_attacks));
        } else if (piece == CN_PAWN && cn_move_kind(m) != CN_MOVE_PROMOTION) {
            const bitboard pawns = child.by_type[CN_PAWN] & child.by_color[us];
            const bitboard leaper_attacks = sink->mover_knight_attacks | cn_king_attacks[sink->mover_king] |
                                            pawn_capture_east(pawns, us) | pawn_capture_west(pawns, us);
            sink->nodes += (uint64_t)(us ? count_moves_white_after_pawn(&child, sink->castling, leaper_attacks)
                                         : count_moves_black_after_pawn(&child, sink->castling, leaper_attacks));
        } else if (piece == CN_KNIGHT) {
            const bitboard leaper_attacks = sink->mover_pawn_attacks | cn_king_attacks[sink->mover_king] |
                                            knight_attacks_by(&child, child.by_color[us]);
            sink->nodes += (uint64_t)(us ? count_moves_white_after_knight(&child, sink->castling, leaper_attacks)
                                         : count_moves_black_after_knight(&child, sink->castling, leaper_attacks));
        } else {
            sink->nodes += (uint64_t)(us ? count_moves_white(&child, sink->castling, 0)
                                         : count_moves_black(&child, sink->castling, 0));
        }
    }
}

/* The board as the side to move sees it, read once per generation. */
typedef struct gen_board {
    bitboard own;
    bitboard opponent;
    bitboard occupied;
    bitboard enemy_rooks_queens;
    bitboard enemy_bishops_queens;
} gen_board;

CN_INLINE void read_board(const cn_position *p, const int us, gen_board *b) {
    b->own = p->by_color[us];
    b->opponent = p->by_color[us ^ 1];
    b->occupied = b->own | b->opponent;
    b->enemy_rooks_queens = (p->by_type[CN_ROOK] | p->by_type[CN_QUEEN]) & b->opponent;
    b->enemy_bishops_queens = (p->by_type[CN_BISHOP] | p->by_type[CN_QUEEN]) & b->opponent;
}

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

/* What a parent tells a child's generation about the enemy (its own side)
 * leapers: nothing (their attacks are computed, and may check), their
 * attacks with no check by any (no pawn or knight moved), or their attacks
 * with a check possible from a pawn only (a pawn moved) or a knight only (a
 * knight moved). */
enum { LEAPERS_UNKNOWN = 0, LEAPERS_KNOWN = 1, LEAPERS_PAWN_MAY_CHECK = 2, LEAPERS_KNIGHT_MAY_CHECK = 3 };

/* leapers: as the parent knows them (LEAPERS_*). */
CN_INLINE void compute_masks(const cn_position *p, const int us, node_masks *nm, const int leapers) {
    const bitboard own = p->by_color[us], opponent = p->by_color[us ^ 1];
    const bitboard occupied = own | opponent;
    const unsigned king = bb_lsb(p->by_type[CN_KING] & own);
    bitboard checkers = 0;
    if (leapers == LEAPERS_UNKNOWN || leapers == LEAPERS_PAWN_MAY_CHECK)
        checkers |= cn_pawn_attacks[us][king] & p->by_type[CN_PAWN] & opponent;
    if (leapers == LEAPERS_UNKNOWN || leapers == LEAPERS_KNIGHT_MAY_CHECK)
        checkers |= cn_knight_attacks[king] & p->by_type[CN_KNIGHT] & opponent;
    const bitboard rooks_queens = (p->by_type[CN_ROOK] | p->by_type[CN_QUEEN]) & opponent;
    const bitboard bishops_queens = (p->by_type[CN_BISHOP] | p->by_type[CN_QUEEN]) & opponent;
    bitboard pin_orthogonal = 0, pin_diagonal = 0;

    /* A cheap test that skips the lookup when no enemy slider is aligned. */
    if (cn_rook_rays[king] & rooks_queens)
        pin_orthogonal = scan_snipers(king, rook_attacks(king, opponent) & rooks_queens, occupied, &checkers);
    if (cn_bishop_rays[king] & bishops_queens)
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

/* One piece's moves given as a set of destinations. */
CN_INLINE void emit_from(move_sink *sink, const int mode, const int us, unsigned from, bitboard targets,
                         unsigned piece) {
    if (mode == MODE_SETS) {
        if (targets) add_destinations(sink->sets, from, uci_order_set(targets));
    } else if (mode == MODE_CHILDREN) {
        /* Quiet moves apart: their make need not clear the destination. */
        bitboard captures = targets & sink->parent->by_color[us ^ 1];
        targets ^= captures;
        while (targets) {
            unsigned to = bb_pop_lsb(&targets);
            emit_move(sink, mode, us, gen_move_encode(from, to, CN_MOVE_NORMAL, piece), 1);
        }
        while (captures) {
            unsigned to = bb_pop_lsb(&captures);
            emit_move(sink, mode, us, gen_move_encode(from, to, CN_MOVE_NORMAL, piece), 0);
        }
    } else if (mode != MODE_COUNT) {
        while (targets) {
            unsigned to = bb_pop_lsb(&targets);
            emit_move(sink, mode, us, gen_move_encode(from, to, CN_MOVE_NORMAL, piece), 0);
        }
    } else {
        sink->count += bb_popcount(targets);
    }
}

/* Pawn moves that do not promote, given as a set of destinations; origin =
 * destination - delta; quiet for pushes. */
CN_INLINE void emit_pawn_steps(move_sink *sink, const int mode, bitboard targets, int delta, const int us,
                               const int quiet) {
    if (mode != MODE_COUNT) {
        while (targets) {
            unsigned to = bb_pop_lsb(&targets);
            emit_move(sink, mode, us, gen_move_encode((unsigned)((int)to - delta), to, CN_MOVE_NORMAL, CN_PAWN), quiet);
        }
    } else {
        sink->count += bb_popcount(targets);
    }
}

/* Pawn moves given as a set of destinations, those on the last rank as
 * four promotions each (one entry in MODE_SETS, which implies the four). */
CN_INLINE void emit_pawns(move_sink *sink, const int mode, bitboard targets, int delta, const int us, const int quiet) {
    bitboard promotions = targets & PROMOTION_RANK(us);
    targets &= ~PROMOTION_RANK(us);
    if (mode == MODE_COUNT) {
        sink->count += bb_popcount(targets) + 4 * bb_popcount(promotions);
        return;
    }
    emit_pawn_steps(sink, mode, targets, delta, us, quiet);
    while (promotions) {
        unsigned to = bb_pop_lsb(&promotions);
        const gen_move base = gen_move_encode((unsigned)((int)to - delta), to, CN_MOVE_PROMOTION, CN_PAWN);
        if (mode == MODE_SETS) {
            emit_move(sink, mode, us, base, quiet);
            continue;
        }
        /* Queen first: it helps nothing here but reads naturally. */
        for (unsigned promotion = CN_QUEEN; promotion >= CN_KNIGHT; promotion--)
            emit_move(sink, mode, us, gen_move_promote(base, promotion), quiet);
    }
}

/* Squares the king, pawns and knights of `color` (men: its pieces) attack:
 * cheap set-wise and independent of blockers, so king moves and castling
 * rule the enemy's out first. */
CN_INLINE bitboard leaper_attacks_by(const cn_position *p, const int color, bitboard men) {
    const bitboard pawns = p->by_type[CN_PAWN] & men;
    bitboard attacks = cn_king_attacks[bb_lsb(p->by_type[CN_KING] & men)] | pawn_capture_east(pawns, color) |
                       pawn_capture_west(pawns, color);
    bitboard knights = p->by_type[CN_KNIGHT] & men;
    while (knights) attacks |= cn_knight_attacks[bb_pop_lsb(&knights)];
    return attacks;
}

/* Of `squares` (the king's candidate steps), those no enemy slider attacks
 * when the king is lifted off the board (so that it cannot step back along
 * a checking ray): one lookup for the whole attack set of each enemy slider
 * that stands on a line through the king's neighbourhood. */
CN_INLINE bitboard safe_from_sliders(const gen_board *b, unsigned king, bitboard squares) {
    const bitboard occupied_without_king = b->occupied ^ bb_square(king);
    bitboard safe = squares;
    bitboard diagonal = b->enemy_bishops_queens & cn_king_zone_bishop_rays[king];
    bitboard orthogonal = b->enemy_rooks_queens & cn_king_zone_rook_rays[king];
    while (diagonal) safe &= ~bishop_attacks(bb_pop_lsb(&diagonal), occupied_without_king);
    while (orthogonal) safe &= ~rook_attacks(bb_pop_lsb(&orthogonal), occupied_without_king);
    return safe;
}

/* King steps: to squares that are not ours and that no enemy attacks. */
CN_INLINE void generate_king_moves(move_sink *sink, const int mode, const int us, const gen_board *b, unsigned king,
                                   bitboard leaper_attacks) {
    bitboard candidates = cn_king_attacks[king] & ~b->own & ~leaper_attacks;
    if (candidates) candidates = safe_from_sliders(b, king, candidates);
    emit_from(sink, mode, us, king, candidates, CN_KING);
}

/* En passant: rare, so tested exactly on the board after the capture (this
 * covers the two pawns leaving one rank, and evasions): attackers_to with
 * the captured pawn lifted, written out with early exits. Calling
 * attackers_to here costs the magic variants' perft about 1% (register
 * pressure in the inlined generator). */
CN_INLINE void generate_en_passant(move_sink *sink, const int mode, const int us, const cn_position *p,
                                   const gen_board *b, unsigned king) {
    const int them = us ^ 1;
    const unsigned ep = p->ep_square;
    const bitboard captured = bb_square(cn_ep_victim(ep, us));
    bitboard capturers = cn_pawn_attacks[them][ep] & p->by_type[CN_PAWN] & b->own;
    while (capturers) {
        unsigned from = bb_pop_lsb(&capturers);
        bitboard after = (b->occupied ^ bb_square(from) ^ captured) | bb_square(ep);
        if (rook_attacks(king, after) & b->enemy_rooks_queens) continue;
        if (bishop_attacks(king, after) & b->enemy_bishops_queens) continue;
        if (cn_knight_attacks[king] & p->by_type[CN_KNIGHT] & b->opponent) continue;
        if (cn_pawn_attacks[us][king] & p->by_type[CN_PAWN] & b->opponent & ~captured) continue;
        emit_move(sink, mode, us, gen_move_encode(from, ep, CN_MOVE_EN_PASSANT, CN_PAWN), 0);
    }
}

/* Knights: a pinned knight never moves. */
CN_INLINE void generate_knight_moves(move_sink *sink, const int mode, const int us, bitboard knights,
                                     bitboard movable) {
    while (knights) {
        unsigned from = bb_pop_lsb(&knights);
        emit_from(sink, mode, us, from, cn_knight_attacks[from] & movable, CN_KNIGHT);
    }
}

/* Bishop-like (diagonal = 1) or rook-like moves of the side's sliders,
 * queens included. A pinned one stays on its pin ray: the union of rays of
 * this kind (same_pins) is safe because a second ray from the king can only
 * meet its moves on the king's own lines, which it cannot reach. A piece
 * pinned on a line of the other kind (other_pins) cannot move this way. */
CN_INLINE void generate_slider_moves(move_sink *sink, const int mode, const int us, const cn_position *p,
                                     const gen_board *b, bitboard movable, bitboard same_pins, bitboard other_pins,
                                     const int diagonal) {
    const bitboard queens = p->by_type[CN_QUEEN];
    const unsigned piece_type = diagonal ? CN_BISHOP : CN_ROOK;
    bitboard movers = (p->by_type[piece_type] | queens) & b->own & ~other_pins;
    while (movers) {
        unsigned from = bb_pop_lsb(&movers);
        const bitboard from_bb = bb_square(from);
        unsigned piece = (queens & from_bb) ? CN_QUEEN : piece_type;
        const bitboard ray = (same_pins & from_bb) ? same_pins : ~0ULL;
        bitboard attacks = diagonal ? bishop_attacks(from, b->occupied) : rook_attacks(from, b->occupied);
        emit_from(sink, mode, us, from, attacks & movable & ray, piece);
    }
}

/* Pawn pushes, set-wise: a diagonally pinned pawn cannot push, an
 * orthogonally pinned one only along its file (its pin ray). */
CN_INLINE void generate_pawn_pushes(move_sink *sink, const int mode, const int us, bitboard pawns, const gen_board *b,
                                    const node_masks *nm) {
    const bitboard empty = ~b->occupied;
    const bitboard pushers = pawns & ~nm->pin_diagonal;
    bitboard single = (pawn_push(pushers & ~nm->pin_orthogonal, us) |
                       (pawn_push(pushers & nm->pin_orthogonal, us) & nm->pin_orthogonal)) &
                      empty;
    const bitboard double_push = pawn_push(single & DOUBLE_PUSH_RANK(us), us) & empty & nm->check_mask;
    emit_pawns(sink, mode, single & nm->check_mask, PUSH_DELTA(us), us, 1);
    emit_pawn_steps(sink, mode, double_push, 2 * PUSH_DELTA(us), us, 1);
}

/* Pawn captures, set-wise: the mirror image of pushes. An orthogonally
 * pinned pawn cannot capture, a diagonally pinned one only along its ray. */
CN_INLINE void generate_pawn_captures(move_sink *sink, const int mode, const int us, bitboard pawns, const gen_board *b,
                                      const node_masks *nm) {
    const bitboard capturers = pawns & ~nm->pin_orthogonal;
    const bitboard free_capturers = capturers & ~nm->pin_diagonal;
    const bitboard pinned_capturers = capturers & nm->pin_diagonal;
    const bitboard targets = b->opponent & nm->check_mask;
    const bitboard east =
        (pawn_capture_east(free_capturers, us) | (pawn_capture_east(pinned_capturers, us) & nm->pin_diagonal)) &
        targets;
    const bitboard west =
        (pawn_capture_west(free_capturers, us) | (pawn_capture_west(pinned_capturers, us) & nm->pin_diagonal)) &
        targets;
    emit_pawns(sink, mode, east, EAST_DELTA(us), us, 0);
    emit_pawns(sink, mode, west, WEST_DELTA(us), us, 0);
}

/* MODE_COUNT's knight, bishop, rook and queen moves when none of ours is
 * pinned (the usual case): each piece's targets counted straight, with no
 * pin masks to apply. */
CN_INLINE int count_free_piece_moves(const cn_position *p, const gen_board *b, bitboard movable) {
    const bitboard queens = p->by_type[CN_QUEEN] & b->own;
    bitboard knights = p->by_type[CN_KNIGHT] & b->own;
    bitboard diagonal = (p->by_type[CN_BISHOP] & b->own) | queens;
    bitboard orthogonal = (p->by_type[CN_ROOK] & b->own) | queens;
    int count = 0;
    while (knights) count += bb_popcount(cn_knight_attacks[bb_pop_lsb(&knights)] & movable);
    while (diagonal) count += bb_popcount(bishop_attacks(bb_pop_lsb(&diagonal), b->occupied) & movable);
    while (orthogonal) count += bb_popcount(rook_attacks(bb_pop_lsb(&orthogonal), b->occupied) & movable);
    return count;
}

/* MODE_COUNT's pawn moves when no pawn of ours is pinned (the usual case):
 * the four target sets counted straight, and the promotions, three more
 * moves each beyond the one already counted, packed into one word (the last
 * rank of each set in its own byte) for a single count. */
CN_INLINE int count_unpinned_pawn_moves(bitboard pawns, const gen_board *b, bitboard check_mask, const int us) {
    const bitboard empty = ~b->occupied;
    const bitboard single = pawn_push(pawns, us) & empty;
    const bitboard push = single & check_mask;
    const bitboard double_push = pawn_push(single & DOUBLE_PUSH_RANK(us), us) & empty & check_mask;
    const bitboard targets = b->opponent & check_mask;
    const bitboard east = pawn_capture_east(pawns, us) & targets;
    const bitboard west = pawn_capture_west(pawns, us) & targets;
    int count = bb_popcount(push) + bb_popcount(double_push) + bb_popcount(east) + bb_popcount(west);
    if (pawn_push(pawns, us) & PROMOTION_RANK(us)) {
        const bitboard promotions =
            us ? (push & CN_RANK_1) | ((east & CN_RANK_1) << 8) | ((west & CN_RANK_1) << 16)
               : ((push & CN_RANK_8) >> 56) | ((east & CN_RANK_8) >> 48) | ((west & CN_RANK_8) >> 40);
        count += 3 * bb_popcount(promotions);
    }
    return count;
}

/* Whether an enemy slider attacks a square of the castling king's path,
 * with king and rook lifted: in Chess960 the castling rook may be what
 * shields the king's destination. One lookup per enemy slider that stands
 * on a line through the path (there are seldom more than one or two),
 * rather than two per square of the path. */
CN_INLINE int castle_path_attacked(const gen_board *b, const cn_castle_path *path) {
    bitboard diagonal = path->diagonal_rays & b->enemy_bishops_queens;
    bitboard orthogonal = path->orthogonal_rays & b->enemy_rooks_queens;
    if (!(diagonal | orthogonal)) return 0;
    const bitboard lifted = b->occupied ^ path->lifted;
    while (diagonal)
        if (bishop_attacks(bb_pop_lsb(&diagonal), lifted) & path->king_path) return 1;
    while (orthogonal)
        if (rook_attacks(bb_pop_lsb(&orthogonal), lifted) & path->king_path) return 1;
    return 0;
}

/* Castling (Chess960-general), for a king not in check: the paths empty,
 * and no square the king crosses or lands on attacked. */
CN_INLINE void generate_castling(move_sink *sink, const int mode, const int us, const cn_position *p,
                                 const gen_board *b, unsigned king, bitboard leaper_attacks,
                                 const castle_geometry *castling) {
    if (!(p->castling & cn_side_rights(us))) return;
    for (unsigned right = 2u * (unsigned)us; right < 2u * (unsigned)us + 2u; right++) {
        if (!(p->castling & (1u << right))) continue;
        const cn_castle_path *path = &castling->rights[right];
        if ((b->occupied & path->must_be_empty) || (path->king_path & leaper_attacks) || castle_path_attacked(b, path))
            continue;
        emit_move(sink, mode, us, gen_move_encode(king, p->castle_rook[right], CN_MOVE_CASTLING, CN_KING), 0);
    }
}

/*
 * The legal moves of `us` (the side to move), each handed to the sink as
 * `mode` says: counted, listed, played with its replies counted, or added
 * to the destination sets. `us` and `mode` are compile-time constants at
 * every call site, so each combination compiles to its own straight-line
 * code. Returns the number of moves, or in MODE_CHILDREN of their replies.
 */
CN_INLINE uint64_t generate_moves(const cn_position *p, const int us, const int mode, gen_move *out,
                                  const castle_geometry *castling, set_sink *sets);

/* generate_moves, given what a parent knows (LEAPERS_*): unless
 * leapers_known is LEAPERS_UNKNOWN, the enemy king, pawns and knights
 * attack known_leaper_attacks. */
CN_INLINE uint64_t generate_moves_known(const cn_position *p, const int us, const int mode, gen_move *out,
                                        const castle_geometry *castling, set_sink *sets, const int leapers_known,
                                        bitboard known_leaper_attacks) {
    gen_board b;
    node_masks nm;
    compute_masks(p, us, &nm, leapers_known);
    read_board(p, us, &b);
    move_sink sink = {out, 0, 0, p, castling, sets, 0, 0, nm.king};
    if (mode == MODE_CHILDREN) {
        sink.mover_knight_attacks = knight_attacks_by(p, b.own);
        sink.mover_pawn_attacks = pawn_attacks_by(p, us, b.own);
    }
    const bitboard leaper_attacks = leapers_known ? known_leaper_attacks : leaper_attacks_by(p, us ^ 1, b.opponent);
    generate_king_moves(&sink, mode, us, &b, nm.king, leaper_attacks);
    if (p->ep_square != CN_NO_SQUARE) generate_en_passant(&sink, mode, us, p, &b, nm.king);
    if (nm.check_mask) { /* in double check only the king moves */
        const bitboard movable = ~b.own & nm.check_mask;
        const bitboard pinned = (nm.pin_orthogonal | nm.pin_diagonal) & b.own;
        const bitboard pawns = p->by_type[CN_PAWN] & b.own;
        if (mode == MODE_COUNT && !pinned) {
            sink.count +=
                count_free_piece_moves(p, &b, movable) + count_unpinned_pawn_moves(pawns, &b, nm.check_mask, us);
        } else {
            generate_knight_moves(&sink, mode, us, p->by_type[CN_KNIGHT] & b.own & ~pinned, movable);
            generate_slider_moves(&sink, mode, us, p, &b, movable, nm.pin_diagonal, nm.pin_orthogonal, 1);
            generate_slider_moves(&sink, mode, us, p, &b, movable, nm.pin_orthogonal, nm.pin_diagonal, 0);
            if (mode == MODE_COUNT && !(pawns & pinned)) {
                sink.count += count_unpinned_pawn_moves(pawns, &b, nm.check_mask, us);
            } else {
                generate_pawn_pushes(&sink, mode, us, pawns, &b, &nm);
                generate_pawn_captures(&sink, mode, us, pawns, &b, &nm);
            }
        }
        if (!nm.checkers) generate_castling(&sink, mode, us, p, &b, nm.king, leaper_attacks, castling);
    }
    return mode == MODE_CHILDREN ? sink.nodes : (uint64_t)sink.count;
}

CN_INLINE uint64_t generate_moves(const cn_position *p, const int us, const int mode, gen_move *out,
                                  const castle_geometry *castling, set_sink *sets) {
    return generate_moves_known(p, us, mode, out, castling, sets, 0, 0);
}

#define DEFINE_COUNT(name, us, leapers, attr)                                                                          \
    static attr int name(const cn_position *p, const castle_geometry *castling, bitboard enemy_leaper_attacks) {       \
        return (int)generate_moves_known(p, us, MODE_COUNT, NULL, castling, NULL, leapers, enemy_leaper_attacks);      \
    }
COUNT_FUNCTIONS(DEFINE_COUNT)
#undef DEFINE_COUNT

static int list_moves(const cn_position *p, gen_move *moves, const castle_geometry *castling) {
    return p->side ? (int)generate_moves(p, 1, MODE_LIST, moves, castling, NULL)
                   : (int)generate_moves(p, 0, MODE_LIST, moves, castling, NULL);
}

static int impl_count(const cn_position *p) {
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    return p->side ? count_moves_black(p, &castling, 0) : count_moves_white(p, &castling, 0);
}

static int impl_generate(const cn_position *p, cn_move *out) {
    gen_move moves[CN_MAX_MOVES];
    castle_geometry castling;
    compute_castle_geometry(p, &castling);
    const int count = list_moves(p, moves, &castling);
    for (int i = 0; i < count; i++) out[i] = gen_move_public(moves[i]);
    return count;
}
