#pragma once
// `skynnet --screenshots DIR`: a scripted look at the app for reviewers without a display. Waits
// for the example data, saves a PNG of the start page and of every page, starts training, saves
// every page again mid-training, paused (then resumes) and after the run, then quits the
// application. A page that scrolls in the window is also saved whole, in DIR/whole/.
#include <QDir>
#include <QObject>
#include <QTimer>

namespace skynnet {
enum class TrainStatus;
}

namespace skynnet::ui {

class MainWindow;

class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    // The tour fails (exit code 1) if the whole of it takes longer than timeoutSeconds.
    ScreenshotTour(MainWindow* window, const QString& directory, int timeoutSeconds = 1800, QObject* parent = nullptr);
    void start();

private:
    void afterLoad();
    void onProgress(double fraction);
    void grabPaused();  // pauses the run, grabs every page, resumes
    void onFinished(skynnet::TrainStatus status, const QString& message);
    void grabAll(const QString& stage);
    void finish(int code, const QString& message);

    MainWindow* window_;
    QDir dir_;
    QTimer timeout_;
    bool midTaken_ = false;
    bool trainingStarted_ = false;
    // grabAll() runs the event loop between pages, so the run may end during a grab: the final
    // grabs wait until the current series is complete.
    bool grabbing_ = false;
    bool ended_ = false;
    bool completed_ = false;
    bool done_ = false;
    QString endMessage_;
    void finishWhenIdle();
};

}  // namespace skynnet::ui
