#pragma once
// The desktop app's command line (`skynnet --help` lists it): what to open, what to design and
// train once the data is open, and the screenshot tour. Every option is checked here, before any
// window opens, so a typo is a message and exit code 2, not a tour that trains something else.
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/task.h"
#include "spec/network_spec.h"
#include "ui/core/app_settings.h"

namespace skynnet::gui {

struct GuiOptions {
    QString file;                    // the positional FILE (a project, a model or data), "" without
    std::optional<QString> project;  // --open, an existing file
    std::optional<QString> data;     // --data: a path or builtin:NAME
    std::optional<QString> example;  // --example NAME
    std::optional<Task> task;        // --task, for the --data file (empty: detected)
    std::optional<ui::Theme> theme;  // --theme, for this run only
    std::vector<LayerSpec> layers;   // --layers, applied to the first data opened (empty: none)
    int epochs = 0;                  // --epochs, likewise (0: none)
    QString hostfile;                // --hosts, absolute ("" without), with `ranks` MPI ranks
    int ranks = 3;
    std::optional<QString> screenshots;   // --screenshots DIR: the tour, then quit
    std::optional<QSize> screenshotSize;  // --screenshot-size; without, defaultScreenshotSize kept on the screen
    std::optional<QString> saveProject;   // --save-project, absolute: where a finished run's project goes
};

inline const QSize defaultScreenshotSize(1500, 940);

// Parses the arguments (argv as QCoreApplication::arguments() gives it). --help, --version and an
// unknown option are answered by QCommandLineParser, which then exits. A wrong value gives nullopt
// and `error` says why (without the "skynnet: " prefix).
std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString& error);

}  // namespace skynnet::gui
