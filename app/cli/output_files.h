#pragma once
// Output files of the commands. Every file is written atomically and only after the work
// succeeded; these checks run first so that a long training is not lost to a typo in a path.
#include <functional>
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

// A report and a model written so that either both are replaced or neither is: the report is
// staged first and committed after the model; if that commit fails, the model that was there
// before is put back (or the just-saved one removed, if there was none).
// An empty path skips that file; `save` writes the model (atomically) to modelPath.
void writeReportAndModel(const std::string& reportPath, const std::string& reportText, const std::string& modelPath,
                         const std::function<void(const std::string&)>& save);

}  // namespace skynnet::cli
