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

#include <cstring>

#include "args.h"
#include "limits.h"

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

// perftStart(pos, depth, threads, hashBytes, done: () => void, keySeed:
// bigint): handle. Starts at once; `done` is called (with no arguments) on
// this thread once the job has finished or been cancelled. keySeed picks the
// table's second key set (0n: the default, CN_PERFT_KEY_SEED).
Napi::Value PerftStart(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    int depth = 0;
    double threads = 0, hash_bytes = 0;
    if (!LoadPosition(env, info[0], &pos) || !DepthArg(env, info[1], &depth) ||
        !IntegerArg(env, info[2], "threads", 1, CN_PERFT_JOB_MAX_THREADS, &threads) ||
        !IntegerArg(env, info[3], "hashBytes", 0, static_cast<double>(kMaxHashBytes), &hash_bytes))
        return env.Undefined();
    if (!info[4].IsFunction()) {
        ThrowType(env, "done must be a function");
        return env.Undefined();
    }
    bool lossless = false;
    const uint64_t key_seed = info[5].IsBigInt() ? info[5].As<Napi::BigInt>().Uint64Value(&lossless) : 0;
    if (!lossless) {
        ThrowType(env, "keySeed must be a bigint from 0 to 2^64 - 1");
        return env.Undefined();
    }
    Job *perft = new Job();
    perft->env = env;
    perft->done = Napi::ThreadSafeFunction::New(env, info[4].As<Napi::Function>(), "chess-native perft", 0, 1);
    cn_perft_job_options options = {
        depth, static_cast<int>(threads), static_cast<size_t>(hash_bytes), JobFinished, perft, 0, 0, key_seed};
    const cn_status status = cn_perft_job_start(&pos, &options, &perft->job);
    if (status != CN_OK) {
        perft->done.Release();
        delete perft;
        ThrowStatus(env, status,
                    status == CN_ERR_NO_MEMORY ? "cannot allocate the perft hash table" : "cannot start the perft job");
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

// perftProgress(handle, out: Float64Array(>= 3)): nodes so far (bigint);
// out = [rootMovesDone, rootMovesTotal, elapsedMs].
Napi::Value PerftProgress(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    Job *perft = UnwrapJob(info);
    double *out = perft
                      ? ArrayArgOrThrow<double>(env, info[1], 3, "progress needs a Float64Array of at least 3 entries")
                      : nullptr;
    if (!out) return env.Undefined();
    cn_perft_job_progress progress = {0, 0, 0, 0};
    if (perft->job) cn_perft_job_progress_get(perft->job, &progress);
    out[0] = static_cast<double>(progress.root_moves_done);
    out[1] = static_cast<double>(progress.root_moves_total);
    out[2] = static_cast<double>(progress.elapsed_ns) / 1e6;
    return Napi::BigInt::New(env, progress.nodes);
}

// perftCancel(handle): asks the threads to stop; `done` follows shortly.
Napi::Value PerftCancel(const Napi::CallbackInfo &info) {
    Job *perft = UnwrapJob(info);
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
    Job *perft = UnwrapJob(info);
    uint16_t *moves_out = nullptr;
    uint64_t *counts_out = nullptr;
    if (!perft || !RootMoveArrays(info, 1, &moves_out, &counts_out)) return env.Undefined();
    double *out = ArrayArgOrThrow<double>(env, info[3], 2, "result needs a Float64Array of at least 2 entries");
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
    out[0] = static_cast<double>(progress.elapsed_ns) / 1e9;
    out[1] = n;
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
        Method<PerftProgress>(env, "perftProgress"),
        Method<PerftCancel>(env, "perftCancel"),
        Method<PerftResult>(env, "perftResult"),
        Method<PerftFree>(env, "perftFree"),
    });
}

} // namespace binding
