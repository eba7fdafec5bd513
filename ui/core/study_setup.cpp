#include "ui/core/study_setup.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/run_history.h"

namespace skynnet::ui {

QString studyFolderFor(const QString& projectFile) {
    if (!projectFile.isEmpty()) return QFileInfo(projectFile).absoluteFilePath() + QStringLiteral(".study");
    return QDir(QDir::tempPath()).filePath(QStringLiteral("skynnet-study-%1").arg(QCoreApplication::applicationPid()));
}

QString studyProjectPath(const QString& folder) { return QDir(folder).filePath(QStringLiteral("project.skynnet")); }

void writeStudyProject(const QString& path, const ProjectDocument& document) {
    ProjectData p;
    p.data = withFingerprints(document.dataSettings(), *document.fingerprints());
    p.network = document.network();
    p.split = document.splitOptions();
    p.training = document.trainSettings();
    saveProject(path.toStdString(), p);
}

bool clearStudyFolder(const QString& folder) {
    QDir dir(folder);
    if (!dir.exists() || !dir.exists(QStringLiteral("study_options.json"))) return true;  // nothing of a study there
    return dir.removeRecursively();
}

QStringList studyOutOfDateParts(const ProjectStudy& study, const ProjectDocument& document) {
    if (!study.settings) return {};
    ProjectRun made;  // judged as a run made from the same settings would be
    made.settings = study.settings;
    return outOfDateParts(made, document);
}

}  // namespace skynnet::ui
