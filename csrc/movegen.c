/*
 * movegen.c - the move API: legal move lists through the active variant,
 * and UCI strings in and out.
 */
#include <string.h>

#include "bitboard.h"
#include "chess_native.h"
#include "impl.h"

int cn_legal_moves(const cn_position *pos, cn_move *out) { return cn_active_impl()->generate(pos, out); }

int cn_count_legal_moves(const cn_position *pos) { return cn_active_impl()->count(pos); }

/* The square a move lands on as UCI writes it: castling is king-takes-rook
 * inside the engine, but e1g1 in standard UCI. */
static unsigned uci_destination(const cn_position *pos, cn_move move) {
    unsigned from = cn_move_from(move), to = cn_move_to(move);
    if (cn_move_kind(move) == CN_MOVE_CASTLING && !pos->chess960)
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

/* Sort key equal to the UCI string's order: from file, from rank, to file,
 * to rank, then no promotion < b < n < q < r. */
static uint32_t uci_sort_key(const cn_position *pos, cn_move move) {
    static const uint32_t promotion_rank[4] = {2, 1, 4, 3}; /* n b r q */
    unsigned from = cn_move_from(move), to = uci_destination(pos, move);
    uint32_t key = ((square_file(from) * 8 + square_rank(from)) * 8 + square_file(to)) * 8 + square_rank(to);
    uint32_t promotion = cn_move_kind(move) == CN_MOVE_PROMOTION ? promotion_rank[cn_move_promotion(move) - CN_KNIGHT] : 0;
    return key * 5 + promotion;
}

void cn_sort_moves_uci(const cn_position *pos, cn_move *moves, int count) {
    uint32_t keys[CN_MAX_MOVES];
    if (count > CN_MAX_MOVES) return;
    for (int i = 0; i < count; i++) keys[i] = uci_sort_key(pos, moves[i]);
    /* Insertion sort: lists are short and often nearly sorted already. */
    for (int i = 1; i < count; i++) {
        uint32_t key = keys[i];
        cn_move move = moves[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > key) {
            keys[j + 1] = keys[j];
            moves[j + 1] = moves[j];
            j--;
        }
        keys[j + 1] = key;
        moves[j + 1] = move;
    }
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
