// addon.cc - the Node-API binding: the only file that includes Node headers.
//
// It converts JS values, calls the C engine (chess_native.h) and reports
// failures. It holds no chess logic and no JS references: a position lives in
// a JS typed array of exactly sizeof(cn_position) bytes, every call copies it
// into a local struct, validates it (so a corrupted buffer is an error, never
// a crash), runs the engine and copies the result back only on success.
//
// Only strings, numbers, bigints and typed arrays (or, for fenParseList,
// their ArrayBuffers) cross the boundary (flags are numbers 0/1; records such
// as a perft result are filled into typed arrays and assembled in TypeScript). The exceptions are what Node-API has
// no other way to carry: the thrown Error objects below, perftStart's `done`
// callback and the External handle of a perft job. Failures are thrown as Error objects carrying a `code` string
// ("CN_ERR_FEN" with a `field`, "CN_ERR_ILLEGAL_MOVE", "CN_ERR_BAD_MOVE",
// "CN_ERR_BAD_POSITION", "CN_ERR_INIT") that the TypeScript layer maps onto
// its error classes; wrong argument types are TypeErrors and out-of-range
// depths RangeErrors, so calling the binding directly cannot crash the process.
//
// Context-aware: the module is a Napi::Addon, instantiated once per
// environment (main thread, each worker_thread), with no static JS state.

#include <napi.h>

#include <cstddef>
#include <cstdio>
#include <cstring>

#include "chess_native.h"
#include "line.h"
#include "rules.h"
#include "san.h"
#include "perft_job.h"

static_assert(sizeof(cn_position) % 8 == 0, "cn_position size must be a multiple of 8");
static_assert(sizeof(cn_move) == 2, "cn_move must be 16 bits (the JS side uses Uint16Array)");
static_assert(CN_MAX_MOVES >= 256 && CN_MAX_MOVES <= 65536, "move buffers are sized by the exported maxMoves");

namespace {

constexpr int kMaxDepth = 20;
constexpr uint64_t kMaxSafeInteger = 9007199254740991ULL; // 2^53 - 1

Napi::Value ThrowType(Napi::Env env, const char *message) {
    Napi::TypeError::New(env, message).ThrowAsJavaScriptException();
    return env.Undefined();
}

Napi::Value ThrowCode(Napi::Env env, const char *code, const char *message) {
    Napi::Error error = Napi::Error::New(env, message);
    error.Set("code", Napi::String::New(env, code));
    error.ThrowAsJavaScriptException();
    return env.Undefined();
}

// Any ArrayBufferView (typed array or DataView) of exactly the struct's size.
bool ViewBytes(Napi::Env env, const Napi::Value &value, size_t want, void **data) {
    napi_value raw = value;
    bool is = false;
    size_t length = 0;
    napi_typedarray_type type;
    // Fails (without throwing) for anything but a typed array.
    if (napi_get_typedarray_info(env, raw, &type, &length, data, nullptr, nullptr) == napi_ok) {
        size_t element = 1;
        switch (type) {
        case napi_int16_array: case napi_uint16_array: element = 2; break;
        case napi_int32_array: case napi_uint32_array: case napi_float32_array: element = 4; break;
        case napi_float64_array: case napi_bigint64_array: case napi_biguint64_array: element = 8; break;
        default: element = 1; break;
        }
        return length * element == want && *data != nullptr;
    }
    if (napi_is_dataview(env, raw, &is) == napi_ok && is) {
        napi_value buffer;
        size_t offset = 0;
        if (napi_get_dataview_info(env, raw, &length, data, &buffer, &offset) != napi_ok) return false;
        return length == want && *data != nullptr;
    }
    return false;
}

// The typed array element type of each C type the binding exchanges.
template <typename T> struct ArrayType;
template <> struct ArrayType<uint8_t> { static constexpr napi_typedarray_type value = napi_uint8_array; };
template <> struct ArrayType<uint16_t> { static constexpr napi_typedarray_type value = napi_uint16_array; };
template <> struct ArrayType<uint64_t> { static constexpr napi_typedarray_type value = napi_biguint64_array; };
template <> struct ArrayType<double> { static constexpr napi_typedarray_type value = napi_float64_array; };

// The elements of `value` when it is a T typed array of at least
// min_length elements, else nullptr. One napi_get_typedarray_info call: it
// also fails for values that are not typed arrays, and the Napi:: wrappers
// would make one call per property asked for (a hot path: legalMoves).
template <typename T>
T *ArrayArg(napi_env env, napi_value value, size_t min_length, size_t *length = nullptr) {
    napi_typedarray_type type;
    size_t elements = 0;
    void *data = nullptr;
    if (napi_get_typedarray_info(env, value, &type, &elements, &data, nullptr, nullptr) != napi_ok) return nullptr;
    if (type != ArrayType<T>::value || elements < min_length || data == nullptr) return nullptr;
    if (length) *length = elements;
    return static_cast<T *>(data);
}

template <typename T>
T *ArrayArg(const Napi::CallbackInfo &info, size_t index, size_t min_length, size_t *length = nullptr) {
    return ArrayArg<T>(info.Env(), info[index], min_length, length); // undefined past the end
}

// Copies the JS bytes into *pos and validates them. On failure a JS exception
// is pending and nullptr is returned.
void *LoadPosition(napi_env raw_env, napi_value value, cn_position *pos) {
    Napi::Env env(raw_env);
    void *data = nullptr;
    if (!ViewBytes(env, Napi::Value(env, value), sizeof(cn_position), &data)) {
        ThrowType(env, "position must be an ArrayBufferView of positionBytes bytes");
        return nullptr;
    }
    std::memcpy(pos, data, sizeof(cn_position));
    if (cn_position_validate(pos) != CN_OK) {
        ThrowCode(env, "CN_ERR_BAD_POSITION", "position bytes are not a consistent position");
        return nullptr;
    }
    return data;
}

void *LoadPosition(const Napi::CallbackInfo &info, cn_position *pos) {
    return LoadPosition(info.Env(), info[0], pos); // undefined when missing
}

// Reads a string argument into a small stack buffer (FEN and UCI are short;
// longer input is still rejected by the engine, never truncated silently).
// Every byte the engine's parsers accept is ASCII, so the string is read as
// UTF-16 (for V8's one-byte strings a plain widening copy, cheaper than
// encoding UTF-8) and any unit outside ASCII becomes 0x80, which every
// parser rejects. One call: napi_get_value_string_utf16 itself fails for a
// value that is not a string.
bool ReadString(napi_env env, napi_value value, char *buf, size_t cap, size_t *len, bool *too_long, const char *what) {
    char16_t wide[512];
    if (cap > sizeof wide / sizeof wide[0]) cap = sizeof wide / sizeof wide[0];
    size_t n = 0;
    if (napi_get_value_string_utf16(env, value, wide, cap, &n) != napi_ok) {
        ThrowType(Napi::Env(env), what);
        return false;
    }
    if (n >= cap) n = cap - 1; // napi never copies more than cap - 1 units; the compiler cannot know
    for (size_t i = 0; i < n; i++) buf[i] = wide[i] < 0x80 ? static_cast<char>(wide[i]) : static_cast<char>(0x80);
    buf[n] = '\0';
    *len = n;
    // The documented limits (FEN 251 bytes, SAN 27, UCI 11) leave 4 bytes of
    // the buffer unused, as they did when strings were read as UTF-8; a
    // string that reaches them may also go on past what napi copied.
    *too_long = n + 4 >= cap;
    return true;
}

bool ReadString(const Napi::CallbackInfo &info, size_t index, char *buf, size_t cap, size_t *len,
                bool *too_long, const char *what) {
    return ReadString(info.Env(), info[index], buf, cap, len, too_long, what); // undefined past the end
}

bool ReadDepth(const Napi::CallbackInfo &info, size_t index, int *depth) {
    Napi::Env env = info.Env();
    if (info.Length() <= index || !info[index].IsNumber()) {
        Napi::RangeError::New(env, "depth must be an integer from 0 to 20").ThrowAsJavaScriptException();
        return false;
    }
    double d = info[index].As<Napi::Number>().DoubleValue();
    if (!(d >= 0 && d <= kMaxDepth) || d != static_cast<double>(static_cast<int>(d))) {
        Napi::RangeError::New(env, "depth must be an integer from 0 to 20").ThrowAsJavaScriptException();
        return false;
    }
    *depth = static_cast<int>(d);
    return true;
}

// A count as a number when it is exact in a double, else as a bigint.
Napi::Value Count(Napi::Env env, uint64_t n) {
    if (n <= kMaxSafeInteger) return Napi::Number::New(env, static_cast<double>(n));
    return Napi::BigInt::New(env, n);
}

// --- perftAsync: a perft job on the engine's own threads (perft_job.h) ---
//
// perftStart returns a type-tagged External owning an AsyncPerft. The job
// runs on its own native threads (no libuv pool thread is held). When it
// finishes, its last thread calls `done` through a ThreadSafeFunction, which
// also keeps the event loop alive meanwhile; JS then reads perftResult and
// calls perftFree. An environment cleanup hook cancels and joins a job still
// running when its environment (e.g. a worker thread) shuts down.

const napi_type_tag kAsyncPerftTag = {0x6368657373706572ULL, 0x66746a6f62763031ULL};

struct AsyncPerft {
    cn_perft_job *job = nullptr;
    Napi::ThreadSafeFunction done;    // released by the job's last thread
    napi_env env = nullptr;
    bool cleanup_hook = false;
};

// On the job's last thread, once the result is final.
void AsyncPerftFinished(void *user) {
    AsyncPerft *perft = static_cast<AsyncPerft *>(user);
    perft->done.NonBlockingCall();
    perft->done.Release();
}

void AsyncPerftCleanupHook(void *arg) {
    AsyncPerft *perft = static_cast<AsyncPerft *>(arg);
    perft->cleanup_hook = false; // running now: Node drops it itself
    cn_perft_job_free(perft->job);
    perft->job = nullptr;
}

// The AsyncPerft behind a perftStart handle, or nullptr with a TypeError pending.
AsyncPerft *UnwrapPerft(const Napi::CallbackInfo &info) {
    if (info.Length() < 1 || !info[0].IsExternal() || !info[0].As<Napi::External<AsyncPerft>>().CheckTypeTag(&kAsyncPerftTag)) {
        ThrowType(info.Env(), "expected a handle from perftStart");
        return nullptr;
    }
    return info[0].As<Napi::External<AsyncPerft>>().Data();
}

// Parses the arguments (fen: string, chess960: 0 | 1) into *pos; false
// with an exception pending (a FenError-shaped error for a bad FEN).
bool ParseFenValues(napi_env raw_env, napi_value fen_value, napi_value chess960_value, cn_position *pos) {
    Napi::Env env(raw_env);
    char fen[256];
    size_t len = 0;
    bool too_long = false;
    if (!ReadString(env, fen_value, fen, sizeof fen, &len, &too_long, "FEN must be a string")) return false;
    double chess960 = 0; // napi_get_value_double fails for anything but a number
    if (napi_get_value_double(env, chess960_value, &chess960) != napi_ok) {
        ThrowType(env, "chess960 must be 0 or 1");
        return false;
    }
    cn_fen_error err;
    err.field = CN_FEN_FIELD_COUNT;
    err.message[0] = '\0';
    if (too_long) {
        std::snprintf(err.message, sizeof err.message, "FEN is too long to be valid");
    } else if (cn_fen_parse(pos, fen, len, chess960 == 1 ? 1 : 0, &err) == CN_OK) {
        return true;
    }
    err.message[sizeof err.message - 1] = '\0';
    Napi::Error error = Napi::Error::New(env, err.message);
    error.Set("code", Napi::String::New(env, "CN_ERR_FEN"));
    error.Set("field", Napi::String::New(env, cn_fen_field_name(err.field)));
    error.ThrowAsJavaScriptException();
    return false;
}

// fenParseList(slab: ArrayBuffer, at: number, fen: string, chess960: 0 | 1,
//              moves: ArrayBuffer(>= 2 * maxMoves bytes)): count
// fenParse into slab[at, at + positionBytes), then legalMoves of the new
// position in the same call: a new position's move list is most often the
// first thing asked of it. The constructor's hot path, so it is a plain
// N-API callback (it needs no per-environment state, and node-addon-api's
// wrapping is a measurable share of the call), and it takes ArrayBuffers,
// not views (reading a view costs V8 a chain of type checks).
napi_value FenParseList(napi_env raw_env, napi_callback_info cbinfo) {
    Napi::Env env(raw_env);
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
    void *moves = nullptr;
    size_t moves_length = 0;
    if (napi_get_arraybuffer_info(env, argv[4], &moves, &moves_length) != napi_ok || moves == nullptr ||
        moves_length < CN_MAX_MOVES * sizeof(uint16_t) || reinterpret_cast<uintptr_t>(moves) % alignof(uint16_t) != 0) {
        ThrowType(env, "moves must be an ArrayBuffer of at least 2 * maxMoves bytes");
        return nullptr;
    }
    cn_position pos;
    if (!ParseFenValues(env, argv[2], argv[3], &pos)) return nullptr;
    std::memcpy(static_cast<uint8_t *>(slab) + static_cast<size_t>(at), &pos, sizeof pos);
    napi_value count = nullptr;
    napi_create_int32(env, cn_legal_moves_sorted(&pos, static_cast<uint16_t *>(moves)), &count);
    return count;
}

// legalMoves(pos, out: Uint16Array(>= maxMoves)): count, the moves sorted by
// their UCI strings. A plain N-API callback, like fenParseList: a held
// position's move list is the other hot path.
napi_value LegalMoves(napi_env raw_env, napi_callback_info cbinfo) {
    Napi::Env env(raw_env);
    size_t argc = 2;
    napi_value argv[2];
    if (napi_get_cb_info(env, cbinfo, &argc, argv, nullptr, nullptr) != napi_ok) return nullptr;
    cn_position pos;
    if (!LoadPosition(env, argv[0], &pos)) return nullptr; // missing arguments read as undefined
    uint16_t *out = ArrayArg<uint16_t>(env, argv[1], CN_MAX_MOVES);
    if (!out) {
        ThrowType(env, "moves must be a Uint16Array of at least maxMoves entries");
        return nullptr;
    }
    napi_value count = nullptr;
    napi_create_int32(env, cn_legal_moves_sorted(&pos, out), &count);
    return count;
}

// A JS function for a plain N-API callback (Napi::Function::New would wrap it).
Napi::Value RawFunction(Napi::Env env, const char *name, napi_callback callback) {
    napi_value fn = nullptr;
    NAPI_THROW_IF_FAILED(env, napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &fn), Napi::Value());
    return Napi::Value(env, fn);
}

class ChessNative : public Napi::Addon<ChessNative> {
  public:
    ChessNative(Napi::Env env, Napi::Object exports) {
        if (cn_init() != CN_OK) {
            ThrowCode(env, "CN_ERR_INIT", cn_init_message());
            return;
        }
        DefineAddon(exports, {
            InstanceValue("positionBytes", Napi::Number::New(env, sizeof(cn_position)), napi_enumerable),
            InstanceValue("maxMoves", Napi::Number::New(env, CN_MAX_MOVES), napi_enumerable),
            InstanceValue("version", Napi::String::New(env, CN_VERSION), napi_enumerable),
            InstanceValue("sliders", Napi::String::New(env, cn_slider_path()), napi_enumerable),
            InstanceValue("impl", Napi::String::New(env, cn_impl_name()), napi_enumerable),
            InstanceValue("initMs", Napi::Number::New(env, static_cast<double>(cn_init_nanoseconds()) / 1e6),
                          napi_enumerable),
            InstanceValue("napi", Napi::Number::New(env, NAPI_VERSION), napi_enumerable),
            InstanceMethod("fenParse", &ChessNative::FenParse, napi_enumerable),
            InstanceValue("fenParseList", RawFunction(env, "fenParseList", FenParseList), napi_enumerable),
            InstanceMethod("fen", &ChessNative::Fen, napi_enumerable),
            InstanceMethod("turn", &ChessNative::Turn, napi_enumerable),
            InstanceMethod("inCheck", &ChessNative::InCheck, napi_enumerable),
            InstanceValue("legalMoves", RawFunction(env, "legalMoves", LegalMoves), napi_enumerable),
            InstanceMethod("moveToUci", &ChessNative::MoveToUci, napi_enumerable),
            InstanceMethod("isLegal", &ChessNative::IsLegal, napi_enumerable),
            InstanceMethod("play", &ChessNative::Play, napi_enumerable),
            InstanceMethod("perft", &ChessNative::Perft, napi_enumerable),
            InstanceMethod("divide", &ChessNative::Divide, napi_enumerable),
            InstanceValue("keyOffset", Napi::Number::New(env, offsetof(cn_position, key)), napi_enumerable),
            InstanceMethod("hash", &ChessNative::Hash, napi_enumerable),
            InstanceMethod("gameState", &ChessNative::GameState, napi_enumerable),
            InstanceMethod("san", &ChessNative::San, napi_enumerable),
            InstanceMethod("legalMovesSan", &ChessNative::LegalMovesSan, napi_enumerable),
            InstanceMethod("parseSan", &ChessNative::ParseSan, napi_enumerable),
            InstanceMethod("playSan", &ChessNative::PlaySan, napi_enumerable),
            InstanceMethod("playLine", &ChessNative::PlayLine, napi_enumerable),
            InstanceMethod("sanLine", &ChessNative::SanLine, napi_enumerable),
            InstanceMethod("board", &ChessNative::Board, napi_enumerable),
            InstanceMethod("attackers", &ChessNative::Attackers, napi_enumerable),
            InstanceValue("perftMaxThreads", Napi::Number::New(env, CN_PERFT_JOB_MAX_THREADS), napi_enumerable),
            InstanceMethod("perftStart", &ChessNative::PerftStart, napi_enumerable),
            InstanceMethod("perftProgress", &ChessNative::PerftProgress, napi_enumerable),
            InstanceMethod("perftCancel", &ChessNative::PerftCancel, napi_enumerable),
            InstanceMethod("perftResult", &ChessNative::PerftResult, napi_enumerable),
            InstanceMethod("perftFree", &ChessNative::PerftFree, napi_enumerable),
        });
    }

  private:
    // fenParse(out: view, fen: string, chess960: 0 | 1): undefined
    // Throws {code: "CN_ERR_FEN", field, message}; `out` is written only on success.
    Napi::Value FenParse(const Napi::CallbackInfo &info) {
        cn_position pos;
        void *data = ParseFenArguments(info, &pos);
        if (!data) return info.Env().Undefined();
        std::memcpy(data, &pos, sizeof pos);
        return info.Env().Undefined();
    }

    // The arguments (out, fen, chess960) of fenParse: the parsed position in
    // *pos and the bytes of `out`, or nullptr with an exception pending.
    static void *ParseFenArguments(const Napi::CallbackInfo &info, cn_position *pos) {
        Napi::Env env = info.Env();
        void *data = nullptr;
        if (info.Length() < 1 || !ViewBytes(env, info[0], sizeof(cn_position), &data)) {
            ThrowType(env, "position must be an ArrayBufferView of positionBytes bytes");
            return nullptr;
        }
        return ParseFenValues(env, info[1], info[2], pos) ? data : nullptr; // undefined past the end
    }

    // fen(pos): string
    Napi::Value Fen(const Napi::CallbackInfo &info) {
        cn_position pos;
        if (!LoadPosition(info, &pos)) return info.Env().Undefined();
        char buf[128];
        size_t n = cn_fen_write(&pos, buf, sizeof buf);
        return Napi::String::New(info.Env(), buf, n);
    }

    // turn(pos): 0 white, 1 black
    Napi::Value Turn(const Napi::CallbackInfo &info) {
        cn_position pos;
        if (!LoadPosition(info, &pos)) return info.Env().Undefined();
        return Napi::Number::New(info.Env(), pos.side);
    }

    // inCheck(pos): 1 when the side to move is in check, else 0
    Napi::Value InCheck(const Napi::CallbackInfo &info) {
        cn_position pos;
        if (!LoadPosition(info, &pos)) return info.Env().Undefined();
        return Napi::Number::New(info.Env(), cn_in_check(&pos) != 0 ? 1 : 0);
    }

    // moveToUci(pos, move): string. Only for moves returned by legalMoves
    // for a position of the same mode; anything else is a TypeError.
    Napi::Value MoveToUci(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        if (info.Length() < 2 || !info[1].IsNumber()) return ThrowType(env, "move must be a number");
        uint32_t value = info[1].As<Napi::Number>().Uint32Value();
        if (value > 0xFFFF) return ThrowType(env, "move must be a 16-bit move");
        // The engine's UCI writer expects a legal move: check it is one.
        cn_move moves[CN_MAX_MOVES];
        int n = cn_legal_moves(&pos, moves);
        bool found = false;
        for (int i = 0; i < n; i++) found = found || moves[i] == value;
        if (!found) return ThrowType(env, "move is not legal in this position");
        char uci[6];
        int len = cn_move_to_uci(&pos, static_cast<cn_move>(value), uci);
        return Napi::String::New(env, uci, static_cast<size_t>(len));
    }

    // isLegal(pos, uci): 1 when legal, else 0 (also for any malformed string)
    Napi::Value IsLegal(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        char uci[16];
        size_t len = 0;
        bool too_long = false;
        if (!ReadString(info, 1, uci, sizeof uci, &len, &too_long, "move must be a string")) return env.Undefined();
        if (too_long) return Napi::Number::New(env, 0);
        cn_move move;
        return Napi::Number::New(env, cn_move_from_uci(&pos, uci, len, &move) == CN_OK ? 1 : 0);
    }

    // play(pos, uci): the move played (16-bit). Writes pos only on success;
    // throws {code: "CN_ERR_BAD_MOVE" | "CN_ERR_ILLEGAL_MOVE"} otherwise.
    Napi::Value Play(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        void *data = LoadPosition(info, &pos);
        if (!data) return env.Undefined();
        char uci[16];
        size_t len = 0;
        bool too_long = false;
        if (!ReadString(info, 1, uci, sizeof uci, &len, &too_long, "move must be a string")) return env.Undefined();
        if (too_long) return ThrowCode(env, "CN_ERR_BAD_MOVE", "not a UCI move");
        cn_move move;
        switch (cn_move_from_uci(&pos, uci, len, &move)) {
        case CN_OK: break;
        case CN_ERR_ILLEGAL_MOVE: return ThrowCode(env, "CN_ERR_ILLEGAL_MOVE", "illegal move");
        default: return ThrowCode(env, "CN_ERR_BAD_MOVE", "not a UCI move");
        }
        cn_undo undo;
        cn_make(&pos, move, &undo);
        std::memcpy(data, &pos, sizeof pos);
        return Napi::Number::New(env, move);
    }

    // hash(pos): bigint, the Polyglot key the engine keeps up to date in make.
    Napi::Value Hash(const Napi::CallbackInfo &info) {
        cn_position pos;
        if (!LoadPosition(info, &pos)) return info.Env().Undefined();
        return Napi::BigInt::New(info.Env(), pos.key);
    }

    // gameState(pos): CN_GAME_* bits (1 check, 2 no legal move, 4 insufficient
    // material, 8 halfmove clock >= 100).
    Napi::Value GameState(const Napi::CallbackInfo &info) {
        cn_position pos;
        if (!LoadPosition(info, &pos)) return info.Env().Undefined();
        return Napi::Number::New(info.Env(), cn_game_state(&pos));
    }

    // san(pos, uci): the SAN of a legal UCI move; throws like play.
    Napi::Value San(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        char uci[16];
        size_t len = 0;
        bool too_long = false;
        if (!ReadString(info, 1, uci, sizeof uci, &len, &too_long, "move must be a string")) return env.Undefined();
        if (too_long) return ThrowCode(env, "CN_ERR_BAD_MOVE", "not a UCI move");
        cn_move move;
        switch (cn_move_from_uci(&pos, uci, len, &move)) {
        case CN_OK: break;
        case CN_ERR_ILLEGAL_MOVE: return ThrowCode(env, "CN_ERR_ILLEGAL_MOVE", "illegal move");
        default: return ThrowCode(env, "CN_ERR_BAD_MOVE", "not a UCI move");
        }
        char san[CN_SAN_MAX];
        int n = cn_move_to_san(&pos, move, san);
        return Napi::String::New(env, san, static_cast<size_t>(n));
    }

    // legalMovesSan(pos, out: Uint16Array(>= maxMoves)): string. The SAN of
    // every legal move, space separated, in the order legalMoves gives (by
    // UCI string); out receives the moves in that order.
    Napi::Value LegalMovesSan(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        uint16_t *out = ArrayArg<uint16_t>(info, 1, CN_MAX_MOVES);
        if (!out) return ThrowType(env, "moves must be a Uint16Array of at least maxMoves entries");
        char sans[CN_MAX_MOVES][CN_SAN_MAX];
        char joined[CN_MAX_MOVES * CN_SAN_MAX];
        int n = cn_legal_moves_sorted(&pos, out);
        cn_moves_to_san(&pos, out, n, sans);
        size_t length = 0;
        for (int i = 0; i < n; i++) {
            if (i) joined[length++] = ' ';
            size_t k = std::strlen(sans[i]);
            std::memcpy(joined + length, sans[i], k);
            length += k;
        }
        napi_value text;
        if (napi_create_string_latin1(env, joined, length, &text) != napi_ok) return env.Undefined();
        return Napi::Value(env, text);
    }

    // Reads a SAN argument and finds its move; false with an exception pending.
    bool FindSan(const Napi::CallbackInfo &info, const cn_position *pos, cn_move *move) {
        Napi::Env env = info.Env();
        char san[32];
        size_t len = 0;
        bool too_long = false;
        if (!ReadString(info, 1, san, sizeof san, &len, &too_long, "move must be a string")) return false;
        if (too_long) {
            ThrowCode(env, "CN_ERR_BAD_MOVE", "not a SAN move");
            return false;
        }
        switch (cn_move_from_san(pos, san, len, move)) {
        case CN_OK: return true;
        case CN_ERR_ILLEGAL_MOVE: ThrowCode(env, "CN_ERR_ILLEGAL_MOVE", "illegal or ambiguous move"); return false;
        default: ThrowCode(env, "CN_ERR_BAD_MOVE", "not a SAN move"); return false;
        }
    }

    // parseSan(pos, san): the move (16-bit) a SAN string names; throws
    // {code: "CN_ERR_BAD_MOVE" | "CN_ERR_ILLEGAL_MOVE"} (illegal or ambiguous).
    Napi::Value ParseSan(const Napi::CallbackInfo &info) {
        cn_position pos;
        if (!LoadPosition(info, &pos)) return info.Env().Undefined();
        cn_move move;
        if (!FindSan(info, &pos, &move)) return info.Env().Undefined();
        return Napi::Number::New(info.Env(), move);
    }

    // playSan(pos, san): as parseSan, then plays the move; pos is written only on success.
    Napi::Value PlaySan(const Napi::CallbackInfo &info) {
        cn_position pos;
        void *data = LoadPosition(info, &pos);
        if (!data) return info.Env().Undefined();
        cn_move move;
        if (!FindSan(info, &pos, &move)) return info.Env().Undefined();
        cn_undo undo;
        cn_make(&pos, move, &undo);
        std::memcpy(data, &pos, sizeof pos);
        return Napi::Number::New(info.Env(), move);
    }

    // --- lines: many moves per call (line.h) ---

    // The Uint8Array at info[index], or false with a TypeError pending.
    static bool ByteArg(const Napi::CallbackInfo &info, size_t index, uint8_t **data, size_t *length, const char *what) {
        *data = ArrayArg<uint8_t>(info, index, 0, length);
        if (*data == nullptr) {
            ThrowType(info.Env(), what);
            return false;
        }
        return true;
    }

    // Reads (text: Uint8Array, offset, format) at info[1..3] into a reader;
    // false with an exception pending.
    static bool ReadLine(const Napi::CallbackInfo &info, cn_line_reader *reader) {
        Napi::Env env = info.Env();
        uint8_t *text = nullptr;
        size_t length = 0;
        if (!ByteArg(info, 1, &text, &length, "line text must be a Uint8Array")) return false;
        if (info.Length() < 4 || !info[2].IsNumber() || !info[3].IsNumber()) {
            ThrowType(env, "line offset and format must be numbers");
            return false;
        }
        double offset = info[2].As<Napi::Number>().DoubleValue();
        double format = info[3].As<Napi::Number>().DoubleValue();
        if (!(offset >= 0 && offset <= static_cast<double>(length)) || offset != static_cast<double>(static_cast<size_t>(offset)) ||
            !(format == 0 || format == 1 || format == 2 || format == 3)) {
            Napi::RangeError::New(env, "line offset must be 0..text length and format 0..3").ThrowAsJavaScriptException();
            return false;
        }
        std::memset(reader, 0, sizeof *reader);
        reader->text = reinterpret_cast<const char *>(text);
        reader->len = length;
        reader->offset = static_cast<size_t>(offset);
        reader->format = static_cast<unsigned>(format);
        return true;
    }

    // state[0..3] = status (0 ok, 2 illegal or ambiguous, 3 malformed), the
    // offset to continue from, and the failing move's start and length.
    static bool WriteLineState(const Napi::CallbackInfo &info, size_t index, const cn_line_reader &reader, cn_status status) {
        double *state = ArrayArg<double>(info, index, 4);
        if (!state) {
            ThrowType(info.Env(), "line state must be a Float64Array of at least 4 entries");
            return false;
        }
        state[0] = static_cast<double>(status);
        state[1] = static_cast<double>(reader.offset);
        state[2] = static_cast<double>(status == CN_OK ? 0 : reader.bad_start);
        state[3] = static_cast<double>(status == CN_OK ? 0 : reader.bad_len);
        return true;
    }

    // playLine(pos, text: Uint8Array, offset, format, positions: Uint8Array,
    //          moves: Uint16Array, ucis: Uint8Array, state: Float64Array(4)): count.
    // Plays the moves of text from offset (format: 0 UCI, 1 SAN, | 2 for a
    // '\n'-terminated list), at most as many as the buffers hold
    // (positions / positionBytes, moves.length, ucis / 6): positions receives
    // the position after each move, moves the moves, ucis their UCI (6 bytes
    // each, NUL padded). pos itself is never written. Stops at the first bad
    // move; state says why it stopped (see WriteLineState).
    Napi::Value PlayLine(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        cn_line_reader reader;
        if (!ReadLine(info, &reader)) return env.Undefined();
        uint8_t *positions = nullptr, *ucis = nullptr;
        size_t positions_length = 0, ucis_length = 0;
        if (!ByteArg(info, 4, &positions, &positions_length, "positions must be a Uint8Array")) return env.Undefined();
        size_t moves_length = 0;
        uint16_t *moves = ArrayArg<uint16_t>(info, 5, 0, &moves_length);
        if (!moves) return ThrowType(env, "moves must be a Uint16Array");
        if (!ByteArg(info, 6, &ucis, &ucis_length, "ucis must be a Uint8Array")) return env.Undefined();
        size_t room = positions_length / sizeof(cn_position);
        if (moves_length < room) room = moves_length;
        if (ucis_length / 6 < room) room = ucis_length / 6;
        if (room == 0 || room > 65536) {
            Napi::RangeError::New(env, "line buffers must have room for 1 to 65536 moves").ThrowAsJavaScriptException();
            return env.Undefined();
        }
        cn_status status = CN_OK;
        int n = cn_line_play(&pos, &reader, static_cast<int>(room), positions, moves,
                             reinterpret_cast<char (*)[6]>(ucis), nullptr, &status);
        if (!WriteLineState(info, 7, reader, status)) return env.Undefined();
        return Napi::Number::New(env, n);
    }

    // sanLine(pos, text: Uint8Array, offset, format (UCI: 0 or 2),
    //         end: Uint8Array(positionBytes), state: Float64Array(4)): string.
    // The SAN of up to 256 moves of a UCI line, space separated; end receives
    // the position after the last of them (pos is never written). Stops at
    // the first bad move, as playLine.
    Napi::Value SanLine(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        constexpr int kChunk = 256;
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        cn_line_reader reader;
        if (!ReadLine(info, &reader)) return env.Undefined();
        if ((reader.format & 1u) != CN_LINE_UCI) return ThrowType(env, "sanLine reads UCI moves");
        uint8_t *end = nullptr;
        size_t end_length = 0;
        if (!ByteArg(info, 4, &end, &end_length, "end must be a Uint8Array")) return env.Undefined();
        if (end_length != sizeof(cn_position)) return ThrowType(env, "end must be positionBytes long");
        char sans[kChunk][CN_SAN_MAX];
        char joined[kChunk * CN_SAN_MAX];
        cn_status status = CN_OK;
        int n = cn_line_play(&pos, &reader, kChunk, nullptr, nullptr, nullptr, sans, &status);
        if (!WriteLineState(info, 5, reader, status)) return env.Undefined();
        size_t length = 0;
        for (int i = 0; i < n; i++) {
            if (i) joined[length++] = ' ';
            size_t k = std::strlen(sans[i]);
            std::memcpy(joined + length, sans[i], k);
            length += k;
        }
        std::memcpy(end, &pos, sizeof pos);
        napi_value out;
        if (napi_create_string_latin1(env, joined, length, &out) != napi_ok) return env.Undefined();
        return Napi::Value(env, out);
    }

    // board(pos, out: Uint8Array(>= 64)): out[square] = 0 for empty, else
    // 1 + color * 8 + type (square 0 = a1).
    Napi::Value Board(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        uint8_t *out = ArrayArg<uint8_t>(info, 1, 64);
        if (!out) return ThrowType(env, "board must be a Uint8Array of at least 64 entries");
        for (unsigned square = 0; square < 64; square++) {
            int color = 0;
            int type = cn_piece_on(&pos, square, &color);
            out[square] = type < 0 ? 0 : static_cast<uint8_t>(1 + color * 8 + type);
        }
        return env.Undefined();
    }

    // attackers(pos, square, color, out: Uint8Array(>= 64)): count; out holds
    // the squares of color's pieces attacking square, ascending (a1 = 0).
    Napi::Value Attackers(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        uint8_t *out = ArrayArg<uint8_t>(info, 3, 64);
        if (info.Length() < 4 || !info[1].IsNumber() || !info[2].IsNumber() || !out)
            return ThrowType(env, "attackers(pos, square: number, color: number, out: Uint8Array(64))");
        double square = info[1].As<Napi::Number>().DoubleValue();
        double color = info[2].As<Napi::Number>().DoubleValue();
        if (!(square >= 0 && square < 64) || square != static_cast<double>(static_cast<int>(square)) ||
            !(color == 0 || color == 1)) {
            Napi::RangeError::New(env, "square must be 0..63 and color 0 or 1").ThrowAsJavaScriptException();
            return env.Undefined();
        }
        uint64_t set = cn_attackers(&pos, static_cast<unsigned>(square), static_cast<int>(color));
        int n = 0;
        for (unsigned sq = 0; sq < 64; sq++)
            if (set >> sq & 1) out[n++] = static_cast<uint8_t>(sq);
        return Napi::Number::New(env, n);
    }

    // perft(pos, depth): number when <= 2^53 - 1, else bigint (exact either way).
    Napi::Value Perft(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        int depth = 0;
        if (!ReadDepth(info, 1, &depth)) return env.Undefined();
        return Count(env, cn_perft(&pos, depth));
    }

    // divide(pos, depth, moves: Uint16Array(>= maxMoves), counts: BigUint64Array(>= maxMoves)):
    // number of root moves; moves/counts in generation order. depth >= 1.
    Napi::Value Divide(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        int depth = 0;
        if (!ReadDepth(info, 1, &depth)) return env.Undefined();
        if (depth < 1) {
            Napi::RangeError::New(env, "divide depth must be at least 1").ThrowAsJavaScriptException();
            return env.Undefined();
        }
        uint16_t *moves_out = ArrayArg<uint16_t>(info, 2, CN_MAX_MOVES);
        uint64_t *counts_out = ArrayArg<uint64_t>(info, 3, CN_MAX_MOVES);
        if (!moves_out || !counts_out)
            return ThrowType(env, "divide needs a Uint16Array and a BigUint64Array of at least maxMoves entries");
        cn_move moves[CN_MAX_MOVES];
        uint64_t counts[CN_MAX_MOVES];
        int n = cn_divide(&pos, depth, moves, counts);
        std::memcpy(moves_out, moves, static_cast<size_t>(n) * sizeof(cn_move));
        std::memcpy(counts_out, counts, static_cast<size_t>(n) * sizeof(uint64_t));
        return Napi::Number::New(env, n);
    }

    // perftStart(pos, depth, threads, hashBytes, done: () => void): handle.
    // Starts at once; `done` is called (with no arguments) on this thread
    // once the job has finished or been cancelled.
    Napi::Value PerftStart(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        cn_position pos;
        if (!LoadPosition(info, &pos)) return env.Undefined();
        int depth = 0;
        if (!ReadDepth(info, 1, &depth)) return env.Undefined();
        if (info.Length() < 5 || !info[2].IsNumber() || !info[3].IsNumber() || !info[4].IsFunction())
            return ThrowType(env, "perftStart(pos, depth, threads: number, hashBytes: number, done: function)");
        double threads = info[2].As<Napi::Number>().DoubleValue();
        double hash_bytes = info[3].As<Napi::Number>().DoubleValue();
        if (!(threads >= 1 && threads <= CN_PERFT_JOB_MAX_THREADS) || threads != static_cast<double>(static_cast<int>(threads))) {
            Napi::RangeError::New(env, "threads must be an integer from 1 to 256").ThrowAsJavaScriptException();
            return env.Undefined();
        }
        if (!(hash_bytes >= 0 && hash_bytes <= static_cast<double>(SIZE_MAX / 2) && hash_bytes <= 9007199254740991.0)) {
            Napi::RangeError::New(env, "hashBytes out of range").ThrowAsJavaScriptException();
            return env.Undefined();
        }
        AsyncPerft *perft = new AsyncPerft();
        perft->env = env;
        perft->done = Napi::ThreadSafeFunction::New(env, info[4].As<Napi::Function>(), "chess-native perft", 0, 1);
        cn_perft_job_options options = {depth, static_cast<int>(threads), static_cast<size_t>(hash_bytes),
                                         AsyncPerftFinished, perft, 0, 0};
        const cn_status status = cn_perft_job_start(&pos, &options, &perft->job);
        if (status != CN_OK) {
            perft->done.Release();
            delete perft;
            if (status == CN_ERR_NO_MEMORY) {
                Napi::RangeError::New(env, "cannot allocate the perft hash table").ThrowAsJavaScriptException();
                return env.Undefined();
            }
            return ThrowCode(env, "CN_ERR_INIT", "cannot start the perft threads");
        }
        napi_add_env_cleanup_hook(env, AsyncPerftCleanupHook, perft);
        perft->cleanup_hook = true;
        Napi::External<AsyncPerft> handle = Napi::External<AsyncPerft>::New(env, perft, [](Napi::Env, AsyncPerft *p) {
            // Normally perftFree has run; if not (the handle was dropped), stop it now.
            if (p->cleanup_hook) {
                napi_remove_env_cleanup_hook(p->env, AsyncPerftCleanupHook, p);
                p->cleanup_hook = false;
            }
            cn_perft_job_free(p->job);
            delete p;
        });
        handle.TypeTag(&kAsyncPerftTag);
        return handle;
    }

    // perftProgress(handle, out: Float64Array(>= 3)): nodes so far (bigint);
    // out = [rootMovesDone, rootMovesTotal, elapsedMs].
    Napi::Value PerftProgress(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        AsyncPerft *perft = UnwrapPerft(info);
        if (!perft) return env.Undefined();
        double *out = ArrayArg<double>(info, 1, 3);
        if (!out) return ThrowType(env, "perftProgress needs a Float64Array of at least 3 entries");
        cn_perft_job_progress progress = {0, 0, 0, 0};
        if (perft->job) cn_perft_job_progress_get(perft->job, &progress);
        out[0] = static_cast<double>(progress.root_moves_done);
        out[1] = static_cast<double>(progress.root_moves_total);
        out[2] = static_cast<double>(progress.elapsed_ns) / 1e6;
        return Napi::BigInt::New(env, progress.nodes);
    }

    // perftCancel(handle): asks the threads to stop; `done` follows shortly.
    Napi::Value PerftCancel(const Napi::CallbackInfo &info) {
        AsyncPerft *perft = UnwrapPerft(info);
        if (perft && perft->job) cn_perft_job_cancel(perft->job);
        return info.Env().Undefined();
    }

    // perftResult(handle, moves: Uint16Array(>= maxMoves), counts:
    // BigUint64Array(>= maxMoves), out: Float64Array(>= 2)): -1 while running
    // or after a cancel, else the node count (bigint), with the root moves
    // (16-bit, generation order) and their counts in moves / counts and
    // out = [seconds, number of root moves].
    Napi::Value PerftResult(const Napi::CallbackInfo &info) {
        Napi::Env env = info.Env();
        AsyncPerft *perft = UnwrapPerft(info);
        if (!perft) return env.Undefined();
        uint16_t *moves_out = ArrayArg<uint16_t>(info, 1, CN_MAX_MOVES);
        uint64_t *counts_out = ArrayArg<uint64_t>(info, 2, CN_MAX_MOVES);
        double *out = ArrayArg<double>(info, 3, 2);
        if (!moves_out || !counts_out || !out)
            return ThrowType(env, "perftResult needs a Uint16Array and a BigUint64Array of maxMoves entries and a Float64Array(2)");
        if (!perft->job || cn_perft_job_state_get(perft->job) != CN_PERFT_JOB_DONE) return Napi::Number::New(env, -1);
        cn_perft_job_progress progress;
        cn_perft_job_progress_get(perft->job, &progress);
        const cn_move *moves = nullptr;
        const uint64_t *counts = nullptr;
        int n = cn_perft_job_root_moves(perft->job, &moves, &counts);
        if (n < 0) n = 0;
        if (n > CN_MAX_MOVES) n = CN_MAX_MOVES;
        std::memcpy(moves_out, moves, static_cast<size_t>(n) * sizeof(cn_move));
        std::memcpy(counts_out, counts, static_cast<size_t>(n) * sizeof(uint64_t));
        out[0] = static_cast<double>(progress.elapsed_ns) / 1e9;
        out[1] = n;
        return Napi::BigInt::New(env, cn_perft_job_nodes(perft->job));
    }

    // perftFree(handle): cancels if running, joins the threads, frees the job.
    Napi::Value PerftFree(const Napi::CallbackInfo &info) {
        AsyncPerft *perft = UnwrapPerft(info);
        if (perft && perft->job) {
            if (perft->cleanup_hook) {
                napi_remove_env_cleanup_hook(perft->env, AsyncPerftCleanupHook, perft);
                perft->cleanup_hook = false;
            }
            cn_perft_job_free(perft->job);
            perft->job = nullptr;
        }
        return info.Env().Undefined();
    }
};

} // namespace

NODE_API_ADDON(ChessNative)
