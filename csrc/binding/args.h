// args.h - what every binding file shares: reading arguments, throwing
// errors, and defining exports.
//
// Errors follow one model. A wrong argument type is a TypeError and a value
// out of range a RangeError, each naming the argument; an engine status is an
// Error whose `code` is the C enum name ("CN_ERR_FEN" with a `field`,
// "CN_ERR_ILLEGAL_MOVE", "CN_ERR_BAD_MOVE", "CN_ERR_BAD_POSITION",
// "CN_ERR_INIT", "CN_ERR_NO_MEMORY", ...), which src/core/errors.ts maps
// onto the package's error classes. Helpers that read an argument return
// false (or nullptr) with the exception already pending.
#ifndef CN_BINDING_ARGS_H
#define CN_BINDING_ARGS_H

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

#include "chess_native.h"
#include "boundary.h"
#include "perft_job.h"
#include "san.h"

namespace binding {

// --- errors --------------------------------------------------------------

void ThrowType(napi_env env, const char *message);
void ThrowRange(napi_env env, const char *message);
// An Error with `code` set to the status's C name: thrown, or made for an
// async worker's callback.
void ThrowStatus(napi_env env, cn_status status, const char *message);
Napi::Error StatusError(napi_env env, cn_status status, const char *message);
// The C names of statuses ("CN_ERR_FEN"), the `code` of the errors above;
// whatever cn_status_name says for values outside the enum.
const char *StatusName(cn_status status);

// --- positions and typed arrays ------------------------------------------
//
// ViewBytes, LoadPosition and ReadShortString are defined here, inline:
// every call goes through them, and a call into another file is a
// measurable share of the hot paths (fenParseList, legalMoves).

// The bytes of any ArrayBufferView (typed array or DataView) exactly
// `size` bytes long, or nullptr (nothing thrown).
inline void *ViewBytes(napi_env env, napi_value value, size_t size) {
    napi_typedarray_type type;
    size_t length = 0;
    void *data = nullptr;
    // Fails (without throwing) for anything but a typed array.
    if (napi_get_typedarray_info(env, value, &type, &length, &data, nullptr, nullptr) == napi_ok) {
        size_t element = 1;
        switch (type) {
        case napi_int16_array:
        case napi_uint16_array:
            element = 2;
            break;
        case napi_int32_array:
        case napi_uint32_array:
        case napi_float32_array:
            element = 4;
            break;
        case napi_float64_array:
        case napi_bigint64_array:
        case napi_biguint64_array:
            element = 8;
            break;
        default:
            element = 1;
            break;
        }
        return length * element == size ? data : nullptr;
    }
    bool is_dataview = false;
    if (napi_is_dataview(env, value, &is_dataview) == napi_ok && is_dataview) {
        napi_value buffer;
        size_t offset = 0;
        if (napi_get_dataview_info(env, value, &length, &data, &buffer, &offset) != napi_ok) return nullptr;
        return length == size ? data : nullptr;
    }
    return nullptr;
}

// Copies the position view `value` into *pos and validates it: a corrupted
// buffer is a CN_ERR_BAD_POSITION error, never a crash. Returns the view's
// bytes, or nullptr with an exception pending.
inline void *LoadPosition(napi_env env, napi_value value, cn_position *pos) {
    void *data = ViewBytes(env, value, sizeof(cn_position));
    if (!data) {
        ThrowType(env, "position must be an ArrayBufferView of positionBytes bytes");
        return nullptr;
    }
    std::memcpy(pos, data, sizeof(cn_position));
    if (cn_position_validate(pos) != CN_OK) {
        ThrowStatus(env, CN_ERR_BAD_POSITION, "position bytes are not a consistent position");
        return nullptr;
    }
    return data;
}

// Writes *pos into `value`, which must be a view of exactly positionBytes
// bytes (`what` names it in the TypeError otherwise).
bool StorePosition(napi_env env, napi_value value, const cn_position *pos, const char *what);

template <typename T> struct ArrayType;
template <> struct ArrayType<uint8_t> {
    static constexpr napi_typedarray_type value = napi_uint8_array;
};
template <> struct ArrayType<uint16_t> {
    static constexpr napi_typedarray_type value = napi_uint16_array;
};
template <> struct ArrayType<uint64_t> {
    static constexpr napi_typedarray_type value = napi_biguint64_array;
};
template <> struct ArrayType<double> {
    static constexpr napi_typedarray_type value = napi_float64_array;
};

// The elements of `value` when it is a T typed array of at least min_length
// elements, else nullptr (nothing thrown). One napi_get_typedarray_info
// call, which also fails for values that are not typed arrays; the Napi::
// wrappers would make one call per property (legalMoves is a hot path).
template <typename T> T *ArrayArg(napi_env env, napi_value value, size_t min_length, size_t *length = nullptr) {
    napi_typedarray_type type;
    size_t elements = 0;
    void *data = nullptr;
    if (napi_get_typedarray_info(env, value, &type, &elements, &data, nullptr, nullptr) != napi_ok) return nullptr;
    if (type != ArrayType<T>::value || elements < min_length || data == nullptr) return nullptr;
    if (length) *length = elements;
    return static_cast<T *>(data);
}

// As ArrayArg, throwing a TypeError with `what` when it is not one.
template <typename T>
T *ArrayArgOrThrow(napi_env env, napi_value value, size_t min_length, const char *what, size_t *length = nullptr) {
    T *data = ArrayArg<T>(env, value, min_length, length);
    if (!data) ThrowType(env, what);
    return data;
}

// --- numbers and strings -------------------------------------------------

// An integer argument from min to max: a TypeError "<name> must be a number"
// for anything but a number, a RangeError "<name> must be an integer from
// <min> to <max>" for any other value outside the range.
bool IntegerArg(napi_env env, napi_value value, const char *name, double min, double max, double *out);

// The perft depth argument, 0 .. limits.maxDepth.
bool DepthArg(napi_env env, napi_value value, int *depth);

// wide[0, n) as bytes in out[0, n): ASCII as it is, any other unit 0x80.
// out has room for max_length + 2 bytes.
inline void NarrowToAscii(const char16_t *wide, size_t n, size_t max_length, char *out) {
    size_t i = 0;
#if defined(__SSE2__) || defined(_M_X64)
    // 16 units at a time while all are ASCII, which packus then narrows
    // exactly; the first block with another unit, and the last few units,
    // go through the loop below. Short strings (moves) skip it, which also
    // shows the compiler that it never stores past a small out.
    const __m128i non_ascii = _mm_set1_epi16(static_cast<short>(0xff80));
    for (; max_length >= 16 && i + 16 <= n; i += 16) {
        const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i *>(wide + i));
        const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i *>(wide + i + 8));
        const __m128i outside = _mm_and_si128(_mm_or_si128(low, high), non_ascii);
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(outside, _mm_setzero_si128())) != 0xffff) break;
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), _mm_packus_epi16(low, high));
    }
#endif
    // Kept a loop: unrolled for every length up to the limit, it made
    // fenParseList about 8% slower.
#if defined(__clang__)
#pragma clang loop unroll(disable)
#elif defined(__GNUC__)
#pragma GCC unroll 1
#endif
    for (; i < n; i++) out[i] = wide[i] < 0x80 ? static_cast<char>(wide[i]) : static_cast<char>(0x80);
}

// A string argument of at most max_length characters, copied into buf
// (room for max_length + 2 bytes) with a NUL. Longer strings set
// *too_long and are never cut short silently. Every byte the engine's
// parsers accept is ASCII, so the string is read as UTF-16 (for V8's
// one-byte strings a plain widening copy, cheaper than encoding UTF-8) and
// any unit outside ASCII becomes 0x80, which every parser rejects.
// A TypeError `what` when value is not a string.
inline bool ReadShortString(napi_env env, napi_value value, char *buf, size_t max_length, size_t *length,
                            bool *too_long, const char *what) {
    char16_t wide[CN_FEN_MAX_LENGTH + 2];
    size_t cap = max_length + 2; // napi copies at most cap - 1 units: one more than max_length shows a longer string
    if (cap > sizeof wide / sizeof wide[0]) cap = sizeof wide / sizeof wide[0];
    size_t n = 0;
    // One call: napi_get_value_string_utf16 itself fails for a value that is not a string.
    if (napi_get_value_string_utf16(env, value, wide, cap, &n) != napi_ok) {
        ThrowType(env, what);
        return false;
    }
    if (n >= cap) n = cap - 1; // napi never copies more than cap - 1 units; the compiler cannot know
    NarrowToAscii(wide, n, max_length, buf);
    buf[n] = '\0';
    *length = n;
    *too_long = n > max_length;
    return true;
}

// How a single-move argument is written.
enum class Notation { kUci, kSan };

// Reads the move string at `value` and finds the legal move it names in
// *pos. Malformed: CN_ERR_BAD_MOVE; illegal (or, for SAN, ambiguous):
// CN_ERR_ILLEGAL_MOVE. Strings longer than the line reader accepts
// (CN_LINE_UCI_MAX / CN_LINE_SAN_MAX) are malformed, as they are in a line.
bool ReadMove(napi_env env, napi_value value, const cn_position *pos, Notation notation, cn_move *move);

// --- results ---------------------------------------------------------------

// A count as a number when it is exact in a double, else as a bigint.
Napi::Value Count(napi_env env, uint64_t count);

// sans[0..count) (count <= CN_MAX_MOVES) joined by single spaces, as one
// JS string: one string crossing for a whole list.
Napi::Value JoinSans(napi_env env, const char (*sans)[CN_SAN_MAX], int count);

// --- exports ---------------------------------------------------------------

// Every export is enumerable and read-only.
constexpr napi_property_attributes kExport = napi_enumerable;

// A function export through node-addon-api's wrapping.
template <Napi::Value (*Callback)(const Napi::CallbackInfo &)>
Napi::PropertyDescriptor Method(Napi::Env env, const char *name) {
    return Napi::PropertyDescriptor::Value(name, Napi::Function::New<Callback>(env, name), kExport);
}

// A function export as a plain N-API callback, for the hot paths: it skips
// node-addon-api's per-call wrapping (CallbackInfo, exception scope).
Napi::PropertyDescriptor RawMethod(Napi::Env env, const char *name, napi_callback callback);

Napi::PropertyDescriptor Constant(const char *name, Napi::Value value);

} // namespace binding

#endif // CN_BINDING_ARGS_H
