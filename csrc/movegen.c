/*
 * movegen.c - the move API: legal move lists through the active variant,
 * and UCI strings in and out.
 */
#include <string.h>

#include "bitboard.h"
#include "chess_native.h"
#include "impl.h"

int cn_legal_moves(const cn_position *pos, cn_move *out) { return cn_active_impl()->generate(pos, out); }

int cn_legal_moves_sorted(const cn_position *pos, cn_move *out) { return cn_active_impl()->generate_sorted(pos, out); }

int cn_count_legal_moves(const cn_position *pos) { return cn_active_impl()->count(pos); }

/* The square a move lands on as UCI writes it. Castling is king-takes-rook
 * inside the engine and in Chess960 UCI; standard UCI writes the king's two
 * steps (e1g1). That form is used only for a king on the e-file: a king
 * elsewhere (possible with X-FEN rights, e.g. R2K4 w Q) could step to the
 * same square normally (d1c1), so there castling stays king-takes-rook. */
static unsigned uci_destination(const cn_position *pos, cn_move move) {
    unsigned from = cn_move_from(move), to = cn_move_to(move);
    if (cn_move_kind(move) == CN_MOVE_CASTLING && !pos->chess960 && square_file(from) == 4)
        return make_square(to < from ? 2u : 6u, square_rank(from));
    return to;
}

int cn_move_to_uci(const cn_position *pos, cn_move move, char out[6]) {
    unsigned from = cn_move_from(move), to = uci_destination(pos, move);
    int n = 0;
    out[n++] = (char)('a' + square_file(from));
    out[n++] = (char)('1' + square_rank(from));
    out[n++] = (char)('a' + square_file(to));
    out[n++] = (char)('1' + square_rank(to));
    if (cn_move_kind(move) == CN_MOVE_PROMOTION) out[n++] = "nbrq"[cn_move_promotion(move) - CN_KNIGHT];
    out[n] = 0;
    return n;
}

/* A square's place in UCI string order: file first, then rank (the
 * engine numbers squares rank * 8 + file). */
static unsigned uci_order(unsigned square) { return ((square & 7u) << 3) | (square >> 3); }

/* Sort key with the UCI string's order: origin, destination, then no
 * promotion < b < n < q < r (3 bits). Below 2^15. */
static uint32_t uci_sort_key(const cn_position *pos, cn_move move) {
    static const uint8_t promotion_rank[4] = {2, 1, 4, 3}; /* n b r q */
    const unsigned kind = cn_move_kind(move);
    uint32_t key = (uci_order(cn_move_from(move)) << 9) | (uci_order(cn_move_to(move)) << 3);
    if (kind == CN_MOVE_PROMOTION)
        key |= promotion_rank[(move >> 12) & 3u];
    else if (kind == CN_MOVE_CASTLING && !pos->chess960)
        key = (uci_order(cn_move_from(move)) << 9) | (uci_order(uci_destination(pos, move)) << 3);
    return key;
}

/* The general sort: counting sort on the origin's UCI order, then an
 * insertion sort on key and move packed in one word, which has only the
 * disorder within each origin's run left to fix. Handles any input. */
static void sort_moves_insertion(const cn_position *pos, cn_move *moves, int count) {
    uint32_t packed[CN_MAX_MOVES];
    uint16_t start[65];
    memset(start, 0, sizeof start);
    for (int i = 0; i < count; i++) start[uci_order(cn_move_from(moves[i])) + 1]++;
    for (int bucket = 1; bucket <= 64; bucket++) start[bucket] = (uint16_t)(start[bucket] + start[bucket - 1]);
    for (int i = 0; i < count; i++)
        packed[start[uci_order(cn_move_from(moves[i]))]++] = (uci_sort_key(pos, moves[i]) << 16) | moves[i];
    for (int i = 1; i < count; i++) {
        const uint32_t item = packed[i];
        int j = i - 1;
        while (j >= 0 && packed[j] > item) {
            packed[j + 1] = packed[j];
            j--;
        }
        packed[j + 1] = item;
    }
    for (int i = 0; i < count; i++) moves[i] = (cn_move)(packed[i] & 0xFFFFu);
}

void cn_sort_moves_uci(const cn_position *pos, cn_move *moves, int count) {
    /* No comparisons: each move sets one bit in its origin's destination
     * set, both indexed in UCI order (file first), and reading the sets
     * back in bit order is the sorted list. A legal list names each
     * (origin, UCI destination) pair once, except promotions, which share
     * one pair and keep their pieces in a 4-bit set. Any other list (a
     * repeated move, a pair named twice) goes to the general sort. */
    if (count > CN_MAX_MOVES || count < 2) return;
    uint64_t origins = 0;
    uint64_t destinations[64];           /* by origin; valid where `origins` has the bit */
    cn_move by_pair[64 * 64];            /* by origin * 64 + destination; valid where set */
    uint8_t promotions[64 * 64];         /* promotion pieces (move bits 12-13) of that pair */
    /* The generator lists a piece's moves together, so the current
     * origin's set stays in a register until the origin changes. */
    unsigned run_origin = 0;
    uint64_t run = 0;
    int conflict = 0;
    for (int i = 0; i < count; i++) {
        const cn_move move = moves[i];
        const unsigned origin = uci_order(cn_move_from(move));
        const unsigned destination = uci_order(uci_destination(pos, move));
        if (origin != run_origin) {
            const uint64_t flushed = (uint64_t)1 << run_origin;
            destinations[run_origin] = ((origins & flushed) ? destinations[run_origin] : 0) | run;
            origins |= run ? flushed : 0;
            const uint64_t next = (uint64_t)1 << origin;
            run = (origins & next) ? destinations[origin] : 0;
            run_origin = origin;
        }
        const uint64_t destination_bit = (uint64_t)1 << destination;
        const unsigned pair = origin * 64 + destination;
        const unsigned piece_bit = 1u << ((move >> 12) & 3u);
        if (run & destination_bit) {
            /* Only the four promotions of one pawn move share a pair. */
            conflict |= cn_move_kind(move) != CN_MOVE_PROMOTION || cn_move_kind(by_pair[pair]) != CN_MOVE_PROMOTION ||
                        (promotions[pair] & piece_bit);
            promotions[pair] = (uint8_t)(promotions[pair] | piece_bit);
        } else {
            run |= destination_bit;
            by_pair[pair] = move;
            promotions[pair] = (uint8_t)piece_bit;
        }
    }
    {
        const uint64_t flushed = (uint64_t)1 << run_origin;
        destinations[run_origin] = ((origins & flushed) ? destinations[run_origin] : 0) | run;
        origins |= run ? flushed : 0;
    }
    if (conflict) {
        sort_moves_insertion(pos, moves, count);
        return;
    }
    cn_move sorted[CN_MAX_MOVES];
    int n = 0;
    while (origins) {
        const unsigned origin = bb_pop_lsb(&origins);
        uint64_t set = destinations[origin];
        while (set) {
            const unsigned pair = origin * 64 + bb_pop_lsb(&set);
            const cn_move move = by_pair[pair];
            if (cn_move_kind(move) != CN_MOVE_PROMOTION) {
                sorted[n++] = move;
                continue;
            }
            /* UCI order of the letters: b, n, q, r (pieces 1, 0, 3, 2). */
            static const uint8_t letter_order[4] = {1, 0, 3, 2};
            const unsigned pieces = promotions[pair];
            const cn_move base = (cn_move)(move & ~0x3000u);
            for (int k = 0; k < 4; k++)
                if (pieces & (1u << letter_order[k]) && n < count) sorted[n++] = (cn_move)(base | (letter_order[k] << 12));
        }
    }
    if (n != count) {
        sort_moves_insertion(pos, moves, count);
        return;
    }
    memcpy(moves, sorted, (size_t)count * sizeof moves[0]);
}

cn_status cn_move_from_uci(const cn_position *pos, const char *uci, size_t len, cn_move *out) {
    if (uci == NULL || (len != 4 && len != 5)) return CN_ERR_BAD_MOVE;
    if (len == 4 && memcmp(uci, "0000", 4) == 0) return CN_ERR_ILLEGAL_MOVE; /* null move */
    if (uci[0] < 'a' || uci[0] > 'h' || uci[1] < '1' || uci[1] > '8' || uci[2] < 'a' || uci[2] > 'h' ||
        uci[3] < '1' || uci[3] > '8')
        return CN_ERR_BAD_MOVE;
    unsigned promotion = 0; /* 0: none, else CN_KNIGHT..CN_QUEEN */
    if (len == 5) {
        const char *letter = memchr("nbrq", uci[4], 4);
        if (uci[4] == 0 || letter == NULL) return CN_ERR_BAD_MOVE;
        promotion = (unsigned)(letter - "nbrq") + CN_KNIGHT;
    }
    unsigned from = make_square((unsigned)(uci[0] - 'a'), (unsigned)(uci[1] - '1'));
    unsigned to = make_square((unsigned)(uci[2] - 'a'), (unsigned)(uci[3] - '1'));
    cn_move moves[CN_MAX_MOVES];
    int count = cn_legal_moves(pos, moves);
    /* Exact match on the engine's encoding first: in Chess960 this is
     * king-takes-rook for castling, and keeps f1g1 a plain king move. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < count; i++) {
            cn_move m = moves[i];
            if (cn_move_from(m) != from) continue;
            unsigned kind = cn_move_kind(m);
            unsigned m_promotion = kind == CN_MOVE_PROMOTION ? cn_move_promotion(m) : 0;
            if (m_promotion != promotion) continue;
            unsigned target = pass == 0 ? (pos->chess960 ? cn_move_to(m) : uci_destination(pos, m))
                                        : (kind == CN_MOVE_CASTLING ? make_square(cn_move_to(m) < from ? 2u : 6u, square_rank(from)) : 64u);
            if (target == to) {
                *out = m;
                return CN_OK;
            }
        }
        if (!pos->chess960) break; /* the second pass is Chess960's e1g1 form */
    }
    return CN_ERR_ILLEGAL_MOVE;
}
