// constants.cc - the facts the TypeScript layer reads instead of restating:
// struct layout, limits, game-state bits, line formats and statuses, and
// error codes, all taken from the engine's headers or limits.h. The objects
// are frozen.
#include "binding.h"

#include <cstddef>

#include "args.h"
#include "limits.h"
#include "line.h"
#include "rules.h"

namespace binding {

namespace {

static_assert(sizeof(cn_position) % 8 == 0, "cn_position size must be a multiple of 8");
static_assert(sizeof(cn_move) == 2, "cn_move must be 16 bits (the JS side uses Uint16Array)");
static_assert(CN_MAX_MOVES >= 256 && CN_MAX_MOVES <= 65536, "move buffers are sized by the exported maxMoves");
static_assert(kSanLineMoves <= CN_MAX_MOVES, "JoinSans joins at most CN_MAX_MOVES strings");

Napi::Number Number(Napi::Env env, double value) { return Napi::Number::New(env, value); }

// The name of a perft key set (cn_perft_key_set_name).
Napi::String KeySetName(Napi::Env env, uint64_t seed) {
    char name[CN_PERFT_KEY_SET_NAME_MAX];
    cn_perft_key_set_name(seed, name, sizeof name);
    return Napi::String::New(env, name);
}

// A frozen plain object of numbers or of strings.
template <typename T> Napi::Object Frozen(Napi::Env env, std::initializer_list<std::pair<const char *, T>> entries) {
    Napi::Object object = Napi::Object::New(env);
    for (const auto &entry : entries) object.Set(entry.first, entry.second);
    object.Freeze();
    return object;
}

} // namespace

void InitConstants(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties(
        {
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
            Constant("limits", Frozen<double>(env,
                                              {
                                                  {"maxDepth", kMaxDepth},
                                                  {"maxThreads", CN_PERFT_JOB_MAX_THREADS},
                                                  {"maxUnits", CN_PERFT_JOB_MAX_UNITS},
                                                  {"maxHashBytes", static_cast<double>(kMaxHashBytes)},
                                                  {"fenMaxLength", kFenMaxLength},
                                                  {"uciMaxLength", CN_LINE_UCI_MAX},
                                                  {"sanMaxLength", CN_LINE_SAN_MAX},
                                                  {"lineMaxMoves", kLineMaxMoves},
                                                  {"sanLineMoves", kSanLineMoves},
                                                  {"uciRecordBytes", kUciRecordBytes},
                                              })),
            Constant("gameStateBits", Frozen<double>(env,
                                                     {
                                                         {"check", CN_GAME_CHECK},
                                                         {"noMoves", CN_GAME_NO_MOVES},
                                                         {"insufficient", CN_GAME_INSUFFICIENT},
                                                         {"fifty", CN_GAME_FIFTY},
                                                     })),
            Constant("lineFormat", Frozen<double>(env,
                                                  {
                                                      {"uci", CN_LINE_UCI},
                                                      {"san", CN_LINE_SAN},
                                                      {"list", CN_LINE_LIST},
                                                  })),
            // The `code` of the errors TypeScript tells apart (args.h).
            Constant("errorCodes", Frozen<const char *>(env,
                                                        {
                                                            {"fen", StatusName(CN_ERR_FEN)},
                                                            {"illegalMove", StatusName(CN_ERR_ILLEGAL_MOVE)},
                                                            {"badMove", StatusName(CN_ERR_BAD_MOVE)},
                                                            {"noMemory", StatusName(CN_ERR_NO_MEMORY)},
                                                        })),
            Constant(
                "lineStatus", Frozen<double>(env,
                                             {
                                                 {"ok", CN_OK},
                                                 {"illegal", CN_ERR_ILLEGAL_MOVE},
                                                 {"malformed", CN_ERR_BAD_MOVE},
                                             })),
        });
}

} // namespace binding
