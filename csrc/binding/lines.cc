// lines.cc - many moves per call (line.h): a game replay crosses the
// boundary once per chunk of moves instead of once per ply.
#include "binding.h"

#include <cstdio>
#include <cstring>

#include "args.h"
#include "boundary.h"
#include "line.h"

namespace binding {

namespace {

// Reads (text: Uint8Array, offset, format) at info[1..3] into a reader;
// false with an exception pending.
bool ReadLine(const Napi::CallbackInfo &info, cn_line_reader *reader) {
    napi_env env = info.Env();
    size_t length = 0;
    uint8_t *text = ArrayArgOrThrow<uint8_t>(env, info[1], 0, "line text must be a Uint8Array", &length);
    double offset = 0, format = 0;
    if (!text || !IntegerArg(env, info[2], "line offset", 0, static_cast<double>(length), &offset) ||
        !IntegerArg(env, info[3], "line format", 0, CN_LINE_SAN | CN_LINE_LIST, &format))
        return false;
    std::memset(reader, 0, sizeof *reader);
    reader->text = reinterpret_cast<const char *>(text);
    reader->len = length;
    reader->offset = static_cast<size_t>(offset);
    reader->format = static_cast<unsigned>(format);
    return true;
}

// The line state (boundary.h): status (lineStatus: ok, illegal (or
// ambiguous), malformed), the offset to continue from, and the failing
// move's start and length.
bool WriteLineState(napi_env env, napi_value value, const cn_line_reader &reader, cn_status status) {
    double *state = ArrayArgOrThrow<double>(env, value, CN_LINE_STATE_LENGTH,
                                            "line state must be a Float64Array of slotLengths.lineState entries");
    if (!state) return false;
    state[CN_LINE_STATE_STATUS] = static_cast<double>(status);
    state[CN_LINE_STATE_OFFSET] = static_cast<double>(reader.offset);
    state[CN_LINE_STATE_BAD_START] = static_cast<double>(status == CN_OK ? 0 : reader.bad_start);
    state[CN_LINE_STATE_BAD_LENGTH] = static_cast<double>(status == CN_OK ? 0 : reader.bad_len);
    return true;
}

// playLine(pos, text: Uint8Array, offset, format, positions: Uint8Array,
//          moves: Uint16Array, ucis: Uint8Array, state: Float64Array): count.
// Plays the moves of text from offset (format: lineFormat uci or san,
// | list for a '\n'-terminated list), at most as many as the buffers hold
// (positions / positionBytes, moves.length, ucis / uciRecordBytes) and
// limits.lineMaxMoves: positions receives the position after each move,
// moves the moves, ucis their UCI (NUL padded). pos itself is never written.
// Stops at the first bad move; state says why it stopped (WriteLineState).
Napi::Value PlayLine(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    cn_line_reader reader;
    if (!LoadPosition(env, info[0], &pos) || !ReadLine(info, &reader)) return env.Undefined();
    size_t positions_length = 0, moves_length = 0, ucis_length = 0;
    uint8_t *positions = ArrayArgOrThrow<uint8_t>(env, info[4], 0, "positions must be a Uint8Array", &positions_length);
    uint16_t *moves =
        positions ? ArrayArgOrThrow<uint16_t>(env, info[5], 0, "moves must be a Uint16Array", &moves_length) : nullptr;
    uint8_t *ucis =
        moves ? ArrayArgOrThrow<uint8_t>(env, info[6], 0, "ucis must be a Uint8Array", &ucis_length) : nullptr;
    if (!ucis) return env.Undefined();
    size_t room = positions_length / sizeof(cn_position);
    if (moves_length < room) room = moves_length;
    if (ucis_length / CN_UCI_RECORD_BYTES < room) room = ucis_length / CN_UCI_RECORD_BYTES;
    if (room < 1 || room > static_cast<size_t>(CN_LINE_MAX_MOVES)) {
        char message[96];
        std::snprintf(message, sizeof message, "line buffers must have room for 1 to %d moves", CN_LINE_MAX_MOVES);
        ThrowRange(env, message);
        return env.Undefined();
    }
    using UciRecord = char[CN_UCI_RECORD_BYTES];
    cn_status status = CN_OK;
    int n = cn_line_play(&pos, &reader, static_cast<int>(room), positions, moves, reinterpret_cast<UciRecord *>(ucis),
                         nullptr, &status);
    if (!WriteLineState(env, info[7], reader, status)) return env.Undefined();
    return Napi::Number::New(env, n);
}

// sanLine(pos, text: Uint8Array, offset, format (uci, optionally | list),
//         end: view(positionBytes), state: Float64Array): string.
// The SAN of up to limits.sanLineMoves moves of a UCI line, space separated;
// end receives the position after the last of them (pos is never written).
// Stops at the first bad move, as playLine.
Napi::Value SanLine(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    cn_position pos;
    cn_line_reader reader;
    if (!LoadPosition(env, info[0], &pos) || !ReadLine(info, &reader)) return env.Undefined();
    if ((reader.format & CN_LINE_SAN) != 0) {
        ThrowType(env, "sanLine reads UCI moves");
        return env.Undefined();
    }
    void *end = ViewBytes(env, info[4], sizeof(cn_position));
    if (!end) {
        ThrowType(env, "end must be an ArrayBufferView of positionBytes bytes");
        return env.Undefined();
    }
    char sans[CN_SAN_LINE_MOVES][CN_SAN_MAX];
    cn_status status = CN_OK;
    int n = cn_line_play(&pos, &reader, CN_SAN_LINE_MOVES, nullptr, nullptr, nullptr, sans, &status);
    if (!WriteLineState(env, info[5], reader, status)) return env.Undefined();
    std::memcpy(end, &pos, sizeof pos);
    return JoinSans(env, sans, n);
}

} // namespace

void InitLines(Napi::Env env, Napi::Object exports) {
    exports.DefineProperties({
        Method<PlayLine>(env, "playLine"),
        Method<SanLine>(env, "sanLine"),
    });
}

} // namespace binding
