// split.cc - splitTree: a perft tree split into work units by the engine
// (split.h), returned as the units' FENs and exact counts.
#include "binding.h"

#include <cstdint>

#include "split.h"

namespace binding {

namespace {

// A 128-bit count, low word first, as a bigint.
Napi::Value Count128(napi_env env, const uint64_t *words) {
    napi_value value = nullptr;
    napi_create_bigint_words(env, 0, words[1] != 0 ? 2 : 1, words, &value);
    return Napi::Value(env, value);
}

// Frees the split however the call returns.
struct SplitOwner {
    cn_split split{};
    ~SplitOwner() { cn_split_free(&split); }
};

// The root moves in UCI, in the split's order.
Napi::Array RootMoves(Napi::Env env, const cn_position *root, const cn_split &split) {
    Napi::Array moves = Napi::Array::New(env, static_cast<size_t>(split.root_move_count));
    for (int i = 0; i < split.root_move_count; i++) {
        char uci[6];
        cn_move_to_uci(root, split.root_moves[i], uci);
        moves.Set(static_cast<uint32_t>(i), Napi::String::New(env, uci));
    }
    return moves;
}

// The per-root counts (split.h's layout): rootFirst, roots, rootCounts.
void SetRoots(Napi::Env env, const cn_split &split, Napi::Object out) {
    const size_t entries = split.root_first[split.count];
    Napi::Uint32Array first = Napi::Uint32Array::New(env, split.count + 1);
    for (size_t u = 0; u <= split.count; u++) first[u] = static_cast<uint32_t>(split.root_first[u]);
    Napi::Uint16Array roots = Napi::Uint16Array::New(env, entries);
    Napi::Array counts = Napi::Array::New(env, entries);
    for (size_t j = 0; j < entries; j++) {
        roots[j] = split.roots[j];
        counts.Set(static_cast<uint32_t>(j), Count128(env, &split.root_counts[2 * j]));
    }
    out.Set("rootFirst", first);
    out.Set("roots", roots);
    out.Set("rootCounts", counts);
}

// splitTree(root, ply: 0..maxDepth, maxUnits >= 0, trackRoots: 0 | 1) -> { ply, fens,
// multiplicities, rootMoves } and, when root moves are tracked and ply >= 1, { rootFirst:
// Uint32Array, roots: Uint16Array, rootCounts }: unit i's counts per root move are
// rootCounts[j] for root move roots[j], j from rootFirst[i] to rootFirst[i + 1] - 1.
Napi::Value SplitTree(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position root;
    int ply = 0;
    double max_units = 0, track_roots = 0;
    if (!LoadPosition(env, info[0], &root) || !DepthArg(env, info[1], &ply) ||
        !IntegerArg(env, info[2], "maxUnits", 0, 9007199254740991.0, &max_units) ||
        !IntegerArg(env, info[3], "trackRoots", 0, 1, &track_roots))
        return env.Undefined();
    SplitOwner owner;
    cn_split &split = owner.split;
    const size_t limit = max_units >= static_cast<double>(SIZE_MAX) ? SIZE_MAX : static_cast<size_t>(max_units);
    const cn_status status = cn_split_tree(&root, ply, limit, track_roots != 0, &split);
    if (status != CN_OK) {
        ThrowStatus(env, status,
                    status == CN_ERR_NO_MEMORY ? "out of memory splitting the tree"
                                               : "a unit's count exceeds 2^128 - 1");
        return env.Undefined();
    }
    if (split.root_first && split.root_first[split.count] > UINT32_MAX) {
        ThrowStatus(env, CN_ERR_NO_MEMORY, "too many root counts for one split");
        return env.Undefined();
    }
    Napi::Array fens = Napi::Array::New(env, split.count);
    Napi::Array multiplicities = Napi::Array::New(env, split.count);
    for (size_t u = 0; u < split.count; u++) {
        char fen[128];
        cn_fen_write(&split.positions[u], fen, sizeof fen);
        fens.Set(static_cast<uint32_t>(u), Napi::String::New(env, fen));
        multiplicities.Set(static_cast<uint32_t>(u), Count128(env, &split.multiplicities[2 * u]));
    }
    Napi::Object out = Napi::Object::New(env);
    out.Set("ply", Napi::Number::New(env, split.ply));
    out.Set("fens", fens);
    out.Set("multiplicities", multiplicities);
    out.Set("rootMoves", RootMoves(env, &root, split));
    if (split.root_first) SetRoots(env, split, out);
    return out;
}

} // namespace

void InitSplit(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Method<SplitTree>(env, "splitTree"),
    });
}

} // namespace binding
