#pragma once
// Where the Study page's study lives and what it trains: the study's folder beside the project
// file (or in the temporary folder while the project is untitled), the copy of the project's
// settings `skynnet-cli study --project` trains, and whether the project changed since the study.
#include <QString>
#include <QStringList>

#include "project/project_file.h"

namespace skynnet::ui {

class ProjectDocument;

// "<project>.skynnet.study" beside a saved project; for an untitled one a folder of this app
// process in the temporary folder.
QString studyFolderFor(const QString& projectFile);
// The folder's copy of the project the study trains.
QString studyProjectPath(const QString& folder);
// Writes the document's data reference (fingerprinted), network, split and training settings,
// without runs or study, atomically. Throws Error naming the path.
void writeStudyProject(const QString& path, const ProjectDocument& document);
// Removes an earlier study's files from the folder (only one that holds a study: its
// study_options.json), so a study with other choices starts afresh there. False when it could not.
bool clearStudyFolder(const QString& folder);
// What changed since the study was made ("data", "network", "split", as the run history says it);
// empty when it still matches or its settings were not recorded.
QStringList studyOutOfDateParts(const ProjectStudy& study, const ProjectDocument& document);

}  // namespace skynnet::ui
