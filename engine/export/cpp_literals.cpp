#include "export/cpp_literals.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace skynnet {

std::string cppFloatLiteral(float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", double(f));
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + "f";
}

std::string cppStringLiteral(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", unsigned(c));
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

std::string cppCommentText(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if ((unsigned char)c < 0x20 || c == '\\') c = c == '\\' ? '/' : ' ';
    return out;
}

void writeCppFloats(std::ostream& out, const std::string& name, const float* data, std::size_t count,
                    const std::string& what) {
    out << "inline constexpr float " << name << "[" << count << "] = {";
    for (std::size_t i = 0; i < count; ++i) {
        if (!std::isfinite(data[i]))
            throw Error(what + " holds a value that is not finite (" + std::to_string(data[i]) + ")");
        out << (i % 8 == 0 ? "\n    " : " ") << cppFloatLiteral(data[i]) << (i + 1 < count ? "," : "");
    }
    out << "};\n";
}

std::string cppJoined(const std::vector<std::string>& items, const std::string& separator) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
    return out;
}

std::string cppJoinedInts(const std::vector<int>& values) {
    std::vector<std::string> texts;
    for (int v : values) texts.push_back(std::to_string(v));
    return cppJoined(texts);
}

void checkCppNamespace(const std::string& ns) {
    std::size_t start = 0;
    while (true) {
        const std::size_t end = ns.find("::", start);
        const std::string part = ns.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const bool ok = !part.empty() && !std::isdigit((unsigned char)part[0]) &&
                        std::all_of(part.begin(), part.end(),
                                    [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
        if (!ok) throw Error("'" + ns + "' is not a valid C++ namespace name");
        if (end == std::string::npos) break;
        start = end + 2;
    }
}

}  // namespace skynnet
