// san.cc - Standard Algebraic Notation: the SAN of moves, and the moves SAN
// strings name (san.h).
#include "binding.h"

#include "args.h"

namespace binding {

namespace {

// san(pos, uci): the SAN of a legal UCI move; throws like play.
Napi::Value San(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    cn_move move;
    if (!LoadPosition(env, info[0], &pos) || !ReadMove(env, info[1], &pos, Notation::kUci, &move))
        return env.Undefined();
    char san[CN_SAN_MAX];
    int n = cn_move_to_san(&pos, move, san);
    return Napi::String::New(env, san, static_cast<size_t>(n));
}

// legalMovesSan(pos, out: Uint16Array(>= maxMoves)): string. The SAN of
// every legal move, space separated, in the order legalMoves gives (by UCI
// string); out receives the moves in that order.
Napi::Value LegalMovesSan(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    if (!LoadPosition(env, info[0], &pos)) return env.Undefined();
    uint16_t *out = ArrayArgOrThrow<uint16_t>(env, info[1], CN_MAX_MOVES,
                                              "moves must be a Uint16Array of at least maxMoves entries");
    if (!out) return env.Undefined();
    char sans[CN_MAX_MOVES][CN_SAN_MAX];
    int n = cn_legal_moves_sorted(&pos, out);
    cn_moves_to_san(&pos, out, n, sans);
    return JoinSans(env, sans, n);
}

// parseSan(pos, san): the move (16-bit) a SAN string names; throws
// CN_ERR_BAD_MOVE or CN_ERR_ILLEGAL_MOVE (illegal or ambiguous).
Napi::Value ParseSan(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    cn_move move;
    if (!LoadPosition(env, info[0], &pos) || !ReadMove(env, info[1], &pos, Notation::kSan, &move))
        return env.Undefined();
    return Napi::Number::New(env, move);
}

// playSan(pos, san, out: view(positionBytes)): as parseSan, then out
// receives the position after the move (see PlayMove).
Napi::Value PlaySan(const Napi::CallbackInfo &info) { return PlayMove(info, Notation::kSan); }

} // namespace

void InitSan(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Method<San>(env, "san"),
        Method<LegalMovesSan>(env, "legalMovesSan"),
        Method<ParseSan>(env, "parseSan"),
        Method<PlaySan>(env, "playSan"),
    });
}

} // namespace binding
