#pragma once
// Field readers shared by the file formats: each error names the field at fault.
#include <string>

#include "core/error.h"
#include "io/json.h"

namespace skynnet {

// Runs one of the engine's name parsers and prefixes its message with the field at fault.
template <typename Parse>
auto parseNamed(const Json& j, Parse parse) {
    const std::string& name = j.asString();
    try {
        return parse(name);
    } catch (const Error& e) {
        throw Error(j.where() + ": " + e.what());
    }
}

inline int intAtLeast(const Json& j, int min) {
    const int v = j.get<int>();
    if (v < min) j.fail("must be at least " + std::to_string(min) + ", not " + std::to_string(v));
    return v;
}

}  // namespace skynnet
