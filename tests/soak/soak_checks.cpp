#include "soak_checks.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <fstream>
#include <string>

#include "project/project_file.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/training_session.h"

#ifdef SKYNNET_SOAK_HAVE_ONNX
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#endif

namespace soak {

using namespace skynnet;
using namespace skynnet::ui;

long residentKiB() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    expect(f.open(QIODevice::ReadOnly), QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    return f.readAll();
}

QStringList temporaryFilesUnder(const QString& folder) {
    QStringList found;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString name = it.fileName();
        if (name.contains(QStringLiteral(".tmp-")) || name.endsWith(QStringLiteral(".tmp")) ||
            name.endsWith(QStringLiteral(".part")) || name.endsWith(QStringLiteral(".partial")) ||
            name.endsWith(QLatin1Char('~')))
            found << path;
    }
    return found;
}

namespace {

// The kept runs as the document has them against those read back, field by field.
void compareRuns(const std::vector<ProjectRun>& kept, const std::vector<ProjectRun>& read, const QString& path) {
    expect(kept.size() == read.size(),
           QStringLiteral("%1 holds %2 runs, the document %3").arg(path).arg(read.size()).arg(kept.size()));
    for (std::size_t i = 0; i < kept.size(); ++i) {
        const ProjectRun &a = kept[i], &b = read[i];
        const QString where = QStringLiteral("%1: runs[%2]").arg(path).arg(i);
        expect(a.id == b.id && a.status == b.status && a.message == b.message,
               where + QStringLiteral(": id or status"));
        expect(a.settings == b.settings, where + QStringLiteral(": settings"));
        expect(a.log == b.log && a.startedAt == b.startedAt, where + QStringLiteral(": log"));
        expect(a.pauses == b.pauses, where + QStringLiteral(": pauses"));
        expect(a.submodels.size() == b.submodels.size(), where + QStringLiteral(": curves"));
        expect(a.results.has_value() == b.results.has_value(), where + QStringLiteral(": results"));
        if (a.results) {
            expect(a.results->combinedMetric == b.results->combinedMetric &&
                       a.results->combinedTestOutput == b.results->combinedTestOutput,
                   where + QStringLiteral(": combined results"));
            expect(a.results->model.has_value() == b.results->model.has_value(), where + QStringLiteral(": weights"));
        }
    }
}

void saveTo(const QString& path, const ProjectData& project) {
    try {
        saveProject(path.toStdString(), project);
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("scratch save: %1").arg(QString::fromUtf8(e.what()))};
    }
}

}  // namespace

void checkSavedProject(const QString& path, Fixture& f, const QString& scratchFolder) {
    const QByteArray saved = fileBytes(path);
    ProjectData read;
    try {
        read = loadProject(path.toStdString());
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("the saved project does not open: %1").arg(QString::fromUtf8(e.what()))};
    }
    ++f.tally().projectsOpened;
    const ProjectDocument& doc = f.document();
    expect(read.data == doc.dataSettings(), path + QStringLiteral(": data settings differ from the document's"));
    expect(read.network == doc.network(), path + QStringLiteral(": network differs from the document's"));
    expect(read.split == doc.splitOptions(), path + QStringLiteral(": split options differ from the document's"));
    expect(read.training == doc.trainSettings(),
           path + QStringLiteral(": training settings differ from the document's"));
    compareRuns(doc.runs(), read.runs, path);

    // The whole file: what a save of the same state writes now, and what a save of what was read
    // writes, are the same bytes.
    QDir().mkpath(scratchFolder);
    const QString expected = QDir(scratchFolder).filePath(QStringLiteral("expected.skynnet"));
    const QString again = QDir(scratchFolder).filePath(QStringLiteral("read-and-saved.skynnet"));
    saveTo(expected, captureProject(doc, f.session()));
    expect(fileBytes(expected) == saved, path + QStringLiteral(" differs from a save of the same document"));
    saveTo(again, read);
    expect(fileBytes(again) == saved, path + QStringLiteral(" read and saved again gives other bytes"));
}

void checkOnnxFile(const QString& path, const char* output) {
    const QFileInfo info(path);
    expect(info.exists() && info.size() > 0, path + QStringLiteral(" is missing or empty"));
#ifdef SKYNNET_SOAK_HAVE_ONNX
    try {
        onnx::checker::check_model(path.toStdString());
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("%1: the ONNX checker says %2").arg(path, QString::fromUtf8(e.what()))};
    }
    onnx::ModelProto model;
    std::ifstream in(path.toStdString(), std::ios::binary);
    expect(model.ParseFromIstream(&in), path + QStringLiteral(" is not an ONNX model"));
    expect(model.graph().output_size() == 1 && model.graph().output(0).name() == output,
           QStringLiteral("%1: the graph's output is not \"%2\"").arg(path, QString::fromLatin1(output)));
#else
    (void)output;
#endif
}

}  // namespace soak
