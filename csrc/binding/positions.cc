// positions.cc - FEN in and out, legal move lists, single UCI moves and
// null moves, game state and board queries.
#include "binding.h"

#include <cstdio>
#include <cstring>

#include "args.h"
#include "boundary.h"
#include "pgn.h"
#include "line.h"
#include "pgn.h"
#include "rules.h"

namespace binding {

namespace {

// Throws the CN_ERR_FEN error with `field` for a FEN that did not parse
// (too_long: not handed to the parser).
void ThrowFenError(napi_env env, cn_fen_error *err, bool too_long) {
    if (too_long) {
        err->field = CN_FEN_FIELD_COUNT;
        std::snprintf(err->message, sizeof err->message, "FEN is too long to be valid (more than %d characters)",
                      CN_FEN_MAX_LENGTH);
    }
    err->message[sizeof err->message - 1] = '\0';
    Napi::Error error = Napi::Error::New(env, err->message);
    error.Set("code", Napi::String::New(env, StatusName(CN_ERR_FEN)));
    error.Set("field", Napi::String::New(env, cn_fen_field_name(err->field)));
    error.ThrowAsJavaScriptException();
}

// Parses the arguments (fen: string, chess960: 0 | 1) into *pos; false
// with an exception pending (a CN_ERR_FEN error with `field` for a bad FEN).
bool ParseFen(napi_env env, napi_value fen_value, napi_value chess960_value, cn_position *pos) {
    char fen[CN_FEN_MAX_LENGTH + 2];
    size_t length = 0;
    bool too_long = false;
    if (!ReadShortString(env, fen_value, fen, CN_FEN_MAX_LENGTH, &length, &too_long, "FEN must be a string"))
        return false;
    double chess960 = 0; // napi_get_value_double fails for anything but a number
    if (napi_get_value_double(env, chess960_value, &chess960) != napi_ok) {
        ThrowType(env, "chess960 must be 0 or 1");
        return false;
    }
    cn_fen_error err;
    err.field = CN_FEN_FIELD_COUNT;
    err.message[0] = '\0';
    if (!too_long && cn_fen_parse(pos, fen, length, chess960 == 1 ? 1 : 0, &err) == CN_OK) return true;
    ThrowFenError(env, &err, too_long);
    return false;
}

// fenParseRelaxed(out: view(positionBytes), fen: string, whiteKing: 0..64,
// blackKing: 0..64): undefined. A relaxed position (cn_fen_parse_relaxed;
// a king square of 64: none); `out` is written only on success.
Napi::Value FenParseRelaxed(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    void *out = ViewBytes(env, info[0], sizeof(cn_position));
    if (!out) {
        ThrowType(env, "position must be an ArrayBufferView of positionBytes bytes");
        return env.Undefined();
    }
    char fen[CN_FEN_MAX_LENGTH + 2];
    size_t length = 0;
    bool too_long = false;
    double white_king = 0, black_king = 0;
    if (!ReadShortString(env, info[1], fen, CN_FEN_MAX_LENGTH, &length, &too_long, "FEN must be a string") ||
        !IntegerArg(env, info[2], "whiteKing", 0, CN_NO_SQUARE, &white_king) ||
        !IntegerArg(env, info[3], "blackKing", 0, CN_NO_SQUARE, &black_king))
        return env.Undefined();
    cn_fen_error err;
    err.field = CN_FEN_FIELD_COUNT;
    err.message[0] = '\0';
    cn_position pos;
    if (!too_long && cn_fen_parse_relaxed(&pos, fen, length, static_cast<unsigned>(white_king),
                                          static_cast<unsigned>(black_king), &err) == CN_OK) {
        std::memcpy(out, &pos, sizeof pos);
        return env.Undefined();
    }
    ThrowFenError(env, &err, too_long);
    return env.Undefined();
}

// fenParse(out: view(positionBytes), fen: string, chess960: 0 | 1): undefined.
// `out` is written only on success.
Napi::Value FenParse(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    void *out = ViewBytes(env, info[0], sizeof(cn_position)); // undefined past the end
    if (!out) {
        ThrowType(env, "position must be an ArrayBufferView of positionBytes bytes");
        return env.Undefined();
    }
    cn_position pos;
    if (ParseFen(env, info[1], info[2], &pos)) std::memcpy(out, &pos, sizeof pos);
    return env.Undefined();
}

// A move buffer passed as an ArrayBuffer: room for CN_MAX_MOVES aligned
// 16-bit moves, or nullptr (no exception) when value is anything else.
uint16_t *MoveBuffer(napi_env env, napi_value value) {
    void *data = nullptr;
    size_t length = 0;
    if (napi_get_arraybuffer_info(env, value, &data, &length) != napi_ok || data == nullptr ||
        length < CN_MAX_MOVES * sizeof(uint16_t) || reinterpret_cast<uintptr_t>(data) % alignof(uint16_t) != 0)
        return nullptr;
    return static_cast<uint16_t *>(data);
}

// fenParseList(slab: ArrayBuffer, at: number, fen: string, chess960: 0 | 1,
//              moves: ArrayBuffer(>= 2 * maxMoves bytes)): count
// fenParse into slab[at, at + positionBytes), then legalMoves of the new
// position in the same call: a new position's move list is most often the
// first thing asked of it. The constructor's hot path, so a plain N-API
// callback taking ArrayBuffers, not views (reading a view costs V8 a chain
// of type checks).
napi_value FenParseList(napi_env env, napi_callback_info cbinfo) {
    size_t argc = 5;
    napi_value argv[5];
    if (napi_get_cb_info(env, cbinfo, &argc, argv, nullptr, nullptr) != napi_ok) return nullptr;
    // Missing arguments read as undefined and fail the checks below.
    void *slab = nullptr;
    size_t slab_length = 0;
    double at = -1;
    // The range test comes first: converting a double out of size_t's range is undefined.
    if (napi_get_arraybuffer_info(env, argv[0], &slab, &slab_length) != napi_ok || slab == nullptr ||
        napi_get_value_double(env, argv[1], &at) != napi_ok || !(at >= 0 && at <= static_cast<double>(slab_length)) ||
        at != static_cast<double>(static_cast<size_t>(at)) ||
        slab_length - static_cast<size_t>(at) < sizeof(cn_position)) {
        ThrowType(env, "fenParseList needs an ArrayBuffer and an offset with positionBytes bytes after it");
        return nullptr;
    }
    uint16_t *moves = MoveBuffer(env, argv[4]);
    if (!moves) {
        ThrowType(env, "moves must be an ArrayBuffer of at least 2 * maxMoves bytes");
        return nullptr;
    }
    cn_position pos;
    if (!ParseFen(env, argv[2], argv[3], &pos)) return nullptr;
    std::memcpy(static_cast<uint8_t *>(slab) + static_cast<size_t>(at), &pos, sizeof pos);
    napi_value count = nullptr;
    napi_create_int32(env, cn_legal_moves_sorted(&pos, moves), &count);
    return count;
}

// legalMoves(pos, out: ArrayBuffer(>= 2 * maxMoves bytes) | Uint16Array(>= maxMoves)):
// count, the moves sorted by their UCI strings. A plain N-API callback, like
// fenParseList: a held position's move list is the other hot path, and
// Position passes an ArrayBuffer (reading a typed array costs V8 a chain of
// type checks, as for fenParseList).
napi_value LegalMoves(napi_env env, napi_callback_info cbinfo) {
    size_t argc = 2;
    napi_value argv[2];
    if (napi_get_cb_info(env, cbinfo, &argc, argv, nullptr, nullptr) != napi_ok) return nullptr;
    cn_position pos;
    if (!LoadPosition(env, argv[0], &pos)) return nullptr; // missing arguments read as undefined
    uint16_t *out = MoveBuffer(env, argv[1]);
    if (!out) out = ArrayArg<uint16_t>(env, argv[1], CN_MAX_MOVES);
    if (!out) {
        ThrowType(env, "moves must be an ArrayBuffer of at least 2 * maxMoves bytes or a Uint16Array of at least "
                       "maxMoves entries");
        return nullptr;
    }
    napi_value count = nullptr;
    napi_create_int32(env, cn_legal_moves_sorted(&pos, out), &count);
    return count;
}

// fen(pos) / epd(pos): string, written by `write` (cn_fen_write, cn_epd_write)
template <size_t (*write)(const cn_position *, char *, size_t)> Napi::Value WriteFen(const Napi::CallbackInfo &info) {
    cn_position pos;
    if (!LoadPosition(info.Env(), info[0], &pos)) return info.Env().Undefined();
    char buf[CN_FEN_WRITE_MAX];
    size_t n = write(&pos, buf, sizeof buf);
    return Napi::String::New(info.Env(), buf, n);
}

// turn(pos): 0 white, 1 black
Napi::Value Turn(const Napi::CallbackInfo &info) {
    cn_position pos;
    if (!LoadPosition(info.Env(), info[0], &pos)) return info.Env().Undefined();
    return Napi::Number::New(info.Env(), pos.side);
}

// moveNumber(pos): the FEN's fullmove number, from 1
Napi::Value MoveNumber(const Napi::CallbackInfo &info) {
    cn_position pos;
    if (!LoadPosition(info.Env(), info[0], &pos)) return info.Env().Undefined();
    return Napi::Number::New(info.Env(), pos.fullmove);
}

// playNull(pos, out): the side to move passes (a PGN null move, cn_pgn_play);
// writes the position after it into out. CN_ERR_ILLEGAL_MOVE in check.
Napi::Value PlayNull(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    if (!LoadPosition(env, info[0], &pos)) return env.Undefined();
    if (cn_pgn_play(&pos, CN_MOVE_NONE) != CN_OK) {
        ThrowStatus(env, CN_ERR_ILLEGAL_MOVE, "a null move while in check");
        return env.Undefined();
    }
    StorePosition(env, info[1], &pos, "out must be an ArrayBufferView of positionBytes bytes");
    return env.Undefined();
}

// inCheck(pos): 1 when the side to move is in check, else 0
Napi::Value InCheck(const Napi::CallbackInfo &info) {
    cn_position pos;
    if (!LoadPosition(info.Env(), info[0], &pos)) return info.Env().Undefined();
    return Napi::Number::New(info.Env(), cn_in_check(&pos) != 0 ? 1 : 0);
}

// moveToUci(pos, move): string. Only for moves returned by legalMoves for a
// position of the same mode; anything else is a TypeError.
Napi::Value MoveToUci(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    if (!LoadPosition(env, info[0], &pos)) return env.Undefined();
    double value = 0;
    if (napi_get_value_double(env, info[1], &value) != napi_ok) {
        ThrowType(env, "move must be a number");
        return env.Undefined();
    }
    // The engine's UCI writer expects a legal move: check it is one.
    cn_move moves[CN_MAX_MOVES];
    int n = cn_legal_moves(&pos, moves);
    bool found = false;
    for (int i = 0; i < n; i++) found = found || moves[i] == value;
    if (!found) {
        ThrowType(env, "move is not legal in this position");
        return env.Undefined();
    }
    char uci[CN_UCI_RECORD_BYTES];
    int length = cn_move_to_uci(&pos, static_cast<cn_move>(value), uci);
    return Napi::String::New(env, uci, static_cast<size_t>(length));
}

// isLegal(pos, uci): 1 when legal, else 0 (also for any malformed string)
Napi::Value IsLegal(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    if (!LoadPosition(env, info[0], &pos)) return env.Undefined();
    char uci[CN_LINE_UCI_MAX + 2];
    size_t length = 0;
    bool too_long = false;
    if (!ReadShortString(env, info[1], uci, CN_LINE_UCI_MAX, &length, &too_long, "move must be a string"))
        return env.Undefined();
    cn_move move;
    bool legal = !too_long && cn_move_from_uci(&pos, uci, length, &move) == CN_OK;
    return Napi::Number::New(env, legal ? 1 : 0);
}

// play(pos, uci, out: view(positionBytes)): see PlayMove.
Napi::Value Play(const Napi::CallbackInfo &info) { return PlayMove(info, Notation::kUci); }

// hash(pos): bigint, the Polyglot key the engine keeps up to date in make.
Napi::Value Hash(const Napi::CallbackInfo &info) {
    cn_position pos;
    if (!LoadPosition(info.Env(), info[0], &pos)) return info.Env().Undefined();
    return Napi::BigInt::New(info.Env(), pos.key);
}

// gameState(pos): the CN_GAME_* bits (exported as gameStateBits).
Napi::Value GameState(const Napi::CallbackInfo &info) {
    cn_position pos;
    if (!LoadPosition(info.Env(), info[0], &pos)) return info.Env().Undefined();
    return Napi::Number::New(info.Env(), cn_game_state(&pos));
}

// board(pos, out: Uint8Array(>= 64)): out[square] = the board code
// (boundary.h) of its piece, or CN_BOARD_EMPTY (square 0 = a1).
Napi::Value Board(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    if (!LoadPosition(env, info[0], &pos)) return env.Undefined();
    uint8_t *out = ArrayArgOrThrow<uint8_t>(env, info[1], 64, "board must be a Uint8Array of at least 64 entries");
    if (!out) return env.Undefined();
    for (unsigned square = 0; square < 64; square++) {
        int color = 0;
        int type = cn_piece_on(&pos, square, &color);
        out[square] = static_cast<uint8_t>(type < 0 ? CN_BOARD_EMPTY : CN_BOARD_CODE(color, type));
    }
    return env.Undefined();
}

// attackers(pos, square, color, out: Uint8Array(>= 64)): count; out holds
// the squares of color's pieces attacking square, ascending (a1 = 0).
Napi::Value Attackers(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    double square = 0, color = 0;
    if (!LoadPosition(env, info[0], &pos) || !IntegerArg(env, info[1], "square", 0, 63, &square) ||
        !IntegerArg(env, info[2], "color", CN_WHITE, CN_BLACK, &color))
        return env.Undefined();
    uint8_t *out = ArrayArgOrThrow<uint8_t>(env, info[3], 64, "attackers needs a Uint8Array of at least 64 entries");
    if (!out) return env.Undefined();
    uint64_t set = cn_attackers(&pos, static_cast<unsigned>(square), static_cast<int>(color));
    int n = 0;
    for (unsigned sq = 0; sq < 64; sq++)
        if (set >> sq & 1) out[n++] = static_cast<uint8_t>(sq);
    return Napi::Number::New(env, n);
}

} // namespace

Napi::Value PlayMove(const Napi::CallbackInfo &info, Notation notation) {
    Napi::Env env = info.Env();
    cn_position pos;
    cn_move move;
    if (!LoadPosition(env, info[0], &pos) || !ReadMove(env, info[1], &pos, notation, &move)) return env.Undefined();
    cn_undo undo;
    cn_make(&pos, move, &undo);
    if (!StorePosition(env, info[2], &pos, "out must be an ArrayBufferView of positionBytes bytes"))
        return env.Undefined();
    return Napi::Number::New(env, move);
}

void InitPositions(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Method<FenParse>(env, "fenParse"),
        Method<FenParseRelaxed>(env, "fenParseRelaxed"),
        RawMethod(env, "fenParseList", FenParseList),
        Method<WriteFen<cn_fen_write>>(env, "fen"),
        Method<WriteFen<cn_epd_write>>(env, "epd"),
        Method<Turn>(env, "turn"),
        Method<MoveNumber>(env, "moveNumber"),
        Method<InCheck>(env, "inCheck"),
        RawMethod(env, "legalMoves", LegalMoves),
        Method<MoveToUci>(env, "moveToUci"),
        Method<IsLegal>(env, "isLegal"),
        Method<Play>(env, "play"),
        Method<PlayNull>(env, "playNull"),
        Method<Hash>(env, "hash"),
        Method<GameState>(env, "gameState"),
        Method<Board>(env, "board"),
        Method<Attackers>(env, "attackers"),
    });
}

} // namespace binding
