// binding.h - one registration function per concern; binding.cc calls them
// in turn on the module's exports.
#ifndef CN_BINDING_BINDING_H
#define CN_BINDING_BINDING_H

#include <napi.h>

#include "args.h"

namespace binding {

// Engine facts, struct layout, limits, game-state bits, line formats (constants.cc).
void InitConstants(Napi::Env env, Napi::Object exports);
// FEN, move lists, single moves, status and board queries (positions.cc).
void InitPositions(Napi::Env env, Napi::Object exports);
// SAN of moves and moves from SAN (san.cc).
void InitSan(Napi::Env env, Napi::Object exports);
// Many moves per call: playLine, sanLine (lines.cc).
void InitLines(Napi::Env env, Napi::Object exports);
// Synchronous perft and divide, and perft jobs on native threads (perft.cc).
void InitPerft(Napi::Env env, Napi::Object exports);
// A perft tree split into work units: splitTree (split.cc).
void InitSplit(Napi::Env env, Napi::Object exports);
// Reading PGN into record batches, on the calling thread or a worker (pgn.cc).
void InitPgn(Napi::Env env, Napi::Object exports);

// play(pos, move, out) and playSan: reads the move in `notation` (ReadMove)
// and writes the position after it into out, a view of positionBytes bytes
// (pos itself is never written; out only on success). Returns the move.
Napi::Value PlayMove(const Napi::CallbackInfo &info, Notation notation);

} // namespace binding

#endif // CN_BINDING_BINDING_H
