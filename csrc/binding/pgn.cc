// pgn.cc - reading PGN (pgn.h): a batch of games comes back as one
// Buffer holding the records (int32, four per record) followed by the
// string table, so JS gets two views and no object per token.
//
// state (Float64Array(9)): [0] final, [1] mode, [2] line, [3] column of
// text[0], [4] max games (0: all), [8] threads (1..CN_PGN_MAX_THREADS);
// written back: [2] line and [3] column at text[consumed], [5] consumed
// bytes, [6] games, [7] record bytes.
#include "binding.h"

#include <cstdlib>
#include <cstring>

#include "args.h"
#include "pgn.h"

namespace binding {

namespace {

constexpr size_t kStateLength = 9;

bool ReadInput(napi_env env, const Napi::CallbackInfo &info, cn_pgn_input *in, int *threads, double **state) {
    size_t length = 0;
    uint8_t *text = ArrayArgOrThrow<uint8_t>(env, info[0], 0, "PGN text must be a Uint8Array", &length);
    if (!text) return false;
    *state = ArrayArgOrThrow<double>(env, info[1], kStateLength, "PGN state must be a Float64Array(9)");
    if (!*state) return false;
    const double *s = *state;
    if (s[1] < CN_PGN_MODE_TREE || s[1] > CN_PGN_MODE_HEADERS || s[2] < 1 || s[2] > 4294967295.0 || s[3] < 0 ||
        s[3] > 4294967295.0 || s[4] < 0 || !(s[8] >= 1 && s[8] <= CN_PGN_MAX_THREADS)) {
        ThrowRange(env, "PGN state out of range");
        return false;
    }
    std::memset(in, 0, sizeof *in);
    in->text = reinterpret_cast<const char *>(text);
    in->length = length;
    in->final = s[0] != 0;
    in->mode = static_cast<cn_pgn_mode>(static_cast<int>(s[1]));
    in->line = static_cast<uint32_t>(s[2]);
    in->column = static_cast<uint32_t>(s[3]);
    in->max_games = static_cast<size_t>(s[4]);
    *threads = static_cast<int>(s[8]);
    return true;
}

void WriteState(double *state, const cn_pgn_input &in, const cn_pgn_output &out) {
    state[2] = in.consumed_line;
    state[3] = in.consumed_column;
    state[5] = static_cast<double>(in.consumed);
    state[6] = static_cast<double>(out.games);
    state[7] = static_cast<double>(out.record_count * CN_PGN_RECORD_INTS * sizeof(int32_t));
}

// A read's records followed by its strings, in one malloc'd block that JS
// gets without a copy where external buffers are allowed (not in
// Electron's V8 sandbox: there it is copied). The async read joins them on
// its worker thread, so the JS thread only wraps the block.
struct Joined {
    uint8_t *data = nullptr;
    size_t length = 0;
};

bool Join(const cn_pgn_output &out, Joined *joined) {
    const size_t record_bytes = out.record_count * CN_PGN_RECORD_INTS * sizeof(int32_t);
    joined->length = record_bytes + out.string_length;
    joined->data = static_cast<uint8_t *>(std::malloc(joined->length ? joined->length : 1));
    if (!joined->data) return false;
    if (record_bytes) std::memcpy(joined->data, out.records, record_bytes);
    if (out.string_length) std::memcpy(joined->data + record_bytes, out.strings, out.string_length);
    return true;
}

// Takes the block: it is freed when the buffer is collected (or at once if copied).
Napi::Value Result(Napi::Env env, Joined *joined) {
    uint8_t *data = joined->data;
    joined->data = nullptr;
    return Napi::Buffer<uint8_t>::NewOrCopy(env, data, joined->length,
                                            [](Napi::Env, uint8_t *block) { std::free(block); });
}

// pgnRead(text: Uint8Array, state): Uint8Array. Reads on the calling thread.
Napi::Value PgnRead(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_pgn_input in;
    int threads = 1;
    double *state = nullptr;
    if (!ReadInput(env, info, &in, &threads, &state)) return env.Undefined();
    cn_pgn_output out = {};
    Joined joined;
    cn_status status = cn_pgn_read_parallel(&in, &out, threads, CN_PGN_MIN_BLOCK_BYTES);
    if (status == CN_OK && !Join(out, &joined)) status = CN_ERR_NO_MEMORY;
    if (status == CN_OK) WriteState(state, in, out);
    cn_pgn_output_free(&out);
    if (status != CN_OK) {
        ThrowStatus(env, status, "out of memory reading PGN");
        return env.Undefined();
    }
    return Result(env, &joined);
}

// The same read on a worker thread; the text and state stay referenced
// until it is done.
class PgnWorker : public Napi::AsyncWorker {
  public:
    PgnWorker(Napi::Function callback, const cn_pgn_input &in, int threads, Napi::Object text, Napi::Object state,
              double *state_data)
        : Napi::AsyncWorker(callback, "chess-native pgn"), in_(in), threads_(threads), state_data_(state_data) {
        text_ = Napi::Persistent(text);
        state_ = Napi::Persistent(state);
    }
    ~PgnWorker() override {
        cn_pgn_output_free(&out_);
        std::free(joined_.data);
    }
    void Execute() override {
        if (cn_pgn_read_parallel(&in_, &out_, threads_, CN_PGN_MIN_BLOCK_BYTES) != CN_OK || !Join(out_, &joined_))
            SetError("out of memory reading PGN");
    }
    void OnOK() override {
        WriteState(state_data_, in_, out_);
        cn_pgn_output_free(&out_);
        Callback().Call({Env().Null(), Result(Env(), &joined_)});
    }

  private:
    cn_pgn_input in_;
    int threads_;
    cn_pgn_output out_ = {};
    Joined joined_;
    double *state_data_;
    Napi::ObjectReference text_, state_;
};

// pgnReadAsync(text, state, callback(err, bytes)).
Napi::Value PgnReadAsync(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_pgn_input in;
    int threads = 1;
    double *state = nullptr;
    if (!ReadInput(env, info, &in, &threads, &state)) return env.Undefined();
    if (!info[2].IsFunction()) {
        ThrowType(env, "callback must be a function");
        return env.Undefined();
    }
    auto *worker = new PgnWorker(info[2].As<Napi::Function>(), in, threads, info[0].As<Napi::Object>(),
                                 info[1].As<Napi::Object>(), state);
    worker->Queue();
    return env.Undefined();
}

Napi::Object PgnConstants(Napi::Env env) {
    Napi::Object c = Napi::Object::New(env);
    c.Set("maxDepth", CN_PGN_MAX_DEPTH);
    c.Set("maxMoveToken", CN_PGN_MAX_MOVE_TOKEN);
    c.Set("maxThreads", CN_PGN_MAX_THREADS);
    c.Set("recordInts", CN_PGN_RECORD_INTS);
    c.Set("stateLength", static_cast<double>(kStateLength));
    const char *const ops[] = {"",    "game",     "tag",    "start", "move",  "comment",
                               "nag", "varStart", "varEnd", "error", "where", "end"};
    Napi::Object op = Napi::Object::New(env);
    for (int i = CN_PGN_OP_GAME; i <= CN_PGN_OP_END; i++) op.Set(ops[i], i);
    c.Set("op", op);
    Napi::Object mode = Napi::Object::New(env);
    mode.Set("tree", static_cast<int>(CN_PGN_MODE_TREE));
    mode.Set("mainline", static_cast<int>(CN_PGN_MODE_MAINLINE));
    mode.Set("headers", static_cast<int>(CN_PGN_MODE_HEADERS));
    c.Set("mode", mode);
    Napi::Object result = Napi::Object::New(env);
    result.Set("none", static_cast<int>(CN_PGN_RESULT_NONE));
    result.Set("white", static_cast<int>(CN_PGN_RESULT_WHITE));
    result.Set("black", static_cast<int>(CN_PGN_RESULT_BLACK));
    result.Set("draw", static_cast<int>(CN_PGN_RESULT_DRAW));
    result.Set("unknown", static_cast<int>(CN_PGN_RESULT_UNKNOWN));
    c.Set("result", result);
    return c;
}

} // namespace

void InitPgn(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Method<PgnRead>(env, "pgnRead"),
        Method<PgnReadAsync>(env, "pgnReadAsync"),
        Constant("pgn", PgnConstants(env)),
    });
}

} // namespace binding
