// The child process of tst_saves: saves one file the way the app and the tool do, and can stop
// itself with SIGKILL (which nothing can catch, like kill -9 or the out-of-memory killer) just
// before the k-th system call of the save, through the writer's test seam.
//   save_child <format> <variant> <width> <path>
//     format: model, combined, project, onnx, onnx-submodel, cpp, recovery (the app's autosave,
//     UI builds only)
//   SKYNNET_TEST_KILL_AT=k   stop just before the k-th call (from 1); unset: save to the end
// Prints "saving" (flushed) as the save starts, for kills at a moment in time, and at the end
// "steps <n> rename <r>": how many calls the save made and which of them was the rename.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "export/cpp_export.h"
#include "export/onnx_export.h"
#include "io/file_faults.h"
#include "save_fixtures.h"

#ifdef SAVE_CHILD_WITH_UI_CORE
#include <QCoreApplication>

#include "ui/core/autosave.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/training_session.h"
#endif

namespace {

std::atomic<int> steps{0};
std::atomic<int> renameStep{0};
int killAt = 0;

int countOrKill(skynnet::SaveStep step, int, const char*) {
    const int n = ++steps;
    if (n == killAt) ::kill(::getpid(), SIGKILL);
    if (step == skynnet::SaveStep::Rename) renameStep = n;
    return 0;
}

void save(const std::string& format, const save_fixtures::Files& f, const std::string& path, int argc, char** argv) {
    using namespace skynnet;
    if (format == "model") return saveModel(path, f.single);
    if (format == "combined") return saveCombinedModel(path, f.combined);
    if (format == "project") return saveProject(path, f.project);
    if (format == "onnx") return exportOnnx(f.combined, path);
    if (format == "onnx-submodel") return exportSubmodelOnnx(f.combined, 0, path);
    if (format == "cpp") return exportCppHeader(f.combined, path);
#ifdef SAVE_CHILD_WITH_UI_CORE
    if (format == "recovery") {
        // What Autosave::saveNow writes: the document and session state of an opened project.
        QCoreApplication app(argc, argv);
        ui::ProjectDocument document;
        ui::TrainingSession session(&document);
        const QString origin = QStringLiteral("/projects/p.skynnet");  // the same in every file
        ui::applyProject(document, session, f.project, nullptr, origin);
        return ui::saveProjectFile(QString::fromStdString(path), document, session,
                                   Json::object({{ui::Autosave::originKey, origin.toStdString()}}));
    }
#else
    (void)argc;
    (void)argv;
#endif
    throw Error("unknown format '" + format + "'");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: save_child <format> <variant> <width> <path>\n");
        return 2;
    }
    if (const char* k = std::getenv("SKYNNET_TEST_KILL_AT")) killAt = std::atoi(k);
    if (const char* piece = std::getenv("SKYNNET_TEST_WRITE_PIECE"))
        skynnet::setSaveWritePieceBytes(std::size_t(std::atoll(piece)));
    try {
        const save_fixtures::Files files = save_fixtures::make(std::atoi(argv[2]), std::atoi(argv[3]));
        skynnet::setSaveFaultHook(countOrKill);
        std::printf("saving\n");
        std::fflush(stdout);
        save(argv[1], files, argv[4], argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    std::printf("steps %d rename %d\n", steps.load(), renameStep.load());
    return 0;
}
