// `skynnet-cli study`: the runs of a split study one after another as child train commands, each
// kept in --out DIR/runs as it finishes, then the summary files. See study_options.h for the
// command line, study_child.h for how runs are started and stopped.
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <unistd.h>

#include "commands.h"
#include "core/error.h"
#include "core/parallel.h"
#include "io/atomic_file.h"
#include "json_progress.h"
#include "mpi_launch.h"
#include "study_chart.h"
#include "study_child.h"
#include "study_outputs.h"
#include "study_project.h"
#include "text_format.h"

namespace skynnet::cli {
namespace {

namespace fs = std::filesystem;

struct RunFiles {
    std::string report, model, log;
    std::string project;  // with --project: the copy the run trains
};

RunFiles filesOf(const StudyOptions& o, const StudyRunSpec& run) {
    const std::string base = o.outDir + "/runs/" + run.name();
    return {base + ".json", base + ".skym", base + ".log", base + ".skynnet"};
}

// A finished run's figures, from its report (and with --project its trained copy).
StudyRun readRun(const StudyOptions& o, const StudyRunSpec& spec, const RunFiles& f) {
    return o.onProject() ? readProjectRun(spec, f.report, f.project, f.model) : readRunReport(spec, f.report);
}

// With --progress json: the aggregates of the runs finished so far, without the inference figures
// (measured once all runs are done), so that a front end shows a stopped study's table too.
void writePartialSummary(const std::vector<StudyRun>& runs, const StudyOptions& o) {
    writeEvent(Json::object({{"event", "partial_summary"}, {"summary", summaryJson(summarizeStudy(runs, o))}}));
}

// A word as a shell would need it.
std::string shellWord(const std::string& w) {
    if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+@%") ==
                          std::string::npos)
        return w;
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string commandText(const std::vector<std::string>& words) {
    std::string s;
    for (const std::string& w : words) s += (s.empty() ? "" : " ") + shellWord(w);
    return s;
}

void prepareFolder(const StudyOptions& o) {
    std::error_code ec;
    fs::create_directories(o.outDir + "/runs", ec);
    if (ec) throw Error("--out " + o.outDir + ": cannot create the folder " + o.outDir + "/runs: " + ec.message());
    if (::access((o.outDir + "/runs").c_str(), W_OK) != 0) throw Error("--out " + o.outDir + ": the folder is not writable");
}

// The study already in the folder must be this one; a new folder records this study's options.
void checkOrRecordSetup(const StudyOptions& o) {
    const std::string path = o.outDir + "/study_options.json";
    if (fs::exists(path)) {
        checkSameStudy(parseJson(readFile(path), path), o, path);
        return;
    }
    writeFileAtomically(path, dumpJson(o.setupJson(), 2) + "\n");
}

// The last "skynnet-cli: <message>" line of a run's log: why it failed, in its own words.
std::string failureIn(const std::string& logPath) {
    std::string text;
    try {
        text = readFile(logPath);
    } catch (const Error&) {
        return "";
    }
    const std::string prefix = "skynnet-cli: ";
    std::string found;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        if (text.compare(at, prefix.size(), prefix) == 0) found = text.substr(at + prefix.size(), end - at - prefix.size());
        at = end + 1;
    }
    return found;
}

std::string durationText(double seconds) {
    const long s = long(seconds + 0.5);
    if (s < 60) return std::to_string(s) + " s";
    if (s < 3600) return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
    return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
}

// The wall time the runs not finished yet will take: each like the finished runs of its
// configuration, or like the finished runs on average while its configuration has none.
std::optional<double> remainingSeconds(const std::vector<StudyRun>& runs, const std::vector<bool>& pending) {
    std::map<std::string, std::pair<double, int>> byConfig;
    double all = 0;
    int count = 0;
    for (const StudyRun& r : runs) {
        if (!r.finished) continue;
        auto& c = byConfig[r.spec.config.name()];
        c.first += r.wallSeconds;
        ++c.second;
        all += r.wallSeconds;
        ++count;
    }
    double left = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!pending[i]) continue;
        const auto it = byConfig.find(runs[i].spec.config.name());
        if (it != byConfig.end()) left += it->second.first / it->second.second;
        else if (count > 0) left += all / count;
        else return std::nullopt;
    }
    return left;
}

Json runEvent(const char* event, int index, const StudyRun& run, int machines) {
    Json e = Json::object({{"event", event}, {"index", index + 1}});
    const Json figures = runJson(run, machines);  // a named value: items() only refers to it
    for (const auto& [key, value] : figures.items()) e[key] = value;
    return e;
}

std::string metricText(const StudyRun& r) {
    if (!r.finished) return "failed: " + r.error;
    return r.metricName + " " + fixed(r.metric, 4) + ", wall " + fixed(r.wallSeconds, 2) + " s";
}

}  // namespace

int runStudy(const std::vector<std::string>& words) {
    if (progressFormatIn(words) == ProgressFormat::Json) reportErrorsAsJson();
    const StudyOptions o = parseStudyOptions(words);
    if (o.help) {
        std::cout << studyHelp();
        return exitOk;
    }
    const bool json = o.progress == ProgressFormat::Json;
    std::vector<std::string> full = {"skynnet-cli", "study"};
    full.insert(full.end(), words.begin(), words.end());
    const std::string commandLine = commandText(full);
    prepareFolder(o);
    checkOrRecordSetup(o);

    const std::vector<StudyRunSpec> specs = studyRuns(o);
    const int total = int(specs.size());
    std::vector<StudyRun> runs(specs.size());
    std::vector<bool> pending(specs.size(), true);
    int reused = 0;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        runs[i].spec = specs[i];
        const RunFiles f = filesOf(o, specs[i]);
        if (!fs::exists(f.report) || !(fs::exists(f.model) || (o.onProject() && fs::exists(f.project)))) continue;
        try {
            runs[i] = readRun(o, specs[i], f);
            runs[i].reused = true;
            pending[i] = false;
            ++reused;
        } catch (const Error& e) {
            std::fprintf(stderr, "study: running %s again: %s\n", specs[i].name().c_str(), e.what());
        }
    }
    if (json) {
        Json list = Json::array();
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const StudyConfig& c = specs[i].config;
            list.push_back(Json::object({{"index", int(i) + 1},
                                         {"run", specs[i].name()},
                                         {"config", c.name()},
                                         {"submodels", c.submodels},
                                         {"strategy", c.original() ? "original" : c.strategy.empty() ? "auto" : c.strategy},
                                         {"scale_epochs", c.scaleEpochs.empty() ? "default" : c.scaleEpochs},
                                         {"seed", specs[i].seed},
                                         {"done", !pending[i]}}));
        }
        Json configs = Json::array();
        for (const StudyConfig& c : o.configs()) configs.push_back(c.name());
        writeEvent(Json::object({{"event", "plan"}, {"out", o.outDir}, {"runs", list}, {"configurations", configs}, {"seeds", o.seeds}}));
        for (std::size_t i = 0; i < specs.size(); ++i)
            if (!pending[i]) writeEvent(runEvent("run_finished", int(i), runs[i], o.machines));
        if (reused > 0) writePartialSummary(runs, o);
    }
    std::fprintf(stderr, "study: %d runs (%zu configurations x %zu seeds) in %s, %d already done\n", total,
                 o.configs().size(), o.seeds.size(), o.outDir.c_str(), reused);

    const std::string self = selfExecutable();
    std::optional<ProjectData> project;
    if (o.onProject()) project = loadStudyProject(o.project);
    bool stopped = false;
    {
        StudyStopGuard guard;
        for (std::size_t i = 0; i < specs.size(); ++i) {
            if (!pending[i]) continue;
            if (guard.stopped()) {
                stopped = true;
                break;
            }
            const RunFiles f = filesOf(o, specs[i]);
            // A run stopped earlier left its checkpoints: this one starts afresh, so its times are whole.
            std::error_code ec;
            fs::remove_all(f.model + ".checkpoint", ec);
            std::vector<std::string> args;
            if (project) {
                fs::remove_all(f.project + ".checkpoint", ec);
                fs::remove(f.model, ec);  // a model left from an earlier copy is not this run's
                saveProject(f.project, runProjectCopy(*project, specs[i]));
                args = projectRunArgs(f.project, f.report, o.train.threadsGiven ? o.train.threads : 0);
            } else {
                args = runTrainArgs(o, specs[i], f.report, f.model);
            }
            std::fprintf(stderr, "study: run %zu/%d %s started (log %s)\n", i + 1, total, specs[i].name().c_str(), f.log.c_str());
            if (json) {
                std::vector<std::string> command = {self};
                command.insert(command.end(), args.begin(), args.end());
                writeEvent(Json::object({{"event", "run_started"},
                                         {"index", int(i) + 1},
                                         {"run", specs[i].name()},
                                         {"config", specs[i].config.name()},
                                         {"seed", specs[i].seed},
                                         {"command", command},
                                         {"log", f.log}}));
            }
            const ChildExit exit = runChild(self, args, f.log);
            StudyRun& run = runs[i];
            if (exit.exitCode == 0 && fs::exists(f.report)) {
                try {
                    run = readRun(o, specs[i], f);
                } catch (const Error& e) {
                    run.error = e.what();
                }
            } else if (exit.stopped) {
                stopped = true;
                break;
            } else {
                const std::string why = failureIn(f.log);
                run.error = exit.describe() + (why.empty() ? "" : ": " + why) + " (see " + f.log + ")";
            }
            pending[i] = false;
            const std::optional<double> left = remainingSeconds(runs, pending);
            std::fprintf(stderr, "study: run %zu/%d %s: %s; %s\n", i + 1, total, specs[i].name().c_str(),
                         metricText(run).c_str(), left ? ("about " + durationText(*left) + " left").c_str() : "time left unknown");
            if (json) {
                Json e = runEvent("run_finished", int(i), run, o.machines);
                e["remaining_seconds"] = left ? Json(*left) : Json();
                writeEvent(e);
                writePartialSummary(runs, o);
            }
            if (exit.stopped) {
                stopped = true;
                break;
            }
        }
        if (guard.stopped()) stopped = true;
        if (stopped) {
            int finished = 0;
            for (std::size_t i = 0; i < specs.size(); ++i) finished += !pending[i] && runs[i].finished;
            printError("interrupted by " + guard.signalName() + ": " + std::to_string(finished) + " of " +
                       std::to_string(total) + " runs are finished and kept in " + o.outDir +
                       "/runs; run the same command again to continue the study");
            return exitInterrupted;
        }
    }

    // Inference cost, measured here for every run alike, with no training beside it.
    setKernelThreads(o.train.threads);
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (!runs[i].finished) continue;
        try {
            measureModel(runs[i], filesOf(o, specs[i]).model, 9);
        } catch (const Error& e) {
            std::fprintf(stderr, "warning: %s: no inference figures: %s\n", specs[i].name().c_str(), e.what());
        }
    }
    const StudySummary summary = summarizeStudy(runs, o);
    const Json document = studyJson(runs, summary, o, commandLine);
    writeFileAtomically(o.outDir + "/study.json", dumpJson(document, 2) + "\n");
    writeFileAtomically(o.outDir + "/study.csv", studyCsv(runs, o.machines));
    writeFileAtomically(o.outDir + "/study.md", studyMarkdown(summary, commandLine));
    writeStudyChart(o.outDir + "/study.png", summary);
    if (json) {
        // The runs again, now with their inference figures.
        Json e = Json::object({{"event", "summary"}, {"summary", document.at("summary")}, {"runs", document.at("runs")}});
        e["files"] = Json::array({o.outDir + "/study.json", o.outDir + "/study.csv", o.outDir + "/study.md", o.outDir + "/study.png"});
        writeEvent(e);
    }
    // With --progress json stdout holds events only: the table is for the person watching stderr.
    std::ostream& out = json ? std::cerr : std::cout;
    out << alignedTable(studyTableRows(summary), {0, 3, 8}) << "\n" << recommendationText(summary);
    out << "study written to " << o.outDir << "/study.json, study.csv, study.md and study.png\n";
    out.flush();

    std::string failed;
    int failures = 0;
    for (const StudyRun& r : runs)
        if (!r.finished) {
            ++failures;
            failed += (failed.empty() ? "" : "; ") + r.spec.name() + ": " + r.error;
        }
    if (failures > 0) {
        printError(std::to_string(failures) + " of " + std::to_string(total) + " runs failed (" + failed +
                   "); the study's files hold the others");
        return exitFailure;
    }
    return exitOk;
}

}  // namespace skynnet::cli
