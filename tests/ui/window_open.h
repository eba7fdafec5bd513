#pragma once
// Opening a project in a test's main window: the open runs in the background, so a test waits for
// it; and errors that fail the test rather than wait in a dialog. Shared by the tests that drive the whole window
// (projects, files, run history).
#include <QSignalSpy>
#include <QString>
#include <memory>

#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"

namespace skynnet::ui {

// True once the project is in the window (and the open has ended); false when it was refused or
// failed, or did not end within the (machine-scaled) minute.
inline bool openAndWait(MainWindow* w, const QString& path) {
    QSignalSpy finished(w->projectController(), &ProjectController::openFinished);
    if (!w->projectController()->openFile(path)) return false;
    if (finished.isEmpty() && !finished.wait(hangGuardMs(60000))) return false;
    return finished.count() == 1 && finished.at(0).at(0).toBool() && !w->projectController()->isOpening();
}

// Any error the window would show in a dialog fails the test instead, with its message.
inline void failOnErrorDialogs(MainWindow& w) {
    w.projectController()->prompts().showError = [](const QString&, const QString& message) {
        QFAIL(qPrintable(message));
    };
}

// A main window with its own settings file, errors failing the test, shown at the laptop size the
// page tests use (1024x680).
inline std::unique_ptr<MainWindow> shownWindow(const QString& settingsPath) {
    auto w = std::make_unique<MainWindow>(std::make_unique<AppSettings>(settingsPath));
    failOnErrorDialogs(*w);
    w->resize(1024, 680);
    w->show();
    return w;
}

}  // namespace skynnet::ui
