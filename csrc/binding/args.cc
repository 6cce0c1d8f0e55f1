// args.cc - argument reading, errors and export helpers (see args.h).
#include "args.h"

#include <cstdio>
#include <cstring>

#include "boundary.h"
#include "line.h"

namespace binding {

namespace {

constexpr uint64_t kMaxSafeInteger = 9007199254740991ULL; // 2^53 - 1

} // namespace

void ThrowType(napi_env env, const char *message) { Napi::TypeError::New(env, message).ThrowAsJavaScriptException(); }

void ThrowRange(napi_env env, const char *message) { Napi::RangeError::New(env, message).ThrowAsJavaScriptException(); }

// The engine names its own statuses (cn_status_name), so a status added in C
// reaches JS with its name and no list here to keep in step.
const char *StatusName(cn_status status) { return cn_status_name(status); }

Napi::Error StatusError(napi_env env, cn_status status, const char *message) {
    Napi::Error error = Napi::Error::New(env, message);
    error.Set("code", Napi::String::New(env, StatusName(status)));
    return error;
}

void ThrowStatus(napi_env env, cn_status status, const char *message) {
    StatusError(env, status, message).ThrowAsJavaScriptException();
}

bool StorePosition(napi_env env, napi_value value, const cn_position *pos, const char *what) {
    void *data = ViewBytes(env, value, sizeof(cn_position));
    if (!data) {
        ThrowType(env, what);
        return false;
    }
    std::memcpy(data, pos, sizeof(cn_position));
    return true;
}

bool IntegerArg(napi_env env, napi_value value, const char *name, double min, double max, double *out) {
    double number = 0;
    char message[128];
    // napi_get_value_double fails for anything but a number.
    if (napi_get_value_double(env, value, &number) != napi_ok) {
        std::snprintf(message, sizeof message, "%s must be a number", name);
        ThrowType(env, message);
        return false;
    }
    // Tested before any conversion: converting a double out of int64's range is undefined.
    if (!(number >= min && number <= max) || number != static_cast<double>(static_cast<int64_t>(number))) {
        std::snprintf(message, sizeof message, "%s must be an integer from %.0f to %.0f", name, min, max);
        ThrowRange(env, message);
        return false;
    }
    *out = number;
    return true;
}

bool DepthArg(napi_env env, napi_value value, int *depth) {
    double number = 0;
    if (!IntegerArg(env, value, "depth", 0, CN_MAX_PERFT_DEPTH, &number)) return false;
    *depth = static_cast<int>(number);
    return true;
}

namespace {

// ReadMove for one notation: its length limit a constant, so the string
// copy is a short fixed loop.
template <Notation kNotation> bool FindMove(napi_env env, napi_value value, const cn_position *pos, cn_move *move) {
    constexpr bool san = kNotation == Notation::kSan;
    constexpr size_t max_length = san ? CN_LINE_SAN_MAX : CN_LINE_UCI_MAX;
    const char *malformed = san ? "not a SAN move" : "not a UCI move";
    char text[max_length + 2];
    size_t length = 0;
    bool too_long = false;
    if (!ReadShortString(env, value, text, max_length, &length, &too_long, "move must be a string")) return false;
    if (too_long) {
        ThrowStatus(env, CN_ERR_BAD_MOVE, malformed);
        return false;
    }
    cn_status status = san ? cn_move_from_san(pos, text, length, move) : cn_move_from_uci(pos, text, length, move);
    switch (status) {
    case CN_OK:
        return true;
    case CN_ERR_ILLEGAL_MOVE:
        ThrowStatus(env, status, san ? "illegal or ambiguous move" : "illegal move");
        return false;
    default:
        ThrowStatus(env, CN_ERR_BAD_MOVE, malformed);
        return false;
    }
}

} // namespace

bool ReadMove(napi_env env, napi_value value, const cn_position *pos, Notation notation, cn_move *move) {
    return notation == Notation::kSan ? FindMove<Notation::kSan>(env, value, pos, move)
                                      : FindMove<Notation::kUci>(env, value, pos, move);
}

Napi::Value Count(napi_env env, uint64_t count) {
    if (count <= kMaxSafeInteger) return Napi::Number::New(env, static_cast<double>(count));
    return Napi::BigInt::New(env, count);
}

Napi::Value JoinSans(napi_env env, const char (*sans)[CN_SAN_MAX], int count) {
    char joined[CN_MAX_MOVES * CN_SAN_MAX];
    size_t length = 0;
    for (int i = 0; i < count && i < CN_MAX_MOVES; i++) {
        if (i) joined[length++] = ' ';
        size_t k = std::strlen(sans[i]);
        std::memcpy(joined + length, sans[i], k);
        length += k;
    }
    napi_value text = nullptr;
    if (napi_create_string_latin1(env, joined, length, &text) != napi_ok) return Napi::Value();
    return Napi::Value(env, text);
}

Napi::PropertyDescriptor RawMethod(Napi::Env env, const char *name, napi_callback callback) {
    napi_value fn = nullptr;
    if (napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &fn) != napi_ok) {
        Napi::Error::New(env, "cannot create a binding function").ThrowAsJavaScriptException();
    }
    return Napi::PropertyDescriptor::Value(name, Napi::Value(env, fn), kExport);
}

Napi::PropertyDescriptor Constant(const char *name, Napi::Value value) {
    return Napi::PropertyDescriptor::Value(name, value, kExport);
}

} // namespace binding
