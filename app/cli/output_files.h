#pragma once
// Output files of the commands. Every file is written atomically and only after the work
// succeeded; these checks run first so that a long training is not lost to a typo in a path.
#include <string>
#include <vector>

namespace skynnet::cli {

struct OutputPath {
    std::string option;  // "--save"
    std::string path;    // empty: not requested
};

// Throws Error naming the option when a path cannot be written (missing or read-only directory,
// an existing directory of that name), and UsageError when two options name the same file.
void checkOutputPaths(const std::vector<OutputPath>& outputs);

}  // namespace skynnet::cli
