/*
 * chess_native.h - the engine's public C API: positions, FEN, moves, UCI,
 * make/unmake and perft.
 *
 * The engine's public API is the headers of this folder: this one, san.h
 * (SAN), rules.h (game state, attackers), line.h (a line of moves in one
 * call), perft_job.h (threaded, hashed, cancellable perft), split.h (a
 * perft tree split into work units) and pgn.h (PGN reading). The binding
 * includes these and no other engine header: its include path is this
 * folder alone. They have no Node headers and no chess logic; the engine
 * builds and tests without Node.
 *
 * A position is a plain struct of bitboards that can be copied with memcpy:
 * the binding keeps it in a JS typed array and copies it in and out, so no
 * native object has to be owned by the JS heap.
 */
#ifndef CHESS_NATIVE_H
#define CHESS_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CN_VERSION "0.1.0"

/* CN_VERSION as a function, for a caller that has no headers (the
 * WebAssembly module exports functions only). */
const char *cn_version(void);

/* Squares are 0..63, a1 = 0, h1 = 7, a8 = 56. */
#define CN_NO_SQUARE 64
/* Room for the moves of any position the parser accepts: at most 16 men a
 * side, so at most 8 king moves + 15 queens * 27 (the known maximum for a
 * reachable position is 218). A relaxed position may hold more men: its
 * move list stops at this room (see relaxed.c; no placement a search found
 * has more than 288 moves). */
#define CN_MAX_MOVES 512

enum { CN_WHITE = 0, CN_BLACK = 1 };
enum { CN_PAWN = 0, CN_KNIGHT, CN_BISHOP, CN_ROOK, CN_QUEEN, CN_KING };

/* Castling right bits; castle_rook[] is indexed by the bit's index. */
enum {
    CN_WHITE_OO = 1,  /* index 0 */
    CN_WHITE_OOO = 2, /* index 1 */
    CN_BLACK_OO = 4,  /* index 2 */
    CN_BLACK_OOO = 8  /* index 3 */
};

/*
 * Mailbox-free position. by_type[] holds both colours; by_color[] both types.
 * ep_square is set only when a pawn of the side to move attacks it (so that
 * the Polyglot key and repetition checks agree), else CN_NO_SQUARE.
 * castle_rook[i] is the rook's square for right bit i while that right is
 * held, else CN_NO_SQUARE (so equal positions are equal structs).
 * Castling rights follow X-FEN in both modes: K/Q name the outermost rook on
 * that side of a king standing anywhere on its back rank (what Stockfish and
 * python-chess do, and what test/data/unreachable.epd expects).
 */
typedef struct cn_position {
    uint64_t by_type[6];
    uint64_t by_color[2];
    uint64_t key;      /* Polyglot Zobrist key, updated incrementally */
    uint32_t fullmove; /* >= 1 */
    uint16_t halfmove; /* plies since the last capture or pawn move */
    uint8_t side;      /* CN_WHITE or CN_BLACK */
    uint8_t castling;  /* CN_WHITE_OO | ... */
    uint8_t ep_square; /* CN_NO_SQUARE when none */
    uint8_t castle_rook[4];
    uint8_t chess960;        /* 1: castling moves are king-takes-rook in UCI */
    uint8_t relaxed;         /* 1: a relaxed position (cn_fen_parse_relaxed), else 0 */
    uint8_t relaxed_king[2]; /* relaxed: each side's king square as chess.js keeps it
                                (CN_NO_SQUARE: none); else zero */
    uint8_t reserved[7];     /* zero; the struct is 96 bytes with no padding */
} cn_position;

/*
 * A move in 16 bits: from (bits 0-5), to (6-11), promotion piece (12-13:
 * 0 knight .. 3 queen) and kind (14-15). A castling move is encoded as the
 * king capturing its own rook (to = rook square) in every mode; UCI output
 * converts it.
 */
typedef uint16_t cn_move;
enum { CN_MOVE_NORMAL = 0, CN_MOVE_PROMOTION = 1, CN_MOVE_EN_PASSANT = 2, CN_MOVE_CASTLING = 3 };
#define CN_MOVE_NONE ((cn_move)0)

#define CN_MOVE_TO_SHIFT        6
#define CN_MOVE_PROMOTION_SHIFT 12
#define CN_MOVE_KIND_SHIFT      14

static inline unsigned cn_move_from(cn_move m) { return m & 63u; }
static inline unsigned cn_move_to(cn_move m) { return ((unsigned)m >> CN_MOVE_TO_SHIFT) & 63u; }
static inline unsigned cn_move_kind(cn_move m) { return ((unsigned)m >> CN_MOVE_KIND_SHIFT) & 3u; }
/* CN_KNIGHT..CN_QUEEN; only meaningful for promotions. */
static inline unsigned cn_move_promotion(cn_move m) {
    return (((unsigned)m >> CN_MOVE_PROMOTION_SHIFT) & 3u) + CN_KNIGHT;
}
/* The move from..to of `kind`; promotion (CN_KNIGHT..CN_QUEEN) is read for
 * CN_MOVE_PROMOTION only. */
static inline cn_move cn_move_encode(unsigned from, unsigned to, unsigned kind, unsigned promotion) {
    const unsigned field = kind == CN_MOVE_PROMOTION ? (promotion - CN_KNIGHT) << CN_MOVE_PROMOTION_SHIFT : 0u;
    return (cn_move)(from | (to << CN_MOVE_TO_SHIFT) | field | (kind << CN_MOVE_KIND_SHIFT));
}

/* How every engine call that can fail reports it; 0 is success. */
typedef enum cn_status {
    CN_OK = 0,
    CN_ERR_FEN = 1,          /* see cn_fen_error for the field */
    CN_ERR_ILLEGAL_MOVE = 2, /* a well-formed move, not legal here (or, in SAN, ambiguous) */
    CN_ERR_BAD_MOVE = 3,     /* not a move string at all */
    CN_ERR_INIT = 4,         /* table initialisation failed */
    CN_ERR_BAD_POSITION = 5, /* a cn_position struct that is not consistent */
    CN_ERR_UNSUPPORTED = 6,  /* e.g. a forced slider path the CPU lacks */
    CN_ERR_BAD_ARGUMENT = 7, /* a count, depth or thread number out of range */
    CN_ERR_NO_MEMORY = 8,    /* an allocation failed */
    CN_ERR_NO_THREAD = 9     /* no thread could be started */
} cn_status;

/* The status's name as written above ("CN_OK", "CN_ERR_FEN", ...). */
const char *cn_status_name(cn_status status);

/* Which FEN field a parse error is about. */
typedef enum cn_fen_field {
    CN_FEN_FIELD_COUNT = 0, /* wrong number of fields, or an empty string */
    CN_FEN_FIELD_BOARD,
    CN_FEN_FIELD_TURN,
    CN_FEN_FIELD_CASTLING,
    CN_FEN_FIELD_EN_PASSANT,
    CN_FEN_FIELD_HALFMOVE,
    CN_FEN_FIELD_FULLMOVE
} cn_fen_field;

typedef struct cn_fen_error {
    cn_fen_field field;
    char message[120]; /* NUL-terminated, human readable, names the field */
} cn_fen_error;

/* Field names as the JS API reports them ("board", "enPassant", ...). */
const char *cn_fen_field_name(cn_fen_field field);

/* --- initialisation ---------------------------------------------------- */

/*
 * Builds the attack tables (magic search, verification against the ray-walk
 * reference, pext tables) and picks the code path from cpuid and the
 * CHESS_NATIVE_SLIDERS environment variable ("magic" or "pext"). Safe to call
 * from many threads at once; runs once. Returns CN_OK or CN_ERR_INIT /
 * CN_ERR_UNSUPPORTED; cn_init_message() then says why.
 */
cn_status cn_init(void);
const char *cn_init_message(void);
/* Nanoseconds the one-time table build took. */
uint64_t cn_init_nanoseconds(void);
/* "pext" or "magic": the slider indexing the active code path uses. */
const char *cn_slider_path(void);
/* Name of the active code path: "pext", "bmi2-magic", "popcnt-magic",
 * "arm64-magic" or "base-magic". */
const char *cn_impl_name(void);

/* --- positions ----------------------------------------------------------- */

/* Parses 6-field FEN or 4-field EPD (clocks default to 0 1), fields
 * separated by ASCII whitespace (space, \t \n \v \f \r). chess960 selects
 * X-FEN/Shredder-FEN castling and king-takes-rook UCI castling. On error the
 * position is left untouched and err (if not NULL) is filled in. len may
 * include no terminator; the parser never reads past len bytes. */
cn_status cn_fen_parse(cn_position *pos, const char *fen, size_t len, int chess960, cn_fen_error *err);

/* Room cn_fen_write and cn_epd_write need: every FEN is shorter. */
#define CN_FEN_WRITE_MAX 100

/*
 * A relaxed position: what chess.js 1.x plays after its load() with
 * skipValidation, put() and remove(), where the strict parser above refuses.
 * Any number of men of any kind on any square; a side may have no king
 * (it is then never in check and all its pseudo-legal moves are legal); the
 * side not to move may be in check (its king can be taken); castling
 * rights are KQkq letters kept as given (castling needs the king on its
 * square of white_king / black_king, the two squares beside it on its side
 * empty, the queenside's third too when on the board, and the king's
 * square and the two it crosses unattacked; the rook need not be there:
 * whatever stands on the square three (kingside) or four (queenside)
 * files from the king moves beside it); the en-passant square is kept as
 * given, any square. white_king and black_king are where chess.js takes
 * each king to be (CN_NO_SQUARE: no king): a side's king on the board must
 * stand there; a captured king's square stays its side's king square.
 * Moves, make/unmake, SAN, UCI, FEN, check, game state and perft follow
 * chess.js's rules on it; the threaded perft job and split refuse it
 * (CN_ERR_BAD_POSITION). Chess960 is not supported. The FEN must have 6
 * fields (or 4); the board 8 ranks of 8 squares.
 */
cn_status cn_fen_parse_relaxed(cn_position *pos, const char *fen, size_t len, unsigned white_king, unsigned black_king,
                               cn_fen_error *err);

/* Writes canonical FEN with a NUL; returns its length (< CN_FEN_WRITE_MAX).
 * cap >= CN_FEN_WRITE_MAX. */
size_t cn_fen_write(const cn_position *pos, char *buf, size_t cap);
/* The FEN's first four fields (placement, side, castling, en passant), the
 * position part of an EPD record, as cn_fen_write writes them. */
size_t cn_epd_write(const cn_position *pos, char *buf, size_t cap);

/* Checks that a struct (for example one copied from JS memory) is consistent
 * enough for every engine call: one king a side, disjoint bitboards, valid
 * side, ep square and castling rooks, side not to move not in check. */
cn_status cn_position_validate(const cn_position *pos);

/* Computes the Polyglot key from scratch (tests compare it with pos->key). */
uint64_t cn_position_compute_key(const cn_position *pos);

int cn_in_check(const cn_position *pos);

/* Piece on a square: returns CN_PAWN..CN_KING and sets *color, or -1. */
int cn_piece_on(const cn_position *pos, unsigned square, int *color);

/* --- moves --------------------------------------------------------------- */

/* Fills out[] (room for CN_MAX_MOVES) with the legal moves; returns the count. */
int cn_legal_moves(const cn_position *pos, cn_move *out);

/* cn_legal_moves in the order of cn_sort_moves_uci, generated in that
 * order rather than sorted afterwards. */
int cn_legal_moves_sorted(const cn_position *pos, cn_move *out);

/* cn_fen_parse, then on CN_OK cn_legal_moves_sorted of the position into
 * moves[] with *count set: what a new position's first move list costs,
 * in one call. On an error as cn_fen_parse (moves and *count untouched). */
cn_status cn_fen_parse_moves(cn_position *pos, const char *fen, size_t len, int chess960, cn_fen_error *err,
                             cn_move *moves, int *count);

/* Number of legal moves, without listing them. */
int cn_count_legal_moves(const cn_position *pos);

/* Sorts moves by their UCI strings in this position's mode (ascending). */
void cn_sort_moves_uci(const cn_position *pos, cn_move *moves, int count);

/* Writes the UCI string (4 or 5 chars + NUL) of a legal move; returns length. */
int cn_move_to_uci(const cn_position *pos, cn_move move, char out[6]);

/* Finds the legal move a UCI string names. Returns CN_OK and *out, or
 * CN_ERR_BAD_MOVE (not UCI syntax) or CN_ERR_ILLEGAL_MOVE. In standard mode
 * castling is e1g1 (king takes rook when the king is not on the e-file, where
 * the two-step form could name a plain king move); in Chess960 mode e1h1
 * (king takes rook), and e1g1 is also accepted when unambiguous. */
cn_status cn_move_from_uci(const cn_position *pos, const char *uci, size_t len, cn_move *out);

/* Undo record for make/unmake: only what the move itself cannot restore.
 * cn_unmake reverses the bit operations of cn_make, and the result is the
 * earlier position bit for bit (tests check this on every suite move). */
typedef struct cn_undo {
    uint64_t key;
    uint32_t fullmove;
    uint16_t halfmove;
    uint8_t castling;
    uint8_t ep_square;
    uint8_t castle_rook[4];
    int8_t captured; /* CN_PAWN..CN_QUEEN, or -1; relaxed: color * 8 + type */
    /* Relaxed positions only: the piece (color * 8 + type, or -1) that stood
     * on an en-passant capture's victim square or castling's rook square. */
    int8_t moved_aside;
    cn_move move;
} cn_undo;

/* Plays a legal move (the caller guarantees legality, e.g. from
 * cn_legal_moves). unmake restores the position bit for bit. */
void cn_make(cn_position *pos, cn_move move, cn_undo *undo);
void cn_unmake(cn_position *pos, const cn_undo *undo);

/* --- perft --------------------------------------------------------------- */

/* Leaf count at depth (0 -> 1), bulk counting at depth 1. */
uint64_t cn_perft(const cn_position *pos, int depth);

/* Perft that plays every leaf move (no bulk counting), for honest
 * comparisons with engines that do not bulk-count. */
uint64_t cn_perft_full(const cn_position *pos, int depth);

/* Per-root-move counts for depth >= 1: fills moves[] and counts[] (room for
 * CN_MAX_MOVES each) in generation order; returns the number of root moves. */
int cn_divide(const cn_position *pos, int depth, cn_move *moves, uint64_t *counts);

#ifdef __cplusplus
}
#endif

#endif /* CHESS_NATIVE_H */
