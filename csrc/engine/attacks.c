/*
 * attacks.c - builds the leaper, line and castling tables at start-up, and
 * through slider_tables.c the slider tables.
 */
#include "attacks.h"

#include <string.h>

bitboard cn_knight_attacks[64];
bitboard cn_king_attacks[64];
bitboard cn_pawn_attacks[2][64];
bitboard cn_between[64][64];
cn_castle_path cn_castle_paths[4][8][8];
bitboard cn_line[64][64];
bitboard cn_rook_rays[64];
bitboard cn_bishop_rays[64];
bitboard cn_king_zone_rook_rays[64];
bitboard cn_king_zone_bishop_rays[64];

static bitboard leaper_attacks(unsigned square, const int (*steps)[2], int step_count) {
    bitboard attacks = 0;
    for (int i = 0; i < step_count; i++) {
        int file = (int)square_file(square) + steps[i][0];
        int rank = (int)square_rank(square) + steps[i][1];
        if (on_board(file, rank)) attacks |= bb_square(make_square((unsigned)file, (unsigned)rank));
    }
    return attacks;
}

static void build_leapers_and_lines(void) {
    static const int knight_steps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_steps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn_steps[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn_steps[2][2] = {{-1, -1}, {1, -1}};
    for (unsigned square = 0; square < 64; square++) {
        cn_knight_attacks[square] = leaper_attacks(square, knight_steps, 8);
        cn_king_attacks[square] = leaper_attacks(square, king_steps, 8);
        cn_pawn_attacks[0][square] = leaper_attacks(square, white_pawn_steps, 2);
        cn_pawn_attacks[1][square] = leaper_attacks(square, black_pawn_steps, 2);
        cn_rook_rays[square] = cn_rook_attacks_slow(square, 0);
        cn_bishop_rays[square] = cn_bishop_attacks_slow(square, 0);
    }
    for (unsigned square = 0; square < 64; square++) {
        bitboard zone = cn_king_attacks[square];
        cn_king_zone_rook_rays[square] = cn_king_zone_bishop_rays[square] = 0;
        while (zone) {
            const unsigned step = bb_pop_lsb(&zone);
            cn_king_zone_rook_rays[square] |= cn_rook_rays[step];
            cn_king_zone_bishop_rays[square] |= cn_bishop_rays[step];
        }
    }
    /* Only aligned pairs need a walk: the empty-board rays above tell which. */
    for (unsigned a = 0; a < 64; a++) {
        for (unsigned b = 0; b < 64; b++) {
            cn_between[a][b] = 0;
            cn_line[a][b] = 0;
            if (a == b) continue;
            bitboard bb_b = bb_square(b);
            if (cn_rook_rays[a] & bb_b) {
                cn_between[a][b] = cn_rook_attacks_slow(a, bb_b) & cn_rook_attacks_slow(b, bb_square(a));
                cn_line[a][b] = (cn_rook_rays[a] & cn_rook_rays[b]) | bb_square(a) | bb_b;
            } else if (cn_bishop_rays[a] & bb_b) {
                cn_between[a][b] = cn_bishop_attacks_slow(a, bb_b) & cn_bishop_attacks_slow(b, bb_square(a));
                cn_line[a][b] = (cn_bishop_rays[a] & cn_bishop_rays[b]) | bb_square(a) | bb_b;
            }
        }
    }
}

/* The masks castling with king and rook on these squares needs. */
static void build_castle_path(cn_castle_path *path, unsigned king, unsigned rook) {
    const unsigned king_to = castle_king_to(king, rook), rook_to = castle_rook_to(king, rook);
    path->lifted = bb_square(king) | bb_square(rook);
    path->king_path = cn_between[king][king_to] | bb_square(king_to);
    path->must_be_empty = (path->king_path | cn_between[rook][rook_to] | bb_square(rook_to)) & ~path->lifted;
    bitboard squares = path->king_path;
    while (squares) {
        const unsigned square = bb_pop_lsb(&squares);
        path->diagonal_rays |= cn_bishop_rays[square];
        path->orthogonal_rays |= cn_rook_rays[square];
    }
}

/* Castling needs, for a king and rook on their files, the same few masks
 * every time: built here once rather than in each move generation. */
static void build_castle_paths(void) {
    memset(cn_castle_paths, 0, sizeof cn_castle_paths);
    for (unsigned right = 0; right < 4; right++) {
        const unsigned back_rank = right >= 2 ? 7u : 0u;
        const int queenside = right & 1u;
        for (unsigned king_file = 0; king_file < 8; king_file++) {
            for (unsigned rook_file = 0; rook_file < 8; rook_file++) {
                if (queenside ? rook_file >= king_file : rook_file <= king_file) continue;
                build_castle_path(&cn_castle_paths[right][king_file][rook_file], make_square(king_file, back_rank),
                                  make_square(rook_file, back_rank));
            }
        }
    }
}

cn_status cn_attacks_init(char *err, size_t err_size) {
    build_leapers_and_lines();
    build_castle_paths();
    return cn_slider_tables_init(err, err_size);
}
