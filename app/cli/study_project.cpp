#include "study_project.h"

#include "core/error.h"

namespace skynnet::cli {

ProjectData loadStudyProject(const std::string& path) {
    ProjectData p = loadProject(path);
    if (const auto problems = p.data.problems(); !problems.empty()) {
        std::string list;
        for (const std::string& s : problems) list += (list.empty() ? "" : "; ") + s;
        throw Error("--project " + path + ": data file " + list +
                    " (open the project in the app to point to the data)");
    }
    if (p.data.testFraction <= 0 && p.data.test.path.empty())
        throw Error("--project " + path +
                    ": the project has no test set (a study compares test metrics): give it a test fraction above 0 or "
                    "a test file");
    return p;
}

std::vector<std::string> projectRunArgs(const std::string& copyPath, const std::string& reportPath, int threads) {
    std::vector<std::string> args = {"train", "--project", copyPath, "--report", reportPath, "--progress", "json"};
    if (threads > 0) args.insert(args.end(), {"--threads", std::to_string(threads)});
    return args;
}

}  // namespace skynnet::cli
