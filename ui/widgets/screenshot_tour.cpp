#include "ui/widgets/screenshot_tour.h"

#include <QApplication>
#include <QScrollArea>
#include <QTimer>
#include <cstdio>

#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/window_grab.h"

namespace skynnet::ui {
namespace {

bool save(const QPixmap& picture, const QString& path) {
    if (!picture.save(path)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return false;
    }
    std::printf("%s\n", qPrintable(path));
    return true;
}

}  // namespace

ScreenshotTour::ScreenshotTour(MainWindow* window, const QString& directory, int timeoutSeconds, QObject* parent)
    : QObject(parent), window_(window), dir_(directory) {
    timeout_.setSingleShot(true);
    timeout_.setInterval(timeoutSeconds * 1000);
    connect(&timeout_, &QTimer::timeout, this, [this] { finish(1, QStringLiteral("timed out")); });
}

void ScreenshotTour::start() {
    dir_.mkpath(QStringLiteral("."));
    timeout_.start();
    TrainingSession* session = window_->session();
    connect(session, &TrainingSession::overallProgress, this, [this](double f, double) { onProgress(f); });
    connect(session, &TrainingSession::finished, this, &ScreenshotTour::onFinished);
    connect(session, &TrainingSession::failed, this,
            [this](const QString& m) { finish(1, QStringLiteral("cannot train: ") + m); });
    DataPage* data = window_->dataPage();
    if (data->isLoading()) {
        connect(data, &DataPage::loadFinished, this, [this](bool ok, const QString& m) {
            if (trainingStarted_) return;
            if (!ok) finish(1, QStringLiteral("cannot load the data: ") + m);
            else QTimer::singleShot(200, this, &ScreenshotTour::afterLoad);
        });
    } else {
        QTimer::singleShot(200, this, &ScreenshotTour::afterLoad);
    }
}

void ScreenshotTour::afterLoad() {
    // The start page first, as the window shows it from File > Start Page.
    window_->showStartPage();
    settleEvents(150);
    save(window_->grab(), dir_.filePath(QStringLiteral("0-start.png")));
    grabAll(QStringLiteral("1-before"));
    trainingStarted_ = true;
    window_->showPage(MainWindow::TrainPageIndex);
    window_->trainPage()->startTraining();
}

void ScreenshotTour::onProgress(double fraction) {
    // Past a third every chart has points, and most of the run is still to come.
    if (midTaken_ || fraction < 0.35) return;
    midTaken_ = true;
    // Not from here: the progress comes from inside the session's flush, on its timer, and Qt
    // delivers no timer event again while that timer's handler runs, so the pages would show
    // nothing trained during the grabs (the paused pages the run as it was 2 s before the pause).
    grabbing_ = true;  // the run's end, should it come first, waits for these grabs
    QTimer::singleShot(0, this, [this] {
        grabAll(QStringLiteral("2-during"));
        grabPaused();
        window_->showPage(MainWindow::TrainPageIndex);
        if (ended_) QTimer::singleShot(0, this, &ScreenshotTour::finishWhenIdle);
    });
}

void ScreenshotTour::grabPaused() {
    TrainingSession* session = window_->session();
    if (ended_ || !session->running() || session->runsInAnotherProcess()) return;  // nothing to pause
    // One series of grabs: the run's end, queued meanwhile, waits for the resume.
    grabbing_ = true;
    session->pause();
    settleEvents(800);  // every worker reaches its batch boundary, and the pages show the pause
    grabAll(QStringLiteral("2-paused"));
    grabbing_ = true;
    session->resume();
    grabbing_ = false;
    if (ended_) QTimer::singleShot(0, this, &ScreenshotTour::finishWhenIdle);
}

void ScreenshotTour::onFinished(TrainStatus status, const QString& message) {
    ended_ = true;
    completed_ = status == TrainStatus::Completed || status == TrainStatus::EarlyStopped;
    endMessage_ = message;
    QTimer::singleShot(300, this, &ScreenshotTour::finishWhenIdle);  // let the Results page fill in
}

void ScreenshotTour::finishWhenIdle() {
    if (grabbing_ || done_) return;  // called again when the current grabs are done
    done_ = true;
    if (!midTaken_) {
        midTaken_ = true;
        grabAll(QStringLiteral("2-during"));
    }
    grabAll(QStringLiteral("3-after"));
    finish(completed_ ? 0 : 1, endMessage_);
}

void ScreenshotTour::grabAll(const QString& stage) {
    grabbing_ = true;
    const int current = window_->currentPage();
    for (int p = 0; p < MainWindow::PageCount; ++p) {
        window_->showPage(p);
        // The Study page measures this machine's speed for its estimate once shown (a quarter of a
        // second after, for a quarter of a second): the picture shows the estimate, not its wait.
        settleEvents(p == MainWindow::StudyPageIndex ? 1200 : 150);
        const QString name = QStringLiteral("%1-%2-%3").arg(stage).arg(p + 1).arg(MainWindow::pageName(p));
        save(window_->grab(), dir_.filePath(name + QStringLiteral(".png")));
        // A page taller or wider than the window scrolls there: the whole of it too (in whole/,
        // beside the window-sized pictures), so what lies beyond the window is looked at as well.
        const QScrollArea* area = pageScrollArea(window_);
        QWidget* page = area ? area->widget() : nullptr;
        if (page && (page->height() > area->viewport()->height() || page->width() > area->viewport()->width())) {
            dir_.mkpath(QStringLiteral("whole"));
            save(page->grab(), dir_.filePath(QStringLiteral("whole/") + name + QStringLiteral(".png")));
        }
    }
    std::fflush(stdout);
    window_->showPage(current);
    grabbing_ = false;
    if (ended_ && stage != QLatin1String("3-after")) QTimer::singleShot(0, this, &ScreenshotTour::finishWhenIdle);
}

void ScreenshotTour::finish(int code, const QString& message) {
    std::fprintf(code ? stderr : stdout, "screenshots: %s\n", qPrintable(message));
    timeout_.stop();
    // The session's destructor cancels and joins a run still going (timeout, failure).
    QApplication::exit(code);
}

}  // namespace skynnet::ui
