#pragma once
// The datasets the app offers without a file dialog: Fashion-MNIST when Debian's package is
// installed, the engine's generators, and the small CSVs bundled in resources/datasets. Each is a
// ready ProjectDataSource, so loading an example is the same code path as opening a file.
#include <QString>
#include <QStringList>
#include <optional>

#include "ui/core/project_document.h"

namespace skynnet::ui {

struct Example {
    QString id;           // "fashion-mnist", "spirals", "iris", ...
    QString title;        // menu text
    QString description;  // tooltip
};

// Every example available on this machine, in menu order (Fashion-MNIST only when installed).
QList<Example> availableExamples();
// The settings that load an example; empty when it is not available here.
std::optional<ProjectDataSource> exampleSettings(const QString& id);

bool fashionMnistInstalled();
QString fashionMnistDirectory();
// A bundled CSV ("iris", "wine", "breast_cancer"): from the app's resources (copied once to a
// cache folder, since the engine reads plain files), else from the source tree. Empty if missing.
QString bundledDatasetPath(const QString& name);
// After an example's data has loaded: the settings that make one click on Train show the method
// working. Fashion-MNIST keeps the document's defaults for data that size (784-512-256-10, 5
// epochs) and splits into class groups with N = 3; the small examples get more epochs, smaller
// batches and a higher learning rate than the generic defaults, which would barely train them.
void applyExampleProject(ProjectDocument* document, const QString& id);

// The ready example: Fashion-MNIST when installed, else the built-in spirals. Opened when asked
// for (`--example`, `--screenshots`), never behind the user's back.
QString defaultExampleId();

// The trained example project (resources/projects/wine-class-groups.skynnet), installed under
// share/skynnet/projects or in the source tree; empty when neither has it.
QString exampleProjectPath();
// Whether `path` is that project (installed or in the source tree): it opens as an untitled copy,
// so a save never overwrites the file every user shares.
bool isExampleProject(const QString& path);

}  // namespace skynnet::ui
