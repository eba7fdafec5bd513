#include "output_files.h"

#include <unistd.h>

#include <filesystem>
#include <optional>

#include "cli_args.h"
#include "core/error.h"
#include "io/atomic_file.h"

namespace skynnet::cli {

void checkOutputPaths(const std::vector<OutputPath>& outputs) {
    namespace fs = std::filesystem;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const OutputPath& o = outputs[i];
        if (o.path.empty()) continue;
        for (std::size_t j = 0; j < i; ++j) {
            std::error_code ec;
            if (outputs[j].path == o.path || (!outputs[j].path.empty() && fs::equivalent(outputs[j].path, o.path, ec)))
                Args::fail(o.option, "names the same file as " + outputs[j].option + " ('" + o.path + "')");
        }
        std::error_code ec;
        const fs::path p(o.path);
        if (fs::is_directory(p, ec)) throw Error("cannot write " + o.option + " " + o.path + ": it is a directory");
        const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
        if (!fs::is_directory(dir, ec))
            throw Error("cannot write " + o.option + " " + o.path + ": directory '" + dir.string() + "' does not exist");
        if (::access(dir.c_str(), W_OK) != 0)
            throw Error("cannot write " + o.option + " " + o.path + ": directory '" + dir.string() + "' is not writable");
    }
}

void writeReportAndModel(const std::string& reportPath, const std::string& reportText, const std::string& modelPath,
                         const std::function<void(const std::string&)>& save) {
    std::optional<AtomicFileWriter> reportFile;
    if (!reportPath.empty()) {
        reportFile.emplace(reportPath);
        reportFile->write(reportText);
    }
    if (!modelPath.empty()) save(modelPath);
    if (!reportFile) return;
    try {
        reportFile->commit();
    } catch (...) {
        std::error_code ec;
        if (!modelPath.empty()) std::filesystem::remove(modelPath, ec);
        throw;
    }
}

}  // namespace skynnet::cli
