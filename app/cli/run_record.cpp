#include "run_record.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "core/error.h"
#include "run/runner.h"

namespace skynnet::cli {
namespace {

bool isRealFile(const std::string& path) { return !path.empty() && path.rfind("builtin:", 0) != 0; }

}  // namespace

void RunLog::add(const std::string& line) {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[16];
    std::strftime(stamp, sizeof stamp, "%H:%M:%S  ", &local);
    std::lock_guard lock(mutex_);
    text_ += stamp + line + '\n';
}

std::string RunLog::text() const {
    std::lock_guard lock(mutex_);
    return text_;
}

std::string newRunId(const std::vector<ProjectRun>& runs) {
    const auto taken = [&runs](const std::string& id) {
        return std::any_of(runs.begin(), runs.end(), [&](const ProjectRun& r) { return r.id == id; });
    };
    std::size_t n = runs.size() + 1;
    while (taken("run-" + std::to_string(n))) ++n;
    return "run-" + std::to_string(n);
}

RunSettings runSettingsOf(const ProjectData& p) {
    RunSettings s;
    s.data = p.data;
    for (ProjectDataFile* f : {&s.data.train, &s.data.trainLabels, &s.data.test, &s.data.testLabels}) {
        f->status = DataFileStatus::Unchecked;  // where the files were found is not the run's business
        if (f->fingerprint || !isRealFile(f->path)) continue;
        try {
            f->fingerprint = fileFingerprint(f->path);
        } catch (const Error&) {
            // The data was just loaded from it; a file that vanished since is recorded by its path
            // alone, as the app records one it could not hash.
        }
    }
    s.network = p.network;
    s.split = p.split;
    s.training = p.training;
    return s;
}

SubmodelEvents loggingFinishes(SubmodelEvents events, RunLog& log) {
    events.onSubmodelFinished = [next = std::move(events.onSubmodelFinished), &log](int i, const TrainResult& r) {
        log.add(submodelFinishLine(i, r));
        if (next) next(i, r);
    };
    return events;
}

}  // namespace skynnet::cli
