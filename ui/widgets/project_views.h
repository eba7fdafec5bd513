#pragma once
// The narrow views ProjectController works through: what it needs of the window around it, of
// the data page and of the results page, and nothing else. The controller then depends on what
// it uses, not on MainWindow and its pages, and a test can hand it stand-ins.
#include <QString>

class QWidget;

namespace skynnet {
struct ProjectDataSource;
}

namespace skynnet::ui {

// The window: a parent for the controller's dialogs, its status bar, and the page shown (saved
// in the project and restored when it opens).
class ProjectWindowView {
public:
    virtual QWidget* dialogParent() = 0;
    // timeoutMs 0: until the next message or clearStatus().
    virtual void showStatus(const QString& message, int timeoutMs) = 0;
    virtual void clearStatus() = 0;
    virtual void addPermanentStatusWidget(QWidget* widget) = 0;
    virtual int currentPage() const = 0;
    virtual int pageCount() const = 0;

protected:
    ~ProjectWindowView() = default;
};

// The data page, which loads data in the background and shows what became of it.
class ProjectDataView {
public:
    virtual bool isLoading() const = 0;
    virtual bool waitForLoad(int timeoutMs = 60000) = 0;
    virtual void loadSettings(const ProjectDataSource& settings) = 0;  // in the background
    virtual void showProblem(const QString& text) = 0;                 // empty: none
    virtual void showBusy(const QString& text) = 0;                    // empty: not busy

protected:
    ~ProjectDataView() = default;
};

// The results page, refreshed when the session's run is replaced without finishing one.
class ProjectResultsView {
public:
    virtual void refresh() = 0;

protected:
    ~ProjectResultsView() = default;
};

}  // namespace skynnet::ui
