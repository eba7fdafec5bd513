#pragma once
// The C++ source text the header exporters write: literals that read back exactly, comments that
// cannot end early, joined lists and constexpr float arrays. Shared by every cpp_*.cpp of the
// header export (cpp_export.h).
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace skynnet {

// The shortest text that reads back as the identical float, as a float literal ("1.0f", "-2.5e-07f").
std::string cppFloatLiteral(float f);
// A C++ string literal: quotes, backslashes and control bytes escaped (octal: a hex escape would
// swallow a following hex digit); UTF-8 bytes pass through.
std::string cppStringLiteral(const std::string& s);
// Text safe inside a // comment: no line breaks, and no backslash that could splice the next line.
std::string cppCommentText(const std::string& s);
// "inline constexpr float NAME[count] = {...};", eight values to a line. Throws Error naming `what`
// if a value is not finite.
void writeCppFloats(std::ostream& out, const std::string& name, const float* data, std::size_t count,
                    const std::string& what);

// The items with `separator` between them ("a, b, c"), for comments and brace lists.
std::string cppJoined(const std::vector<std::string>& items, const std::string& separator = ", ");
// The numbers in decimal, joined by ", ".
std::string cppJoinedInts(const std::vector<int>& values);

// Throws Error unless `ns` is a C++ namespace name, plain or nested ("acme::models").
void checkCppNamespace(const std::string& ns);

}  // namespace skynnet
