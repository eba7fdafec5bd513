#pragma once
// Command-line options of one sub-command: a table of accepted options, strict parsing (unknown
// options, stray arguments and repeated options are usage errors) and typed reads whose errors
// name the option and the bad value, e.g. "--epochs: expected a positive integer, got 'x'".
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace skynnet::cli {

// A mistake in how the tool was called (exit status 2), as opposed to skynnet::Error, a problem
// with the data or a model (exit status 1).
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

struct OptionSpec {
    std::string name;       // "--epochs"
    std::string valueName;  // "E"; empty for a flag that takes no value
    std::string help;       // one line; "(default ...)" included where there is one
};

class Args {
public:
    // Parses args (the words after the sub-command) against specs. "--name value" and
    // "--name=value" are both accepted; "-h" is "--help".
    static Args parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs);

    bool has(const std::string& name) const { return values_.count(name) > 0; }
    bool flag(const std::string& name) const { return has(name); }
    std::optional<std::string> text(const std::string& name) const;
    std::string text(const std::string& name, const std::string& fallback) const;
    // Throws UsageError("--data is required") when absent.
    std::string required(const std::string& name) const;

    int positiveInt(const std::string& name, int fallback) const;
    int nonNegativeInt(const std::string& name, int fallback) const;
    std::uint64_t unsignedInt(const std::string& name, std::uint64_t fallback) const;
    double positiveNumber(const std::string& name, double fallback) const;
    double nonNegativeNumber(const std::string& name, double fallback) const;
    // A value in [0, 1).
    double fraction(const std::string& name, double fallback) const;

    // Fails with a UsageError naming the option: "<name>: <problem>".
    [[noreturn]] static void fail(const std::string& name, const std::string& problem);

private:
    std::map<std::string, std::string> values_;
};

// "Options:" followed by one aligned line per option.
std::string formatOptions(const std::vector<OptionSpec>& specs);

}  // namespace skynnet::cli
