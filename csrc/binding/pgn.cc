// pgn.cc - reading PGN (pgn.h): a read comes back as its parts, each
// two Buffers (records, int32 four per record, and the string table) and
// the part's line offset, so JS gets views and no object per token, and
// nothing is joined.
//
// state: Float64Array(CN_PGN_STATE_LENGTH), its slots as boundary.h lists
// them.
#include "binding.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "args.h"
#include "boundary.h"

namespace binding {

namespace {

// The text's bytes; an empty Uint8Array has no data pointer and reads as "".
const char *TextArg(napi_env env, napi_value value, size_t *length) {
    napi_typedarray_type type;
    void *data = nullptr;
    if (napi_get_typedarray_info(env, value, &type, length, &data, nullptr, nullptr) != napi_ok ||
        type != napi_uint8_array || (*length && !data)) {
        ThrowType(env, "PGN text must be a Uint8Array");
        return nullptr;
    }
    return *length ? static_cast<const char *>(data) : "";
}

bool ReadInput(napi_env env, const Napi::CallbackInfo &info, cn_pgn_input *in, int *threads, double **state) {
    size_t length = 0;
    const char *text = TextArg(env, info[0], &length);
    if (!text) return false;
    *state =
        ArrayArgOrThrow<double>(env, info[1], CN_PGN_STATE_LENGTH, "PGN state must be a Float64Array(pgn.stateLength)");
    if (!*state) return false;
    const double *s = *state;
    const double end = s[CN_PGN_STATE_TEXT_END], mode = s[CN_PGN_STATE_MODE], line = s[CN_PGN_STATE_LINE],
                 column = s[CN_PGN_STATE_COLUMN], threads_slot = s[CN_PGN_STATE_THREADS];
    if (!(end == CN_PGN_TEXT_MORE || end == CN_PGN_TEXT_FINAL || end == CN_PGN_TEXT_CUT) ||
        !(mode == CN_PGN_MODE_TREE || mode == CN_PGN_MODE_MAINLINE || mode == CN_PGN_MODE_HEADERS ||
          mode == CN_PGN_MODE_CHESSJS) ||
        line < 1 || line > 4294967295.0 || column < 0 || column > 4294967295.0 || s[CN_PGN_STATE_MAX_GAMES] < 0 ||
        !(threads_slot >= 1 && threads_slot <= CN_PGN_MAX_THREADS)) {
        ThrowRange(env, "PGN state out of range");
        return false;
    }
    std::memset(in, 0, sizeof *in);
    in->text = text;
    in->length = length;
    in->final = end != CN_PGN_TEXT_MORE;
    in->cut = end == CN_PGN_TEXT_CUT;
    in->mode = static_cast<cn_pgn_mode>(static_cast<int>(mode));
    in->line = static_cast<uint32_t>(line);
    in->column = static_cast<uint32_t>(column);
    in->max_games = static_cast<size_t>(s[CN_PGN_STATE_MAX_GAMES]);
    *threads = static_cast<int>(threads_slot);
    return true;
}

void WriteState(double *state, const cn_pgn_input &in, const cn_pgn_parts &parts) {
    size_t games = 0;
    for (size_t k = 0; k < parts.count; k++) games += parts.part[k].out.games;
    state[CN_PGN_STATE_LINE] = in.consumed_line;
    state[CN_PGN_STATE_COLUMN] = in.consumed_column;
    state[CN_PGN_STATE_CONSUMED] = static_cast<double>(in.consumed);
    state[CN_PGN_STATE_GAMES] = static_cast<double>(games);
}

// The memory of results that are done with, kept for the next reads'
// output: fresh memory costs a page fault a page, which for a mainline read
// is more than a tenth of its time. At most kBlocks blocks, kBytes in all,
// so what is kept stays bounded; shared by every thread that reads.
class BlockPool {
  public:
    struct Block {
        char *data;
        size_t capacity;
    };
    // The largest block kept, or an empty one.
    Block Take() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!count_) return {nullptr, 0};
        size_t best = 0;
        for (size_t k = 1; k < count_; k++)
            if (blocks_[k].capacity > blocks_[best].capacity) best = k;
        const Block block = blocks_[best];
        blocks_[best] = blocks_[--count_];
        bytes_ -= block.capacity;
        return block;
    }
    // Keeps `data` (malloc'ed, `capacity` bytes) when there is room, else frees it.
    void Give(char *data, size_t capacity) {
        if (!data) return;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (count_ < kBlocks && capacity <= kBytes - bytes_) {
                blocks_[count_++] = {data, capacity};
                bytes_ += capacity;
                return;
            }
        }
        std::free(data);
    }

  private:
    static constexpr size_t kBlocks = 32;
    static constexpr size_t kBytes = size_t{16} << 20;
    std::mutex mutex_;
    Block blocks_[kBlocks] = {};
    size_t count_ = 0, bytes_ = 0;
};

BlockPool pool;

constexpr size_t kRecordBytes = CN_PGN_RECORD_INTS * sizeof(int32_t);

// A one-thread read, into an output that starts in kept blocks (the larger
// for the records, which outgrow the strings); more threads read as
// cn_pgn_read_parts cuts the text.
cn_status ReadParts(cn_pgn_input *in, cn_pgn_parts *parts, int threads) {
    if (threads > 1) return cn_pgn_read_parts(in, parts, threads, CN_PGN_MIN_BLOCK_BYTES);
    std::memset(parts, 0, sizeof *parts);
    parts->part = static_cast<cn_pgn_part *>(std::calloc(1, sizeof *parts->part));
    if (!parts->part) return CN_ERR_NO_MEMORY;
    parts->count = 1;
    in->blocks = 1;
    cn_pgn_output *out = &parts->part[0].out;
    const BlockPool::Block records = pool.Take(), strings = pool.Take();
    out->records = reinterpret_cast<int32_t *>(records.data);
    out->record_capacity = records.capacity / kRecordBytes;
    out->strings = strings.data;
    out->string_capacity = strings.capacity;
    return cn_pgn_read(in, out);
}

// Who owns a result's memory. A synchronous read copies it into JS-owned
// Buffers and frees the engine's memory at once: Node runs the finalizer of
// an external Buffer only once the event loop turns, so a loop of
// synchronous reads would hold every result until it ends. An asynchronous
// read is delivered by a turn of the loop: its Buffers take over the
// engine's memory. V8 counts each Buffer's bytes as external memory when it
// is made, so collection keeps pace with them; reporting them again would
// count them twice and start full collections the heap does not need.
enum class Owner { kCopy, kTake };

// A Buffer of the first `length` of the `capacity` bytes at `*data`
// (given back to the pool here, or when the Buffer is collected; where
// external buffers are not allowed, as in Electron's V8 sandbox, it is
// copied).
Napi::Buffer<char> ResultBuffer(Napi::Env env, char **data, size_t length, size_t capacity, Owner owner) {
    char *block = *data;
    *data = nullptr;
    if (!block) return Napi::Buffer<char>::New(env, 0);
    if (owner == Owner::kCopy) {
        Napi::Buffer<char> copy = Napi::Buffer<char>::Copy(env, block, length);
        pool.Give(block, capacity);
        return copy;
    }
    // The capacity rides as the finalizer's hint.
    return Napi::Buffer<char>::NewOrCopy(
        env, block, length,
        [](Napi::Env, char *done, void *hint) { pool.Give(done, reinterpret_cast<uintptr_t>(hint)); },
        reinterpret_cast<void *>(static_cast<uintptr_t>(capacity)));
}

// The parts that hold records, as [records, strings, lineOffset, ...];
// each part's memory is copied or taken over (cn_pgn_parts_free then frees
// the rest).
Napi::Value Result(Napi::Env env, cn_pgn_parts *parts, Owner owner) {
    Napi::Array result = Napi::Array::New(env);
    uint32_t at = 0;
    for (size_t k = 0; k < parts->count; k++) {
        cn_pgn_part *part = &parts->part[k];
        if (!part->out.record_count) continue;
        char *records = reinterpret_cast<char *>(part->out.records);
        part->out.records = nullptr;
        result[at++] = ResultBuffer(env, &records, part->out.record_count * kRecordBytes,
                                    part->out.record_capacity * kRecordBytes, owner);
        result[at++] = ResultBuffer(env, &part->out.strings, part->out.string_length, part->out.string_capacity, owner);
        result[at++] = Napi::Number::New(env, part->line_offset);
    }
    return result;
}

// pgnRead(text: Uint8Array, state): parts. Reads on the calling thread.
Napi::Value PgnRead(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_pgn_input in;
    int threads = 1;
    double *state = nullptr;
    if (!ReadInput(env, info, &in, &threads, &state)) return env.Undefined();
    cn_pgn_parts parts;
    const cn_status status = ReadParts(&in, &parts, threads);
    Napi::Value result = env.Undefined();
    if (status == CN_OK) {
        WriteState(state, in, parts);
        result = Result(env, &parts, Owner::kCopy);
    } else {
        ThrowStatus(env, status, "out of memory reading PGN");
    }
    cn_pgn_parts_free(&parts);
    return result;
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
    ~PgnWorker() override { cn_pgn_parts_free(&parts_); }
    void Execute() override {
        status_ = ReadParts(&in_, &parts_, threads_);
        if (status_ != CN_OK) SetError("out of memory reading PGN");
    }
    // The error the sync read throws, with its status as `code`.
    void OnError(const Napi::Error &error) override {
        Callback().Call({StatusError(Env(), status_, error.Message().c_str()).Value()});
    }
    void OnOK() override {
        WriteState(state_data_, in_, parts_);
        Callback().Call({Env().Null(), Result(Env(), &parts_, Owner::kTake)});
    }

  private:
    cn_pgn_input in_;
    int threads_;
    cn_pgn_parts parts_ = {};
    cn_status status_ = CN_OK;
    double *state_data_;
    Napi::ObjectReference text_, state_;
};

// pgnReadAsync(text, state, callback(err, parts)).
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

} // namespace

void InitPgn(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Method<PgnRead>(env, "pgnRead"),
        Method<PgnReadAsync>(env, "pgnReadAsync"),
    });
}

} // namespace binding
