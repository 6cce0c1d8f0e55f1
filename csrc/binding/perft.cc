// perft.cc - leaf counts: synchronous perft and divide on the calling
// thread, and perft jobs on the engine's own threads (perft_job.h).
//
// perftStart returns a type-tagged External owning a Job. The job runs on
// its own native threads (no libuv pool thread is held). When it finishes,
// its last thread calls `done` through a ThreadSafeFunction, which also keeps
// the event loop alive meanwhile; JS then reads perftResult and calls
// perftFree. An environment cleanup hook cancels and joins a job still
// running when its environment (e.g. a worker thread) shuts down.
#include "binding.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "args.h"
#include "boundary.h"

namespace binding {

namespace {

// perft(pos, depth): number when <= 2^53 - 1, else bigint (exact either way).
Napi::Value Perft(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    int depth = 0;
    if (!LoadPosition(env, info[0], &pos) || !DepthArg(env, info[1], &depth)) return env.Undefined();
    return Count(env, cn_perft(&pos, depth));
}

// Copies n root moves and their counts into the caller's arrays.
void CopyRootMoves(uint16_t *moves_out, uint64_t *counts_out, const cn_move *moves, const uint64_t *counts, int n) {
    std::memcpy(moves_out, moves, static_cast<size_t>(n) * sizeof(cn_move));
    std::memcpy(counts_out, counts, static_cast<size_t>(n) * sizeof(uint64_t));
}

// The (moves: Uint16Array, counts: BigUint64Array) pair at info[index],
// both of at least maxMoves entries; false with a TypeError pending.
bool RootMoveArrays(const Napi::CallbackInfo &info, size_t index, uint16_t **moves, uint64_t **counts) {
    *moves = ArrayArg<uint16_t>(info.Env(), info[index], CN_MAX_MOVES);
    *counts = ArrayArg<uint64_t>(info.Env(), info[index + 1], CN_MAX_MOVES);
    if (*moves && *counts) return true;
    ThrowType(info.Env(), "root moves need a Uint16Array and a BigUint64Array of at least maxMoves entries");
    return false;
}

// divide(pos, depth >= 1, moves: Uint16Array(>= maxMoves), counts:
// BigUint64Array(>= maxMoves)): number of root moves; moves / counts in
// generation order.
Napi::Value Divide(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    int depth = 0;
    uint16_t *moves_out = nullptr;
    uint64_t *counts_out = nullptr;
    if (!LoadPosition(env, info[0], &pos) || !DepthArg(env, info[1], &depth)) return env.Undefined();
    if (depth < 1) {
        ThrowRange(env, "divide depth must be at least 1");
        return env.Undefined();
    }
    if (!RootMoveArrays(info, 2, &moves_out, &counts_out)) return env.Undefined();
    cn_move moves[CN_MAX_MOVES];
    uint64_t counts[CN_MAX_MOVES];
    int n = cn_divide(&pos, depth, moves, counts);
    CopyRootMoves(moves_out, counts_out, moves, counts, n);
    return Napi::Number::New(env, n);
}

const napi_type_tag kJobTag = {0x6368657373706572ULL, 0x66746a6f62763031ULL};

struct Job {
    cn_perft_job *job = nullptr;
    Napi::ThreadSafeFunction done; // released by the job's last thread
    napi_env env = nullptr;
    bool cleanup_hook = false;
};

// On the job's last thread, once the result is final.
void JobFinished(void *user) {
    Job *perft = static_cast<Job *>(user);
    perft->done.NonBlockingCall();
    perft->done.Release();
}

void JobCleanupHook(void *arg) {
    Job *perft = static_cast<Job *>(arg);
    perft->cleanup_hook = false; // running now: Node drops it itself
    cn_perft_job_free(perft->job);
    perft->job = nullptr;
}

// Joins the job's threads and frees it; the Job itself stays.
void StopJob(Job *perft) {
    if (perft->cleanup_hook) {
        napi_remove_env_cleanup_hook(perft->env, JobCleanupHook, perft);
        perft->cleanup_hook = false;
    }
    cn_perft_job_free(perft->job);
    perft->job = nullptr;
}

// The Job behind a perftStart handle, or nullptr with a TypeError pending.
Job *UnwrapJob(const Napi::CallbackInfo &info) {
    Napi::Value handle = info[0];
    if (!handle.IsExternal() || !handle.As<Napi::External<Job>>().CheckTypeTag(&kJobTag)) {
        ThrowType(info.Env(), "expected a handle from perftStart");
        return nullptr;
    }
    return handle.As<Napi::External<Job>>().Data();
}

// The options of a job from perftStart's / perftUnitsStart's arguments
// depth, threads, hashBytes, done, keySeed at info[first ..]; false with an
// error pending. keySeed picks the table's second key set (0n: the default,
// CN_PERFT_KEY_SEED).
bool JobOptionsArgs(const Napi::CallbackInfo &info, size_t first, cn_perft_job_options *options) {
    Napi::Env env = info.Env();
    int depth = 0;
    double threads = 0, hash_bytes = 0;
    if (!DepthArg(env, info[first], &depth) ||
        !IntegerArg(env, info[first + 1], "threads", 1, CN_PERFT_JOB_MAX_THREADS, &threads) ||
        !IntegerArg(env, info[first + 2], "hashBytes", 0, static_cast<double>(CN_MAX_HASH_BYTES), &hash_bytes))
        return false;
    if (!info[first + 3].IsFunction()) {
        ThrowType(env, "done must be a function");
        return false;
    }
    bool lossless = false;
    const Napi::Value seed = info[first + 4];
    const uint64_t key_seed = seed.IsBigInt() ? seed.As<Napi::BigInt>().Uint64Value(&lossless) : 0;
    if (!lossless) {
        ThrowType(env, "keySeed must be a bigint from 0 to 2^64 - 1");
        return false;
    }
    *options = {depth,   static_cast<int>(threads), static_cast<size_t>(hash_bytes), JobFinished, nullptr, 0, 0,
                key_seed};
    return true;
}

// Starts a job with `start` and wraps it in a handle calling `done` once it
// has finished or been cancelled; undefined with an error pending if it
// cannot start.
template <typename Start>
Napi::Value StartJob(Napi::Env env, Napi::Value done, cn_perft_job_options *options, Start start) {
    Job *perft = new Job();
    perft->env = env;
    perft->done = Napi::ThreadSafeFunction::New(env, done.As<Napi::Function>(), "chess-native perft", 0, 1);
    options->user = perft;
    const cn_status status = start(options, &perft->job);
    if (status != CN_OK) {
        perft->done.Release();
        delete perft;
        ThrowStatus(env, status,
                    status == CN_ERR_NO_MEMORY      ? "cannot allocate the perft hash table"
                    : status == CN_ERR_BAD_POSITION ? "the units are not valid positions of one game"
                                                    : "cannot start the perft job");
        return env.Undefined();
    }
    napi_add_env_cleanup_hook(env, JobCleanupHook, perft);
    perft->cleanup_hook = true;
    Napi::External<Job> handle = Napi::External<Job>::New(env, perft, [](Napi::Env, Job *p) {
        StopJob(p); // normally perftFree has run; if not (the handle was dropped), stop it now
        delete p;
    });
    handle.TypeTag(&kJobTag);
    return handle;
}

// perftStart(pos, depth, threads, hashBytes, done: () => void, keySeed:
// bigint): handle. Starts at once; `done` is called (with no arguments) on
// this thread once the job has finished or been cancelled.
Napi::Value PerftStart(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    cn_perft_job_options options;
    if (!LoadPosition(env, info[0], &pos) || !JobOptionsArgs(info, 1, &options)) return env.Undefined();
    return StartJob(env, info[4], &options, [&pos](const cn_perft_job_options *o, cn_perft_job **job) {
        return cn_perft_job_start(&pos, o, job);
    });
}

// perftUnitsStart(units: Uint8Array of n >= 1 * positionBytes bytes, depth,
// threads, hashBytes, done, keySeed): handle of a job counting each of the n
// positions to depth (n <= limits.maxUnits); as perftStart otherwise.
Napi::Value PerftUnitsStart(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    size_t bytes = 0;
    const uint8_t *data = ArrayArgOrThrow<uint8_t>(env, info[0], 1, "units must be a non-empty Uint8Array", &bytes);
    if (!data) return env.Undefined();
    if (bytes % sizeof(cn_position) != 0 || bytes / sizeof(cn_position) > CN_PERFT_JOB_MAX_UNITS) {
        ThrowRange(env, "units must be whole positions, at most limits.maxUnits of them");
        return env.Undefined();
    }
    cn_perft_job_options options;
    if (!JobOptionsArgs(info, 1, &options)) return env.Undefined();
    std::vector<cn_position> units(bytes / sizeof(cn_position));
    std::memcpy(units.data(), data, bytes);
    return StartJob(env, info[4], &options, [&units](const cn_perft_job_options *o, cn_perft_job **job) {
        return cn_perft_job_start_units(units.data(), static_cast<int>(units.size()), o, job);
    });
}

// perftUnitResults(handle, first, counts: BigUint64Array, done: Uint8Array):
// for units first, first + 1, ... (as many as both arrays hold), done[i] = 1
// and counts[i] = its count once unit first + i is fully counted, else 0 and
// 0. Returns the number of units copied. Any time, also after a cancel.
Napi::Value PerftUnitResults(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    Job *perft = UnwrapJob(info);
    double first = 0;
    size_t count_room = 0, done_room = 0;
    if (!perft || !IntegerArg(env, info[1], "first", 0, CN_PERFT_JOB_MAX_UNITS, &first)) return env.Undefined();
    uint64_t *counts =
        ArrayArgOrThrow<uint64_t>(env, info[2], 1, "counts must be a non-empty BigUint64Array", &count_room);
    uint8_t *done =
        counts ? ArrayArgOrThrow<uint8_t>(env, info[3], 1, "done must be a non-empty Uint8Array", &done_room) : nullptr;
    if (!done) return env.Undefined();
    const size_t room = std::min<size_t>(std::min(count_room, done_room), CN_PERFT_JOB_MAX_UNITS);
    if (!perft->job) return Napi::Number::New(env, 0);
    return Napi::Number::New(
        env, cn_perft_job_unit_results(perft->job, static_cast<int>(first), static_cast<int>(room), counts, done));
}

// perftProgress(handle, out: Float64Array(CN_PERFT_PROGRESS_LENGTH)): nodes
// so far (bigint); out's slots: root moves done and total, elapsed ms.
Napi::Value PerftProgress(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    Job *perft = UnwrapJob(info);
    double *out = perft ? ArrayArgOrThrow<double>(env, info[1], CN_PERFT_PROGRESS_LENGTH,
                                                  "progress needs a Float64Array of slotLengths.perftProgress entries")
                        : nullptr;
    if (!out) return env.Undefined();
    cn_perft_job_progress progress = {0, 0, 0, 0};
    if (perft->job) cn_perft_job_progress_get(perft->job, &progress);
    out[CN_PERFT_PROGRESS_ROOT_MOVES_DONE] = static_cast<double>(progress.root_moves_done);
    out[CN_PERFT_PROGRESS_ROOT_MOVES_TOTAL] = static_cast<double>(progress.root_moves_total);
    out[CN_PERFT_PROGRESS_ELAPSED_MS] = static_cast<double>(progress.elapsed_ns) / 1e6;
    return Napi::BigInt::New(env, progress.nodes);
}

// perftCancel(handle): asks the threads to stop; `done` follows shortly.
Napi::Value PerftCancel(const Napi::CallbackInfo &info) {
    Job *perft = UnwrapJob(info);
    if (perft && perft->job) cn_perft_job_cancel(perft->job);
    return info.Env().Undefined();
}

// perftResult(handle, moves: Uint16Array(>= maxMoves), counts:
// BigUint64Array(>= maxMoves), out: Float64Array(CN_PERFT_RESULT_LENGTH)):
// -1 while running or after a cancel, else the node count (bigint), with
// the root moves (16-bit, generation order) and their counts in moves /
// counts and out's slots: seconds, number of root moves.
Napi::Value PerftResult(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    Job *perft = UnwrapJob(info);
    uint16_t *moves_out = nullptr;
    uint64_t *counts_out = nullptr;
    if (!perft || !RootMoveArrays(info, 1, &moves_out, &counts_out)) return env.Undefined();
    double *out = ArrayArgOrThrow<double>(env, info[3], CN_PERFT_RESULT_LENGTH,
                                          "result needs a Float64Array of slotLengths.perftResult entries");
    if (!out) return env.Undefined();
    if (!perft->job || cn_perft_job_state_get(perft->job) != CN_PERFT_JOB_DONE) return Napi::Number::New(env, -1);
    cn_perft_job_progress progress;
    cn_perft_job_progress_get(perft->job, &progress);
    const cn_move *moves = nullptr;
    const uint64_t *counts = nullptr;
    int n = cn_perft_job_root_moves(perft->job, &moves, &counts);
    if (n < 0) n = 0;
    if (n > CN_MAX_MOVES) n = CN_MAX_MOVES;
    CopyRootMoves(moves_out, counts_out, moves, counts, n);
    out[CN_PERFT_RESULT_SECONDS] = static_cast<double>(progress.elapsed_ns) / 1e9;
    out[CN_PERFT_RESULT_ROOT_MOVES] = n;
    return Napi::BigInt::New(env, cn_perft_job_nodes(perft->job));
}

// perftFree(handle): cancels if running, joins the threads, frees the job.
Napi::Value PerftFree(const Napi::CallbackInfo &info) {
    Job *perft = UnwrapJob(info);
    if (perft && perft->job) StopJob(perft);
    return info.Env().Undefined();
}

} // namespace

void InitPerft(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Method<Perft>(env, "perft"),
        Method<Divide>(env, "divide"),
        Method<PerftStart>(env, "perftStart"),
        Method<PerftUnitsStart>(env, "perftUnitsStart"),
        Method<PerftUnitResults>(env, "perftUnitResults"),
        Method<PerftProgress>(env, "perftProgress"),
        Method<PerftCancel>(env, "perftCancel"),
        Method<PerftResult>(env, "perftResult"),
        Method<PerftFree>(env, "perftFree"),
    });
}

} // namespace binding
