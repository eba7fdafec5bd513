#include "cli_args.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace skynnet::cli {
namespace {

const OptionSpec* findSpec(const std::vector<OptionSpec>& specs, const std::string& name) {
    for (const auto& s : specs)
        if (s.name == name) return &s;
    return nullptr;
}

// Whole-string integer parse; no sign, spaces or trailing text accepted.
template <typename T>
std::optional<T> parseInteger(const std::string& s) {
    T v{};
    const char* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, v);
    if (s.empty() || r.ec != std::errc() || r.ptr != end) return std::nullopt;
    return v;
}

std::optional<double> parseNumber(const std::string& s) {
    if (s.empty() || std::isspace(static_cast<unsigned char>(s.front()))) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

}  // namespace

Args Args::parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs) {
    Args out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string word = args[i] == "-h" ? "--help" : args[i];
        if (word.rfind("--", 0) != 0 || word.size() == 2)
            throw UsageError("unexpected argument '" + args[i] + "' (options start with --)");
        std::optional<std::string> inlineValue;
        if (const auto eq = word.find('='); eq != std::string::npos) {
            inlineValue = word.substr(eq + 1);
            word.resize(eq);
        }
        const OptionSpec* spec = findSpec(specs, word);
        if (!spec) throw UsageError("unknown option '" + word + "'");
        if (out.has(word)) fail(word, "given more than once");
        if (spec->valueName.empty()) {
            if (inlineValue) fail(word, "takes no value");
            out.values_[word] = "";
            continue;
        }
        if (inlineValue) {
            out.values_[word] = *inlineValue;
        } else {
            // A following option word is not taken as the value: "--save --report r.json" is a
            // forgotten value, not a model called "--report".
            if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                fail(word, "expects a value (" + spec->valueName + ")");
            out.values_[word] = args[++i];
        }
    }
    return out;
}

void Args::fail(const std::string& name, const std::string& problem) { throw UsageError(name + ": " + problem); }

std::optional<std::string> Args::text(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::string Args::text(const std::string& name, const std::string& fallback) const {
    return text(name).value_or(fallback);
}

std::string Args::required(const std::string& name) const {
    const auto v = text(name);
    if (!v) throw UsageError(name + " is required");
    if (v->empty()) fail(name, "expects a non-empty value");
    return *v;
}

int Args::positiveInt(const std::string& name, int fallback) const {
    const auto v = text(name);
    if (!v) return fallback;
    const auto n = parseInteger<int>(*v);
    if (!n || *n < 1) fail(name, "expected a positive integer, got '" + *v + "'");
    return *n;
}

int Args::nonNegativeInt(const std::string& name, int fallback) const {
    const auto v = text(name);
    if (!v) return fallback;
    const auto n = parseInteger<int>(*v);
    if (!n || *n < 0) fail(name, "expected a non-negative integer, got '" + *v + "'");
    return *n;
}

std::uint64_t Args::unsignedInt(const std::string& name, std::uint64_t fallback) const {
    const auto v = text(name);
    if (!v) return fallback;
    const auto n = parseInteger<std::uint64_t>(*v);
    if (!n) fail(name, "expected a non-negative integer, got '" + *v + "'");
    return *n;
}

double Args::positiveNumber(const std::string& name, double fallback) const {
    const auto v = text(name);
    if (!v) return fallback;
    const auto x = parseNumber(*v);
    if (!x || *x <= 0) fail(name, "expected a positive number, got '" + *v + "'");
    return *x;
}

double Args::nonNegativeNumber(const std::string& name, double fallback) const {
    const auto v = text(name);
    if (!v) return fallback;
    const auto x = parseNumber(*v);
    if (!x || *x < 0) fail(name, "expected a non-negative number, got '" + *v + "'");
    return *x;
}

double Args::fraction(const std::string& name, double fallback) const {
    const auto v = text(name);
    if (!v) return fallback;
    const auto x = parseNumber(*v);
    if (!x || *x < 0 || *x >= 1) fail(name, "expected a fraction in [0, 1), got '" + *v + "'");
    return *x;
}

std::string formatOptions(const std::vector<OptionSpec>& specs) {
    std::size_t width = 0;
    std::vector<std::string> heads;
    for (const auto& s : specs) {
        heads.push_back(s.valueName.empty() ? s.name : s.name + " " + s.valueName);
        width = std::max(width, heads.back().size());
    }
    std::string out = "Options:\n";
    for (std::size_t i = 0; i < specs.size(); ++i)
        out += "  " + heads[i] + std::string(width - heads[i].size() + 2, ' ') + specs[i].help + "\n";
    return out;
}

}  // namespace skynnet::cli
