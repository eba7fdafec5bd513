#include "output_files.h"

#include <unistd.h>

#include <cstdlib>
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
            throw Error("cannot write " + o.option + " " + o.path + ": directory '" + dir.string() +
                        "' does not exist");
        if (::access(dir.c_str(), W_OK) != 0)
            throw Error("cannot write " + o.option + " " + o.path + ": directory '" + dir.string() +
                        "' is not writable");
    }
}

namespace {

// A second name for the model being replaced (a hard link: no copy), so that the previous model
// can be put back whole if the report fails after the model was saved. Named like the writer's
// temporary files, so a kill in between leaves nothing for good. Empty when there is no previous
// model (existed() false) or the file system has no hard links.
class PreviousModel {
public:
    explicit PreviousModel(const std::string& path) {
        char* real = ::realpath(path.c_str(), nullptr);  // a link is saved through: keep its destination
        if (!real) return;
        path_ = real;
        std::free(real);
        const std::string backup = temporaryPathFor(path_);
        if (::link(path_.c_str(), backup.c_str()) == 0) backup_ = backup;
    }
    ~PreviousModel() {
        if (!backup_.empty()) ::unlink(backup_.c_str());
    }
    PreviousModel(const PreviousModel&) = delete;
    PreviousModel& operator=(const PreviousModel&) = delete;

    bool existed() const { return !path_.empty(); }
    // True when the previous model is in place again.
    bool restore() {
        if (backup_.empty() || ::rename(backup_.c_str(), path_.c_str()) != 0) return false;
        backup_.clear();
        return true;
    }

private:
    std::string path_, backup_;
};

}  // namespace

void writeReportAndModel(const std::string& reportPath, const std::string& reportText, const std::string& modelPath,
                         const std::function<void(const std::string&)>& save) {
    std::optional<AtomicFileWriter> reportFile;
    if (!reportPath.empty()) {
        reportFile.emplace(reportPath);
        reportFile->write(reportText);
    }
    std::optional<PreviousModel> previous;
    if (reportFile && !modelPath.empty()) previous.emplace(modelPath);
    if (!modelPath.empty()) save(modelPath);
    if (!reportFile) return;
    try {
        reportFile->commit();
    } catch (...) {
        // Neither file changes: the previous model goes back, or the new one goes if there was
        // none. Without a backup the new model stays rather than leave no model at all.
        if (previous && !previous->restore() && !previous->existed()) {
            std::error_code ec;
            std::filesystem::remove(modelPath, ec);
        }
        throw;
    }
}

}  // namespace skynnet::cli
