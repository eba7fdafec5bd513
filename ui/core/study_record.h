#pragma once
// The split study of the Study page as the project keeps it (ProjectStudy::record): what the user
// chose, the runs `skynnet-cli study --progress json` reported finished, and its summary (the
// fields of study.json, so the page and the CLI speak of the same numbers). No widgets.
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

#include "io/json.h"

namespace skynnet::ui {

// What the user picks on the page: the options of `skynnet-cli study` the page passes on.
struct StudyChoice {
    std::vector<int> submodels = {1, 3};  // N; 1 (the original) always among them
    std::vector<std::uint64_t> seeds = {1, 2, 3};
    QStringList strategies = {QStringLiteral("auto")};      // "auto": the project's own; names; "ensemble"
    QStringList scaleEpochs = {QStringLiteral("default")};  // "default" (the project's), "on", "off"
    bool ensemble = true;                                   // the plain ensemble of each N as well
    bool operator==(const StudyChoice&) const = default;
};

// The page's fields read as the CLI would, each Error naming the field and the item at fault:
// "N list: '0' is not a whole number of at least 1". N=1 is added when missing, the list sorted.
std::vector<int> parseSubmodelList(const QString& text);
std::vector<std::uint64_t> parseSeedList(const QString& text);
QString listText(const std::vector<int>& values);  // "1,3,6"
QString listText(const std::vector<std::uint64_t>& values);

// `study --project PROJECT --out DIR --submodels .. --seeds .. [--strategies ..] [--scale-epochs ..]
// [--no-ensemble] [--threads T] --progress json` (threads 0: the project's own budget).
QStringList studyArguments(const StudyChoice& choice, const QString& project, const QString& outDir, int threads);

struct StudyRecord {
    StudyChoice choice;
    QString folder;          // the study's --out folder, where a stopped study continues
    int total = 0;           // runs planned
    std::vector<Json> runs;  // the runs reported finished or failed (study.json's "runs" entries), in plan order
    Json summary;            // the CLI's summary of those runs; null before the first
    bool complete = false;   // the final summary (with the inference figures) arrived

    int finishedRuns() const;  // runs with status "finished"
    // A run reported again (a continued study) replaces the earlier report of it.
    void addRun(const Json& run);

    Json toJson() const;
    // Throws Error naming the field ("study.runs ...") when the record is not one.
    static StudyRecord fromJson(const Json& j);
};

}  // namespace skynnet::ui
