// limits.h - the limits the binding itself sets. constants.cc exports them
// (with the engine's own limits) as `limits`, which the TypeScript layer
// reads instead of restating them, and error messages are built from them.
#ifndef CN_BINDING_LIMITS_H
#define CN_BINDING_LIMITS_H

#include <cstddef>
#include <cstdint>

namespace binding {

// Deepest perft the API accepts.
constexpr int kMaxDepth = 20;

// The longest FEN handed to the parser; a valid FEN has about 90 characters,
// and longer strings are rejected as too long without being parsed.
constexpr size_t kFenMaxLength = 251;

// Largest perft hash table: 1 TiB, or half the address space where that is
// smaller.
constexpr uint64_t kMaxHashBytes = SIZE_MAX / 2 < (uint64_t{1} << 40) ? SIZE_MAX / 2 : uint64_t{1} << 40;

// Most moves one playLine call plays (its buffers may hold more).
constexpr int kLineMaxMoves = 65536;

// Moves per sanLine call: its SAN strings are joined on the stack.
constexpr int kSanLineMoves = 256;

// Bytes of one UCI record in playLine's `ucis`: up to 5 characters and a NUL.
constexpr size_t kUciRecordBytes = 6;

} // namespace binding

#endif // CN_BINDING_LIMITS_H
