#include "study_outputs.h"

#include "io/atomic_file.h"
#include "study/study_outputs.h"
#include "study_chart.h"
#include "version.h"

namespace skynnet::cli {

std::vector<std::string> studyFiles(const std::string& outDir) {
    return {outDir + "/study.json", outDir + "/study.csv", outDir + "/study.md", outDir + "/study.png"};
}

Json writeStudyFiles(const StudyOptions& o, const StudyProgress& progress, const StudySummary& summary,
                     const std::string& commandLine) {
    const std::vector<std::string> files = studyFiles(o.outDir);
    const Json document = studyJson(progress.runs(), summary, progress.plan(),
                                    StudyOrigin{"skynnet-cli", skynnetVersion, commandLine});
    writeFileAtomically(files[0], dumpJson(document, 2) + "\n");
    writeFileAtomically(files[1], studyCsv(progress.runs(), o.machines));
    writeFileAtomically(files[2], studyMarkdown(summary, commandLine));
    writeStudyChart(files[3], summary);
    return document;
}

}  // namespace skynnet::cli
