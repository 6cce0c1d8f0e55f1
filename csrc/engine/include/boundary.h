/*
 * boundary.h - every fact a binding and its caller must agree on: the slot
 * of each value in the typed arrays that cross (state, progress and result
 * arrays, the fields of a PGN record), the codes those values take (record
 * ops, results, board codes, game-state bits, line formats and statuses,
 * error codes), the limits a binding enforces, and the layout of the
 * structs a caller sharing the engine's memory (the WebAssembly backend)
 * reads and writes.
 *
 * Each fact is written once, as an X-macro list of (C name, JSON key): the
 * slot enums below are made from the lists, the engine and a binding use
 * the C names, and cn_boundary_tables() gives the same lists as one JSON
 * text for a binding's caller to read by key. A slot's value is its place
 * in its list; a code's value is the C constant it names.
 */
#ifndef CN_BOUNDARY_H
#define CN_BOUNDARY_H

#include <stddef.h>
#include <stdint.h>

#include "chess_native.h"
#include "line.h"
#include "perft_job.h"
#include "pgn.h"
#include "rules.h"
#include "san.h"
#include "split.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Limits a binding enforces ---------------------------------------- */

/* Deepest perft a binding accepts. */
#define CN_MAX_PERFT_DEPTH 20
/* The longest FEN handed to the parser; a valid FEN has about 90
 * characters, and longer strings are rejected as too long unparsed. */
#define CN_FEN_MAX_LENGTH 251
/* Largest perft hash table: 1 TiB, or where the address space is smaller
 * the largest table the engine builds in it (a power of two of at most a
 * quarter of it: 1 GiB with a 32-bit size_t, as in the wasm build). */
#define CN_MAX_HASH_BYTES                                                                                              \
    ((uint64_t)(SIZE_MAX / 2 < ((uint64_t)1 << 40) ? (uint64_t)(SIZE_MAX / 4 + 1) : ((uint64_t)1 << 40)))
/* Most moves one line call plays (its buffers may hold more). */
#define CN_LINE_MAX_MOVES 65536
/* Moves per SAN line call: their SAN strings are joined on the stack. */
#define CN_SAN_LINE_MOVES 256
/* Bytes of one UCI record: up to 5 characters, NUL padded. */
#define CN_UCI_RECORD_BYTES 6

#define CN_BOUNDARY_LIMITS(X)                                                                                          \
    X(CN_MAX_PERFT_DEPTH, maxDepth)                                                                                    \
    X(CN_PERFT_JOB_MAX_THREADS, maxThreads)                                                                            \
    X(CN_PERFT_JOB_MAX_UNITS, maxUnits)                                                                                \
    X(CN_MAX_HASH_BYTES, maxHashBytes)                                                                                 \
    X(CN_FEN_MAX_LENGTH, fenMaxLength)                                                                                 \
    X(CN_LINE_UCI_MAX, uciMaxLength)                                                                                   \
    X(CN_LINE_SAN_MAX, sanMaxLength)                                                                                   \
    X(CN_LINE_MAX_MOVES, lineMaxMoves)                                                                                 \
    X(CN_SAN_LINE_MOVES, sanLineMoves)                                                                                 \
    X(CN_UCI_RECORD_BYTES, uciRecordBytes)                                                                             \
    X(CN_NO_SQUARE, noSquare)

/* ---- Slots of the arrays that cross ------------------------------------ */

/* A PGN read's state (Float64Array). In: text end, mode, line and column of
 * text[0], max games (0: all), threads (1..CN_PGN_MAX_THREADS). Out: line
 * and column at text[consumed], consumed bytes, games read. */
#define CN_PGN_STATE_SLOTS(X)                                                                                          \
    X(CN_PGN_STATE_TEXT_END, textEnd)                                                                                  \
    X(CN_PGN_STATE_MODE, mode)                                                                                         \
    X(CN_PGN_STATE_LINE, line)                                                                                         \
    X(CN_PGN_STATE_COLUMN, column)                                                                                     \
    X(CN_PGN_STATE_MAX_GAMES, maxGames)                                                                                \
    X(CN_PGN_STATE_CONSUMED, consumed)                                                                                 \
    X(CN_PGN_STATE_GAMES, games)                                                                                       \
    X(CN_PGN_STATE_THREADS, threads)

/* A line call's state (Float64Array): a line status, the offset to go on
 * from, and the failing move's start and length in the text. */
#define CN_LINE_STATE_SLOTS(X)                                                                                         \
    X(CN_LINE_STATE_STATUS, status)                                                                                    \
    X(CN_LINE_STATE_OFFSET, offset)                                                                                    \
    X(CN_LINE_STATE_BAD_START, badStart)                                                                               \
    X(CN_LINE_STATE_BAD_LENGTH, badLength)

/* A perft job's progress (Float64Array). */
#define CN_PERFT_PROGRESS_SLOTS(X)                                                                                     \
    X(CN_PERFT_PROGRESS_ROOT_MOVES_DONE, rootMovesDone)                                                                \
    X(CN_PERFT_PROGRESS_ROOT_MOVES_TOTAL, rootMovesTotal)                                                              \
    X(CN_PERFT_PROGRESS_ELAPSED_MS, elapsedMs)

/* A finished perft job's result (Float64Array). */
#define CN_PERFT_RESULT_SLOTS(X)                                                                                       \
    X(CN_PERFT_RESULT_SECONDS, seconds)                                                                                \
    X(CN_PERFT_RESULT_ROOT_MOVES, rootMoves)

/* A PGN record (CN_PGN_RECORD_INTS int32): the op, then its fields. */
#define CN_PGN_RECORD_SLOTS(X)                                                                                         \
    X(CN_PGN_RECORD_OP, op)                                                                                            \
    X(CN_PGN_RECORD_A, a)                                                                                              \
    X(CN_PGN_RECORD_B, b)                                                                                              \
    X(CN_PGN_RECORD_C, c)

/* The fields of each op's record (see pgn.h), by name. A string is an
 * offset into the string table and a length. */
#define CN_PGN_GAME_SLOTS(X)                                                                                           \
    X(CN_PGN_GAME_LINE, line)                                                                                          \
    X(CN_PGN_GAME_COLUMN, column)
#define CN_PGN_TAG_SLOTS(X)                                                                                            \
    X(CN_PGN_TAG_NAME, name)                                                                                           \
    X(CN_PGN_TAG_NAME_LENGTH, nameLength)                                                                              \
    X(CN_PGN_TAG_VALUE_LENGTH, valueLength)
#define CN_PGN_START_SLOTS(X)                                                                                          \
    X(CN_PGN_START_FEN, fen)                                                                                           \
    X(CN_PGN_START_FEN_LENGTH, fenLength)                                                                              \
    X(CN_PGN_START_FLAGS, flags)
/* The string at `san` is the SAN (sanLength bytes) followed by the move's
 * UCI record (CN_UCI_RECORD_BYTES, "0000" for a null move). `move` is the
 * engine's move, a key for the caller and no more. */
#define CN_PGN_MOVE_SLOTS(X)                                                                                           \
    X(CN_PGN_MOVE_MOVE, move)                                                                                          \
    X(CN_PGN_MOVE_SAN, san)                                                                                            \
    X(CN_PGN_MOVE_SAN_LENGTH, sanLength)
#define CN_PGN_COMMENT_SLOTS(X)                                                                                        \
    X(CN_PGN_COMMENT_TEXT, text)                                                                                       \
    X(CN_PGN_COMMENT_LENGTH, length)
#define CN_PGN_NAG_SLOTS(X) X(CN_PGN_NAG_NAG, nag)
#define CN_PGN_ERROR_SLOTS(X)                                                                                          \
    X(CN_PGN_ERROR_MESSAGE, message)                                                                                   \
    X(CN_PGN_ERROR_LENGTH, length)                                                                                     \
    X(CN_PGN_ERROR_PLY, ply)
#define CN_PGN_WHERE_SLOTS(X)                                                                                          \
    X(CN_PGN_WHERE_LINE, line)                                                                                         \
    X(CN_PGN_WHERE_COLUMN, column)
#define CN_PGN_TOKEN_SLOTS(X)                                                                                          \
    X(CN_PGN_TOKEN_TEXT, text)                                                                                         \
    X(CN_PGN_TOKEN_LENGTH, length)
#define CN_PGN_END_SLOTS(X)                                                                                            \
    X(CN_PGN_END_RESULT, result)                                                                                       \
    X(CN_PGN_END_FEN, fen)                                                                                             \
    X(CN_PGN_END_FEN_LENGTH, fenLength)

/* Every slot list, by the JSON key of its table. */
#define CN_BOUNDARY_SLOT_TABLES(X)                                                                                     \
    X(CN_PGN_STATE_SLOTS, pgnState)                                                                                    \
    X(CN_LINE_STATE_SLOTS, lineState)                                                                                  \
    X(CN_PERFT_PROGRESS_SLOTS, perftProgress)                                                                          \
    X(CN_PERFT_RESULT_SLOTS, perftResult)                                                                              \
    X(CN_PGN_RECORD_SLOTS, pgnRecord)                                                                                  \
    X(CN_PGN_GAME_SLOTS, pgnGame)                                                                                      \
    X(CN_PGN_TAG_SLOTS, pgnTag)                                                                                        \
    X(CN_PGN_START_SLOTS, pgnStart)                                                                                    \
    X(CN_PGN_MOVE_SLOTS, pgnMove)                                                                                      \
    X(CN_PGN_COMMENT_SLOTS, pgnComment)                                                                                \
    X(CN_PGN_NAG_SLOTS, pgnNag)                                                                                        \
    X(CN_PGN_ERROR_SLOTS, pgnError)                                                                                    \
    X(CN_PGN_WHERE_SLOTS, pgnWhere)                                                                                    \
    X(CN_PGN_TOKEN_SLOTS, pgnToken)                                                                                    \
    X(CN_PGN_END_SLOTS, pgnEnd)

#define CN_BOUNDARY_ENUM_ENTRY(name, key) name,
enum { CN_PGN_STATE_SLOTS(CN_BOUNDARY_ENUM_ENTRY) CN_PGN_STATE_LENGTH };
enum { CN_LINE_STATE_SLOTS(CN_BOUNDARY_ENUM_ENTRY) CN_LINE_STATE_LENGTH };
enum { CN_PERFT_PROGRESS_SLOTS(CN_BOUNDARY_ENUM_ENTRY) CN_PERFT_PROGRESS_LENGTH };
enum { CN_PERFT_RESULT_SLOTS(CN_BOUNDARY_ENUM_ENTRY) CN_PERFT_RESULT_LENGTH };
enum { CN_PGN_RECORD_SLOTS(CN_BOUNDARY_ENUM_ENTRY) CN_PGN_RECORD_LENGTH };
/* The length of each array, by the JSON key of its table. */
#define CN_BOUNDARY_SLOT_LENGTHS(X)                                                                                    \
    X(CN_PGN_STATE_LENGTH, pgnState)                                                                                   \
    X(CN_LINE_STATE_LENGTH, lineState)                                                                                 \
    X(CN_PERFT_PROGRESS_LENGTH, perftProgress)                                                                         \
    X(CN_PERFT_RESULT_LENGTH, perftResult)                                                                             \
    X(CN_PGN_RECORD_LENGTH, pgnRecord)

/* A record's fields follow its op. */
#define CN_PGN_FIELDS_ENUM(list, prefix) enum { prefix##_OP_SLOT = CN_PGN_RECORD_OP, list(CN_BOUNDARY_ENUM_ENTRY) }
CN_PGN_FIELDS_ENUM(CN_PGN_GAME_SLOTS, CN_PGN_GAME);
CN_PGN_FIELDS_ENUM(CN_PGN_TAG_SLOTS, CN_PGN_TAG);
CN_PGN_FIELDS_ENUM(CN_PGN_START_SLOTS, CN_PGN_START);
CN_PGN_FIELDS_ENUM(CN_PGN_MOVE_SLOTS, CN_PGN_MOVE);
CN_PGN_FIELDS_ENUM(CN_PGN_COMMENT_SLOTS, CN_PGN_COMMENT);
CN_PGN_FIELDS_ENUM(CN_PGN_NAG_SLOTS, CN_PGN_NAG);
CN_PGN_FIELDS_ENUM(CN_PGN_ERROR_SLOTS, CN_PGN_ERROR);
CN_PGN_FIELDS_ENUM(CN_PGN_WHERE_SLOTS, CN_PGN_WHERE);
CN_PGN_FIELDS_ENUM(CN_PGN_TOKEN_SLOTS, CN_PGN_TOKEN);
CN_PGN_FIELDS_ENUM(CN_PGN_END_SLOTS, CN_PGN_END);

/* ---- Codes ------------------------------------------------------------- */

/* How a PGN read's text ends (the state's textEnd slot). */
enum {
    CN_PGN_TEXT_MORE = 0,  /* more text follows */
    CN_PGN_TEXT_FINAL = 1, /* the end of the text */
    CN_PGN_TEXT_CUT = 2    /* cut at a size limit: a game cut there is reported */
};
#define CN_PGN_TEXT_ENDS(X) X(CN_PGN_TEXT_MORE, more) X(CN_PGN_TEXT_FINAL, final) X(CN_PGN_TEXT_CUT, cut)

/* Bits of a START record's flags: a Chess960 game; a FEN tag that is bad
 * (the game then has no moves). */
enum { CN_PGN_START_CHESS960 = 1, CN_PGN_START_BAD_FEN = 2 };
#define CN_PGN_START_FLAG_BITS(X) X(CN_PGN_START_CHESS960, chess960) X(CN_PGN_START_BAD_FEN, badFen)

#define CN_PGN_OPS(X)                                                                                                  \
    X(CN_PGN_OP_GAME, game)                                                                                            \
    X(CN_PGN_OP_TAG, tag)                                                                                              \
    X(CN_PGN_OP_START, start)                                                                                          \
    X(CN_PGN_OP_MOVE, move)                                                                                            \
    X(CN_PGN_OP_COMMENT, comment)                                                                                      \
    X(CN_PGN_OP_NAG, nag)                                                                                              \
    X(CN_PGN_OP_VAR_START, varStart)                                                                                   \
    X(CN_PGN_OP_VAR_END, varEnd)                                                                                       \
    X(CN_PGN_OP_ERROR, error)                                                                                          \
    X(CN_PGN_OP_WHERE, where)                                                                                          \
    X(CN_PGN_OP_END, end)                                                                                              \
    X(CN_PGN_OP_TOKEN, token)

#define CN_PGN_MODES(X)                                                                                                \
    X(CN_PGN_MODE_TREE, tree)                                                                                          \
    X(CN_PGN_MODE_MAINLINE, mainline) X(CN_PGN_MODE_HEADERS, headers) X(CN_PGN_MODE_CHESSJS, chessjs)

#define CN_PGN_RESULTS(X)                                                                                              \
    X(CN_PGN_RESULT_NONE, none)                                                                                        \
    X(CN_PGN_RESULT_WHITE, white)                                                                                      \
    X(CN_PGN_RESULT_BLACK, black)                                                                                      \
    X(CN_PGN_RESULT_DRAW, draw)                                                                                        \
    X(CN_PGN_RESULT_UNKNOWN, unknown)

#define CN_PGN_LIMITS(X)                                                                                               \
    X(CN_PGN_MAX_DEPTH, maxDepth)                                                                                      \
    X(CN_PGN_MAX_MOVE_TOKEN, maxMoveToken)                                                                             \
    X(CN_PGN_MAX_THREADS, maxThreads)                                                                                  \
    X(CN_PGN_RECORD_INTS, recordInts)                                                                                  \
    X(CN_PGN_STATE_LENGTH, stateLength)

/* A square of a binding's board(): empty, or the piece on it. */
#define CN_BOARD_EMPTY             0
#define CN_BOARD_CODE(color, type) (1 + (color) * 8 + (type))
#define CN_BOARD_CODES(X)                                                                                              \
    X(CN_BOARD_EMPTY, empty)                                                                                           \
    X(CN_BOARD_CODE(CN_WHITE, CN_PAWN), whitePawn)                                                                     \
    X(CN_BOARD_CODE(CN_WHITE, CN_KNIGHT), whiteKnight)                                                                 \
    X(CN_BOARD_CODE(CN_WHITE, CN_BISHOP), whiteBishop)                                                                 \
    X(CN_BOARD_CODE(CN_WHITE, CN_ROOK), whiteRook)                                                                     \
    X(CN_BOARD_CODE(CN_WHITE, CN_QUEEN), whiteQueen)                                                                   \
    X(CN_BOARD_CODE(CN_WHITE, CN_KING), whiteKing)                                                                     \
    X(CN_BOARD_CODE(CN_BLACK, CN_PAWN), blackPawn)                                                                     \
    X(CN_BOARD_CODE(CN_BLACK, CN_KNIGHT), blackKnight)                                                                 \
    X(CN_BOARD_CODE(CN_BLACK, CN_BISHOP), blackBishop)                                                                 \
    X(CN_BOARD_CODE(CN_BLACK, CN_ROOK), blackRook)                                                                     \
    X(CN_BOARD_CODE(CN_BLACK, CN_QUEEN), blackQueen)                                                                   \
    X(CN_BOARD_CODE(CN_BLACK, CN_KING), blackKing)

/* The sides, as turn() gives them and attackers() takes them. */
#define CN_COLORS(X) X(CN_WHITE, white) X(CN_BLACK, black)

#define CN_GAME_STATE_BITS(X)                                                                                          \
    X(CN_GAME_CHECK, check) X(CN_GAME_NO_MOVES, noMoves) X(CN_GAME_INSUFFICIENT, insufficient) X(CN_GAME_FIFTY, fifty)

#define CN_LINE_FORMATS(X) X(CN_LINE_UCI, uci) X(CN_LINE_SAN, san) X(CN_LINE_LIST, list)

/* A line call's status slot. */
#define CN_LINE_STATUSES(X) X(CN_OK, ok) X(CN_ERR_ILLEGAL_MOVE, illegal) X(CN_ERR_BAD_MOVE, malformed)

/* The `code` (the status's C name) of the errors a caller tells apart. */
#define CN_ERROR_CODES(X)                                                                                              \
    X(CN_ERR_FEN, fen) X(CN_ERR_ILLEGAL_MOVE, illegalMove) X(CN_ERR_BAD_MOVE, badMove) X(CN_ERR_NO_MEMORY, noMemory)

/* Every engine status (cn_status), by name. */
#define CN_STATUSES(X)                                                                                                 \
    X(CN_OK, ok)                                                                                                       \
    X(CN_ERR_FEN, fen)                                                                                                 \
    X(CN_ERR_ILLEGAL_MOVE, illegalMove)                                                                                \
    X(CN_ERR_BAD_MOVE, badMove)                                                                                        \
    X(CN_ERR_INIT, init)                                                                                               \
    X(CN_ERR_BAD_POSITION, badPosition)                                                                                \
    X(CN_ERR_UNSUPPORTED, unsupported)                                                                                 \
    X(CN_ERR_BAD_ARGUMENT, badArgument)                                                                                \
    X(CN_ERR_NO_MEMORY, noMemory)                                                                                      \
    X(CN_ERR_NO_THREAD, noThread)

/* ---- Struct layout ------------------------------------------------------ */

/* The sizes and field offsets of the structs a caller that shares the
 * engine's memory fills in and reads, as this build lays them out (the
 * WebAssembly build's tables give wasm32's, the addon's its host's). Each
 * list is one struct: `bytes` its size, then the byte offset of each field
 * the caller touches. */
#define CN_MEMBER_BYTES(type, member) sizeof(((type *)0)->member)
#define CN_LAYOUT_POSITION(X)                                                                                          \
    X(sizeof(cn_position), bytes)                                                                                      \
    X(offsetof(cn_position, key), key)                                                                                 \
    X(offsetof(cn_position, fullmove), fullmove)                                                                       \
    X(offsetof(cn_position, side), side)
#define CN_LAYOUT_UNDO(X) X(sizeof(cn_undo), bytes)
#define CN_LAYOUT_FEN_ERROR(X)                                                                                         \
    X(sizeof(cn_fen_error), bytes)                                                                                     \
    X(offsetof(cn_fen_error, field), field)                                                                            \
    X(offsetof(cn_fen_error, message), message)                                                                        \
    X(CN_MEMBER_BYTES(cn_fen_error, message), messageBytes)
#define CN_LAYOUT_LINE_READER(X)                                                                                       \
    X(sizeof(cn_line_reader), bytes)                                                                                   \
    X(offsetof(cn_line_reader, text), text)                                                                            \
    X(offsetof(cn_line_reader, len), len)                                                                              \
    X(offsetof(cn_line_reader, offset), offset)                                                                        \
    X(offsetof(cn_line_reader, format), format)                                                                        \
    X(offsetof(cn_line_reader, bad_start), badStart)                                                                   \
    X(offsetof(cn_line_reader, bad_len), badLen)
#define CN_LAYOUT_PGN_INPUT(X)                                                                                         \
    X(sizeof(cn_pgn_input), bytes)                                                                                     \
    X(offsetof(cn_pgn_input, text), text)                                                                              \
    X(offsetof(cn_pgn_input, length), length)                                                                          \
    X(offsetof(cn_pgn_input, final), final)                                                                            \
    X(offsetof(cn_pgn_input, cut), cut)                                                                                \
    X(offsetof(cn_pgn_input, mode), mode)                                                                              \
    X(offsetof(cn_pgn_input, line), line)                                                                              \
    X(offsetof(cn_pgn_input, column), column)                                                                          \
    X(offsetof(cn_pgn_input, max_games), maxGames)                                                                     \
    X(offsetof(cn_pgn_input, consumed), consumed)                                                                      \
    X(offsetof(cn_pgn_input, consumed_line), consumedLine)                                                             \
    X(offsetof(cn_pgn_input, consumed_column), consumedColumn)
/* A part is its output, then line_offset. */
#define CN_LAYOUT_PGN_PART(X)                                                                                          \
    X(sizeof(cn_pgn_part), bytes)                                                                                      \
    X(offsetof(cn_pgn_part, out.records), records)                                                                     \
    X(offsetof(cn_pgn_part, out.record_count), recordCount)                                                            \
    X(offsetof(cn_pgn_part, out.strings), strings)                                                                     \
    X(offsetof(cn_pgn_part, out.string_length), stringLength)                                                          \
    X(offsetof(cn_pgn_part, out.games), games)                                                                         \
    X(offsetof(cn_pgn_part, line_offset), lineOffset)
#define CN_LAYOUT_PGN_PARTS(X)                                                                                         \
    X(sizeof(cn_pgn_parts), bytes) X(offsetof(cn_pgn_parts, part), part) X(offsetof(cn_pgn_parts, count), count)
#define CN_LAYOUT_JOB_OPTIONS(X)                                                                                       \
    X(sizeof(cn_perft_job_options), bytes)                                                                             \
    X(offsetof(cn_perft_job_options, depth), depth)                                                                    \
    X(offsetof(cn_perft_job_options, threads), threads)                                                                \
    X(offsetof(cn_perft_job_options, hash_bytes), hashBytes)                                                           \
    X(offsetof(cn_perft_job_options, key_seed), keySeed)
#define CN_LAYOUT_SPLIT(X)                                                                                             \
    X(sizeof(cn_split), bytes)                                                                                         \
    X(offsetof(cn_split, ply), ply)                                                                                    \
    X(offsetof(cn_split, count), count)                                                                                \
    X(offsetof(cn_split, positions), positions)                                                                        \
    X(offsetof(cn_split, multiplicities), multiplicities)                                                              \
    X(offsetof(cn_split, root_first), rootFirst)                                                                       \
    X(offsetof(cn_split, roots), roots)                                                                                \
    X(offsetof(cn_split, root_counts), rootCounts)                                                                     \
    X(offsetof(cn_split, root_move_count), rootMoveCount)                                                              \
    X(offsetof(cn_split, root_moves), rootMoves)

/* Every struct list, by the JSON key of its table. */
#define CN_BOUNDARY_LAYOUT_TABLES(X)                                                                                   \
    X(CN_LAYOUT_POSITION, position)                                                                                    \
    X(CN_LAYOUT_UNDO, undo)                                                                                            \
    X(CN_LAYOUT_FEN_ERROR, fenError)                                                                                   \
    X(CN_LAYOUT_LINE_READER, lineReader)                                                                               \
    X(CN_LAYOUT_PGN_INPUT, pgnInput)                                                                                   \
    X(CN_LAYOUT_PGN_PART, pgnPart)                                                                                     \
    X(CN_LAYOUT_PGN_PARTS, pgnParts)                                                                                   \
    X(CN_LAYOUT_JOB_OPTIONS, jobOptions)                                                                               \
    X(CN_LAYOUT_SPLIT, split)

/* The widths of the scalars the structs hold, and the buffers a caller
 * passes: a move list (maxMoves moves), a SAN string, a FEN / EPD, a key
 * set's name; the smallest block a parallel PGN read splits its text into. */
#define CN_BOUNDARY_LAYOUT_SIZES(X)                                                                                    \
    X(sizeof(size_t), sizeBytes)                                                                                       \
    X(sizeof(void *), pointerBytes)                                                                                    \
    X(sizeof(int), intBytes)                                                                                           \
    X(sizeof(cn_move), moveBytes)                                                                                      \
    X(CN_MAX_MOVES, maxMoves)                                                                                          \
    X(CN_SAN_MAX, sanBytes)                                                                                            \
    X(CN_FEN_WRITE_MAX, fenBytes)                                                                                      \
    X(CN_PERFT_KEY_SET_NAME_MAX, keySetNameBytes)                                                                      \
    X(CN_PGN_MIN_BLOCK_BYTES, pgnMinBlockBytes)

/* 64-bit constants, as decimal strings (a JSON number holds 53 bits). */
#define CN_BOUNDARY_KEY_SEEDS(X) X(CN_PERFT_KEY_SEED, perft) X(CN_PERFT_VERIFY_KEY_SEED, perftVerify)

/*
 * All of the above as one JSON object: {"slots": {"pgnState": {"textEnd":
 * 0, ...}, ...}, "slotLengths": {...}, "limits": {...}, "pgn": {"maxDepth":
 * ..., "op": {...}, "mode": {...}, "result": {...}, "textEnd": {...},
 * "startFlags": {...}}, "board": {...}, "colors": {...}, "gameStateBits":
 * {...}, "lineFormat": {...}, "lineStatus": {...}, "errorCodes": {"fen":
 * "CN_ERR_FEN", ...}, "status": {"ok": 0, ...}, "layout": {"sizeBytes":
 * ..., ..., "position": {"bytes": ..., "key": ...}, ...}, "keySeeds":
 * {"perft": "<decimal>", ...}}. Built once (thread-safe); static storage.
 */
const char *cn_boundary_tables(void);

#ifdef __cplusplus
}
#endif

#endif /* CN_BOUNDARY_H */
