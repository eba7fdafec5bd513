#pragma once
// The C++ source text the header exporters write: literals that read back exactly, comments that
// cannot end early, and constexpr float arrays. Shared by cpp_export.cpp and the sequence and
// tokenizer parts (cpp_sequence_layers.cpp, cpp_text_tokenizer.cpp).
#include <cstddef>
#include <ostream>
#include <string>

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

// Throws Error unless `ns` is a C++ namespace name, plain or nested ("acme::models").
void checkCppNamespace(const std::string& ns);

}  // namespace skynnet
