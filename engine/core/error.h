#pragma once
// One exception type for every user-facing failure: the message names the file, line, field or
// option at fault, so callers can show it as it is.
#include <stdexcept>
#include <string>

namespace skynnet {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace skynnet
