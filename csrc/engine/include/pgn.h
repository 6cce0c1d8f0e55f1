/*
 * pgn.h - a PGN reader: games from text, every move validated by the engine.
 *
 * The reader turns text into a flat list of records (four int32 each) and
 * one string table (bytes), so a binding can hand a whole batch of games to
 * its caller as two typed arrays instead of one object per token. Records
 * of one game, in order (boundary.h names their fields):
 *
 *   GAME       a: line of the game's first token, b: its column (1-based)
 *   TAG        a: string offset of the name, b: name length, c: value
 *              length (the value follows the name; escapes removed)
 *   START      a: string offset of the start FEN (b: its length, 0 for the
 *              standard start), c: 1 for a Chess960 game
 *   MOVE       a: the move (cn_move; CN_MOVE_NONE for a null move "--"),
 *              b: string offset of its canonical SAN ("--" for a null
 *              move), c: SAN length; the SAN is followed by the move's
 *              UCI, NUL padded to CN_UCI_RECORD_BYTES ("0000" for a null
 *              move)
 *   COMMENT    a: string offset, b: length (text between the braces, or
 *              after ';', trimmed)
 *   NAG        a: the NAG ($n, or the glyphs ! ? !! ?? !? ?! as 1-6)
 *   VAR_START / VAR_END   a variation: an alternative to the move before it
 *   ERROR      a: string offset of the message, b: its length, c: the ply
 *              (1-based, along the line being read) the error is about, or 0
 *   WHERE      follows ERROR: a: line, b: column (1-based, bytes)
 *   END        a: result (CN_PGN_RESULT_*), b, c: offset and length of the
 *              FEN of the position at the end of the mainline
 *   TOKEN      (CN_PGN_MODE_CHESSJS only, in place of MOVE) a: string
 *              offset of the move as written, b: its length
 *
 * Tolerated without error: a UTF-8 BOM, CRLF or CR-only line ends, blank lines, ';' comments,
 * '%' escape lines, missing results and tags, games without moves, text
 * outside games (a line that holds no move before a game starts is
 * skipped), NUL and other control bytes (whitespace), 0-0/0-0-0, missing or
 * superfluous 'x',
 * '+', '#', over-disambiguation, e8Q, long algebraic moves (e2e4, e2-e4,
 * Ng1-f3, e7e8q), pawn captures without 'x' (ed5) and null moves "--" /
 * "Z0" / "0000" (recorded as MOVE with
 * CN_MOVE_NONE: the side to move passes, and moves after it are validated
 * from there; a null move while in check is an error).
 *
 * Errors: an illegal, ambiguous or malformed move, a bad (or empty) FEN
 * tag, an unsupported variant (both at their tag), an unterminated comment
 * or string, a NAG that is not one ($256), a variation nested deeper than
 * CN_PGN_MAX_DEPTH, invalid UTF-8 in a recorded tag value or comment (one
 * error a string, at its first bad byte), a game cut by the end of a text
 * marked `cut`. Columns count characters (UTF-8 sequences), and a CR alone
 * ends a line as LF and CRLF do. A lone result is a game; comments after a
 * result on its line belong to its game.
 * After a move error on the mainline the game keeps its tags and the moves
 * before it; the rest of its movetext is skipped and reading resumes with
 * the next game. A move error in a variation cuts that variation (and the
 * variations inside it) there; the rest of the game is read. Variations are
 * validated in mainline mode too, so it reports tree mode's move errors.
 * An unterminated '{' comment ends at the next line that starts a tag
 * ('[' + name + space + '"') so the games after it survive.
 *
 * Time is linear in the input and memory linear in the output; tokens of
 * any length are safe (a move token longer than CN_PGN_MAX_MOVE_TOKEN is
 * malformed without being parsed).
 */
#ifndef CN_PGN_H
#define CN_PGN_H

#include <stddef.h>
#include <stdint.h>

#include "chess_native.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest variation nesting read; deeper variations are skipped (error). */
#define CN_PGN_MAX_DEPTH 64
/* Longest move token parsed. */
#define CN_PGN_MAX_MOVE_TOKEN 32
/* int32 values per record. */
#define CN_PGN_RECORD_INTS 4
/* Most threads cn_pgn_read_parts reads with. */
#define CN_PGN_MAX_THREADS 16
/* The smallest block the binding lets cn_pgn_read_parts cut a text into:
 * below that, a thread's start costs more than the block saves. */
#define CN_PGN_MIN_BLOCK_BYTES ((size_t)16 << 10)

typedef enum cn_pgn_mode {
    CN_PGN_MODE_TREE = 0,     /* everything */
    CN_PGN_MODE_MAINLINE = 1, /* mainline moves; variations validated, not recorded; no comments or NAGs */
    CN_PGN_MODE_HEADERS = 2,  /* tags only; movetext skipped */
    CN_PGN_MODE_CHESSJS = 3   /* the whole text as one game in chess.js's grammar, moves as written
                                 (pgn_chessjs.c); `final`, `max_games` and `stop` are not read */
} cn_pgn_mode;

typedef enum cn_pgn_op {
    CN_PGN_OP_GAME = 1,
    CN_PGN_OP_TAG = 2,
    CN_PGN_OP_START = 3,
    CN_PGN_OP_MOVE = 4,
    CN_PGN_OP_COMMENT = 5,
    CN_PGN_OP_NAG = 6,
    CN_PGN_OP_VAR_START = 7,
    CN_PGN_OP_VAR_END = 8,
    CN_PGN_OP_ERROR = 9,
    CN_PGN_OP_WHERE = 10,
    CN_PGN_OP_END = 11,
    CN_PGN_OP_TOKEN = 12
} cn_pgn_op;

typedef enum cn_pgn_result {
    CN_PGN_RESULT_NONE = 0, /* no result token */
    CN_PGN_RESULT_WHITE = 1,
    CN_PGN_RESULT_BLACK = 2,
    CN_PGN_RESULT_DRAW = 3,
    CN_PGN_RESULT_UNKNOWN = 4 /* "*" */
} cn_pgn_result;

/* Growing output of cn_pgn_read; zero-initialise, free with cn_pgn_output_free. */
typedef struct cn_pgn_output {
    int32_t *records; /* record_count * CN_PGN_RECORD_INTS values */
    size_t record_count, record_capacity;
    char *strings;
    size_t string_length, string_capacity;
    size_t games; /* complete games written */
} cn_pgn_output;

/* Drops the records and strings (keeps the memory). */
void cn_pgn_output_clear(cn_pgn_output *out);
void cn_pgn_output_free(cn_pgn_output *out);

typedef struct cn_pgn_input {
    const char *text;
    size_t length;
    int final; /* 1: no text follows; a game cut by the end is whole */
    int cut;   /* with final: the text was cut at a size limit; a game cut by it is reported */
    cn_pgn_mode mode;
    uint32_t line;    /* line number of text[0] (1 at the start of a file) */
    uint32_t column;  /* column of text[0], 0-based (0 at a line start) */
    size_t max_games; /* stop after this many games (0: no limit) */
    size_t stop;      /* stop before a game that would start at or after this offset (0: never) */
    /* out: */
    size_t consumed;        /* bytes of whole games read */
    uint32_t consumed_line; /* line and column at text[consumed] */
    uint32_t consumed_column;
    size_t blocks; /* cn_pgn_read_parts: blocks whose parallel reading was kept */
} cn_pgn_input;

/*
 * Reads the whole games of in->text and appends their records to *out.
 * When in->final is 0, a game that reaches the end of the text is left
 * unread (in->consumed stops at its start): call again with more text
 * from there. A UTF-8 BOM is skipped at the start of a text whose line is
 * 1 and column 0. Returns CN_OK or CN_ERR_NO_MEMORY (out then holds the
 * games before the one that failed).
 */
cn_status cn_pgn_read(cn_pgn_input *in, cn_pgn_output *out);

/*
 * The output of a parallel read: parts that, appended in order, are the
 * output of one cn_pgn_read. The lines in a part's records (GAME and
 * WHERE) are counted from its own start: add line_offset for the text's
 * (in uint32 arithmetic, as the reader counts).
 */
typedef struct cn_pgn_part {
    cn_pgn_output out;
    uint32_t line_offset;
} cn_pgn_part;

typedef struct cn_pgn_parts {
    cn_pgn_part *part;
    size_t count;
} cn_pgn_parts;

/*
 * cn_pgn_read on up to `threads` threads (1..CN_PGN_MAX_THREADS; the
 * calling thread is one of them), into *parts (overwritten; free with
 * cn_pgn_parts_free, also after an error): the text is cut into blocks of
 * at least min_block bytes at lines that open a game's tags (as the lexer
 * reads a tag line), and each block is read with its own reader into its
 * own part. A block is kept only when the block before it ended exactly
 * at its start; otherwise the text from where that block ended is read
 * again in order on the calling thread, into one more part.
 * in->max_games and in->stop read on one thread, into one part. in's
 * consumed fields are those of one cn_pgn_read.
 */
cn_status cn_pgn_read_parts(cn_pgn_input *in, cn_pgn_parts *parts, int threads, size_t min_block);
void cn_pgn_parts_free(cn_pgn_parts *parts);

/* cn_pgn_read_parts with the parts appended to *out: exactly the output of
 * one cn_pgn_read. */
cn_status cn_pgn_read_parallel(cn_pgn_input *in, cn_pgn_output *out, int threads, size_t min_block);

/*
 * Resolves one move token in pos: SAN as cn_move_from_san reads it, long
 * algebraic and UCI, or a null move ("--", "Z0": CN_OK with CN_MOVE_NONE).
 * Returns CN_OK, CN_ERR_BAD_MOVE or CN_ERR_ILLEGAL_MOVE.
 */
cn_status cn_pgn_resolve_move(const cn_position *pos, const char *token, size_t length, cn_move *out);

/* Plays a resolved move (CN_MOVE_NONE: passes). Returns CN_ERR_ILLEGAL_MOVE
 * for a null move while in check, else CN_OK. */
cn_status cn_pgn_play(cn_position *pos, cn_move move);

#ifdef __cplusplus
}
#endif

#endif /* CN_PGN_H */
