// constants.cc - the facts the TypeScript layer reads instead of restating:
// struct layout, the engine's build, and the tables of boundary.h (slots,
// codes and limits) as one JSON text.
#include "binding.h"

#include <cstddef>

#include "args.h"
#include "boundary.h"

namespace binding {

namespace {

static_assert(sizeof(cn_position) % 8 == 0, "cn_position size must be a multiple of 8");
static_assert(sizeof(cn_move) == 2, "cn_move must be 16 bits (the JS side uses Uint16Array)");
static_assert(CN_MAX_MOVES >= 256 && CN_MAX_MOVES <= 65536, "move buffers are sized by the exported maxMoves");
static_assert(CN_SAN_LINE_MOVES <= CN_MAX_MOVES, "JoinSans joins at most CN_MAX_MOVES strings");

Napi::Number Number(Napi::Env env, double value) { return Napi::Number::New(env, value); }

// The name of a perft key set (cn_perft_key_set_name).
Napi::String KeySetName(Napi::Env env, uint64_t seed) {
    char name[CN_PERFT_KEY_SET_NAME_MAX];
    cn_perft_key_set_name(seed, name, sizeof name);
    return Napi::String::New(env, name);
}

} // namespace

void InitConstants(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Constant("version", Napi::String::New(env, CN_VERSION)),
        Constant("sliders", Napi::String::New(env, cn_slider_path())),
        Constant("impl", Napi::String::New(env, cn_impl_name())),
        Constant("initMs", Number(env, static_cast<double>(cn_init_nanoseconds()) / 1e6)),
        Constant("napi", Number(env, NAPI_VERSION)),
        Constant("positionBytes", Number(env, sizeof(cn_position))),
        Constant("keyOffset", Number(env, offsetof(cn_position, key))),
        Constant("maxMoves", Number(env, CN_MAX_MOVES)),
        // The hashed perft's second key sets: the default and the one a
        // verifying run counts with again (perft_job.h).
        Constant("perftKeySet", KeySetName(env, CN_PERFT_KEY_SEED)),
        Constant("perftVerifyKeySet", KeySetName(env, CN_PERFT_VERIFY_KEY_SEED)),
        Constant("perftVerifyKeySeed", Napi::BigInt::New(env, static_cast<uint64_t>(CN_PERFT_VERIFY_KEY_SEED))),
        // Every slot, code and limit of the boundary (boundary.h), as
        // JSON: the TypeScript layer reads them by name.
        Constant("boundaryTables", Napi::String::New(env, cn_boundary_tables())),
    });
}

} // namespace binding
