// binding.cc - the Node-API module: builds the engine's tables, then
// registers each concern's exports. The files of this folder are the only
// ones that include Node headers; they convert JS values, call the engine
// (chess_native.h and the headers beside it) and report failures, and hold
// no chess logic.
//
// A position lives in a JS typed array of exactly sizeof(cn_position)
// bytes. Every call copies it into a local struct and validates it, so a
// corrupted buffer is an error, never a crash; no call writes the position
// it reads (results go to separate output arguments). Only strings,
// numbers, bigints and typed arrays (or ArrayBuffers) cross the boundary,
// plus what Node-API has no other way to carry: thrown errors, perftStart's
// `done` callback and a perft job's External handle.
//
// Context-aware: the module keeps no per-environment state and no static JS
// values, so it loads in any number of worker_threads.
#include <napi.h>

#include "binding.h"
#include "args.h"

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
    cn_status status = cn_init();
    if (status != CN_OK) {
        binding::ThrowStatus(env, status, cn_init_message());
        return exports;
    }
    binding::InitConstants(env, exports);
    binding::InitPositions(env, exports);
    binding::InitSan(env, exports);
    binding::InitLines(env, exports);
    binding::InitPerft(env, exports);
    binding::InitSplit(env, exports);
    binding::InitPgn(env, exports);
    return exports;
}

} // namespace

NODE_API_MODULE(NODE_GYP_MODULE_NAME, Init)
