#pragma once
// Field readers shared by the file formats: each error names the field at fault.
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "io/json.h"

namespace skynnet {

// Runs one of the engine's name parsers and prefixes its message with the field at fault.
template <typename Parse>
auto parseNamed(const JsonField& j, Parse parse) {
    const std::string& name = j.asString();
    try {
        return parse(name);
    } catch (const Error& e) {
        throw Error(j.where() + ": " + e.what());
    }
}

inline int intAtLeast(const JsonField& j, int min) {
    const int v = j.get<int>();
    if (v < min) j.fail("must be at least " + std::to_string(min) + ", not " + std::to_string(v));
    return v;
}

// Widths far beyond any real network; the bound keeps parameter counts of a hostile file from
// overflowing 64 bits.
inline constexpr std::int64_t maxUnits = std::int64_t(1) << 24;

// A number with no fractional part, stored as an integer or not.
inline bool isWhole(const JsonField& j) {
    if (j.isInteger()) return true;
    if (!j.isNumber()) return false;
    const double d = j.asDouble();
    return std::isfinite(d) && d == std::trunc(d);
}

inline int intAtLeast(const JsonField& j, std::int64_t min, std::int64_t max, const char* expected) {
    if (!isWhole(j) || j.asDouble() < double(min)) j.fail(std::string("must be ") + expected);
    if (j.asDouble() > double(max)) j.fail("must be at most " + std::to_string(max));
    return int(j.asInt64());
}

inline int positiveInt(const JsonField& j, std::int64_t max = maxUnits) {
    return intAtLeast(j, 1, max, "a positive integer");
}
inline int nonNegativeInt(const JsonField& j, std::int64_t max = INT_MAX) {
    return intAtLeast(j, 0, max, "a non-negative integer");
}

}  // namespace skynnet
