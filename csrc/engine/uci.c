/*
 * uci.c - moves as UCI strings: writing, parsing, and sorting a list in the
 * strings' order.
 */
#include <string.h>

#include "include/chess_native.h"
#include "uci.h"

static const char promotion_letters[] = CN_UCI_PROMOTION_LETTERS;

int cn_move_to_uci(const cn_position *pos, cn_move move, char out[6]) { return cn_write_uci(pos, move, out); }

/* Sort key with the UCI string's order: origin, destination, then no
 * promotion < b < n < q < r (3 bits). Below 2^15. */
static uint32_t uci_sort_key(const cn_position *pos, cn_move move) {
    const unsigned kind = cn_move_kind(move);
    uint32_t key = (cn_uci_order(cn_move_from(move)) << 9) | (cn_uci_order(cn_move_to(move)) << 3);
    if (kind == CN_MOVE_PROMOTION)
        key |= cn_promotion_letter_order(cn_move_promotion(move) - CN_KNIGHT) + 1u;
    else if (kind == CN_MOVE_CASTLING && !pos->chess960)
        key = (cn_uci_order(cn_move_from(move)) << 9) | (cn_uci_order(cn_uci_destination(pos, move)) << 3);
    return key;
}

void cn_sort_moves_uci(const cn_position *pos, cn_move *moves, int count) {
    /* Counting sort on the origin square's UCI order, then an insertion
     * sort on key and move packed in one word, which has only the disorder
     * within each origin's run left to fix. */
    uint32_t packed[CN_MAX_MOVES];
    uint16_t start[65];
    if (count > CN_MAX_MOVES || count < 2) return;
    memset(start, 0, sizeof start);
    for (int i = 0; i < count; i++) {
        const unsigned from = cn_move_from(moves[i]);
        start[cn_uci_order(from) + 1]++;
    }
    for (int bucket = 1; bucket <= 64; bucket++) start[bucket] = (uint16_t)(start[bucket] + start[bucket - 1]);
    for (int i = 0; i < count; i++) {
        const unsigned from = cn_move_from(moves[i]);
        packed[start[cn_uci_order(from)]++] = (uci_sort_key(pos, moves[i]) << 16) | moves[i];
    }
    /* After the counting sort only moves from the same square can be out
     * of order. */
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

cn_status cn_move_from_uci(const cn_position *pos, const char *uci, size_t len, cn_move *out) {
    if (uci == NULL || (len != 4 && len != 5)) return CN_ERR_BAD_MOVE;
    if (len == 4 && memcmp(uci, "0000", 4) == 0) return CN_ERR_ILLEGAL_MOVE; /* null move */
    if (uci[0] < 'a' || uci[0] > 'h' || uci[1] < '1' || uci[1] > '8' || uci[2] < 'a' || uci[2] > 'h' || uci[3] < '1' ||
        uci[3] > '8')
        return CN_ERR_BAD_MOVE;
    unsigned promotion = 0; /* 0: none, else CN_KNIGHT..CN_QUEEN */
    if (len == 5) {
        const char *letter = memchr(promotion_letters, uci[4], 4);
        if (uci[4] == 0 || letter == NULL) return CN_ERR_BAD_MOVE;
        promotion = (unsigned)(letter - promotion_letters) + CN_KNIGHT;
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
            unsigned target = pass == 0 ? (pos->chess960 ? cn_move_to(m) : cn_uci_destination(pos, m))
                                        : (kind == CN_MOVE_CASTLING ? castle_king_to(from, cn_move_to(m)) : 64u);
            if (target == to) {
                *out = m;
                return CN_OK;
            }
        }
        if (!pos->chess960) break; /* the second pass is Chess960's e1g1 form */
    }
    return CN_ERR_ILLEGAL_MOVE;
}
