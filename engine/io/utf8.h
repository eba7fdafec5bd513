#pragma once
#include <cstddef>
#include <string_view>

namespace skynnet {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not valid (overlong forms,
// surrogates and values above U+10FFFF included). Shared by the JSON writer and parser.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i);

}  // namespace skynnet
