// skynnet-gui-stall-bench: how long the GUI event loop of the real main window goes without
// processing events while (a) Fashion-MNIST class groups N=3 train with the baseline, (b) a
// project over that data (188 MB of features in memory, with its trained model) opens, and (c)
// the project is autosaved. A 1 ms precise timer on the GUI thread records the longest gap between
// its ticks. Run offscreen: QT_QPA_PLATFORM=offscreen skynnet-gui-stall-bench [--epochs N]
// [--shots DIR] [--keep PATH | --project PATH] [--trace MS]. Prints one line per scenario and the
// total duration; exit 1 when a step fails. --trace names every event that kept the GUI thread
// longer than MS ms (receiver class, event type, nesting depth): where a stall comes from.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

#include "tests/bench/cpu_time.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/examples.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/train_page.h"

using namespace skynnet::ui;

namespace {

// With --trace: times every event delivered on the GUI thread, in wall time and in the GUI
// thread's CPU time (the difference: other threads and processes had the core).
class TracingApplication : public QApplication {
public:
    using QApplication::QApplication;
    qint64 traceNs = -1;  // off

    bool notify(QObject* receiver, QEvent* event) override {
        if (traceNs < 0) return QApplication::notify(receiver, event);
        // Both may be deleted by the time notify returns (a single-shot timer deletes itself).
        const int type = event->type();
        const char* name = receiver ? receiver->metaObject()->className() : "?";
        QElapsedTimer clock;
        clock.start();
        const double cpu = 1e3 * skynnet::bench::threadSeconds();
        ++depth_;
        const bool result = QApplication::notify(receiver, event);
        --depth_;
        const qint64 ns = clock.nsecsElapsed();
        if (ns > traceNs)
            std::fprintf(stderr, "trace: %6.1f ms (cpu %6.1f ms)  depth %d  event %d  to %s\n", double(ns) / 1e6,
                         1e3 * skynnet::bench::threadSeconds() - cpu, depth_, type, name);
        return result;
    }

private:
    int depth_ = 0;
};

// The longest gap between ticks of a 1 ms timer: the longest the event loop was busy elsewhere.
class StallMeter {
public:
    StallMeter() {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(1);
        QObject::connect(&timer_, &QTimer::timeout, [this] { tick(); });
    }
    void start() {
        longestNs_ = 0;
        ticks_ = 0;
        clock_.start();
        lastNs_ = 0;
        timer_.start();
    }
    void stop() {
        tick();
        timer_.stop();
        seconds_ = double(clock_.nsecsElapsed()) / 1e9;
    }
    double longestMs() const { return double(longestNs_) / 1e6; }
    double seconds() const { return seconds_; }
    long ticks() const { return ticks_; }

private:
    void tick() {
        const qint64 now = clock_.nsecsElapsed();
        longestNs_ = std::max(longestNs_, now - lastNs_);
        lastNs_ = now;
        ++ticks_;
    }
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 lastNs_ = 0, longestNs_ = 0;
    long ticks_ = 0;
    double seconds_ = 0;
};

// Runs the event loop until done() or the timeout; false on timeout.
bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs) return false;
        QEventLoop loop;
        QTimer::singleShot(5, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

void settle(int ms) {
    waitUntil([] { return false; }, ms);
}

void report(const char* scenario, const StallMeter& m, const QString& detail) {
    std::printf("%-9s longest GUI stall %7.1f ms over %6.2f s (%ld ticks) %s\n", scenario, m.longestMs(), m.seconds(),
                m.ticks(), qPrintable(detail));
    std::fflush(stdout);
}

int fail(const char* what) {
    std::fprintf(stderr, "skynnet-gui-stall-bench: %s\n", what);
    return 1;
}

void shoot(QWidget* w, const QString& dir, const QString& name) {
    if (!dir.isEmpty()) w->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

}  // namespace

int main(int argc, char** argv) {
    TracingApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("skynnet-gui-stall-bench"));
    QStandardPaths::setTestModeEnabled(true);  // no real settings or recovery files touched
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption epochsOption(QStringLiteral("epochs"),
                                          QStringLiteral("Epochs of the baseline (default 1)."), QStringLiteral("N"),
                                          QStringLiteral("1"));
    const QCommandLineOption shotsOption(QStringLiteral("shots"), QStringLiteral("Save window PNGs into DIR."),
                                         QStringLiteral("DIR"));
    const QCommandLineOption keepOption(QStringLiteral("keep"),
                                        QStringLiteral("Also save the trained project to PATH."),
                                        QStringLiteral("PATH"));
    const QCommandLineOption projectOption(QStringLiteral("project"),
                                           QStringLiteral(
                                               "Skip training: open and autosave this project (one --keep wrote)."),
                                           QStringLiteral("PATH"));
    const QCommandLineOption traceOption(QStringLiteral("trace"), QStringLiteral("Name events longer than MS ms."),
                                         QStringLiteral("MS"));
    parser.addOptions({epochsOption, shotsOption, keepOption, projectOption, traceOption});
    parser.process(app);
    const int epochs = std::max(1, parser.value(epochsOption).toInt());
    if (parser.isSet(traceOption)) app.traceNs = qint64(parser.value(traceOption).toDouble() * 1e6);
    const QString shots = parser.value(shotsOption);
    if (!shots.isEmpty()) QDir().mkpath(shots);
    if (!fashionMnistInstalled()) return fail("Fashion-MNIST is not installed (Debian package fashion-mnist)");

    QElapsedTimer total;
    total.start();
    QTemporaryDir scratch;
    const QString project = parser.isSet(projectOption) ? QFileInfo(parser.value(projectOption)).absoluteFilePath()
                                                        : scratch.filePath(QStringLiteral("fashion.skynnet"));
    StallMeter meter;
    auto settingsFile = [&] { return std::make_unique<AppSettings>(scratch.filePath(QStringLiteral("settings.ini"))); };

    // The floor: how long this machine keeps the GUI thread from running when nothing happens
    // (other processes; on a loaded machine this is most of every figure below).
    meter.start();
    settle(3000);
    meter.stop();
    report("idle", meter, QStringLiteral("(nothing happening: the machine's scheduling noise)"));

    if (!parser.isSet(projectOption)) {
        MainWindow window(settingsFile());
        window.projectController()->prompts().showError = [](const QString&, const QString& m) {
            std::fprintf(stderr, "error: %s\n", qPrintable(m));
        };
        window.resize(1500, 940);
        window.show();
        settle(300);

        meter.start();
        window.openExample(QStringLiteral("fashion-mnist"));
        if (!window.dataPage()->waitForLoad(300000)) return fail("loading Fashion-MNIST failed");
        settle(300);
        meter.stop();
        report("load", meter, QStringLiteral("(data page: Fashion-MNIST 60,000 + 10,000 images)"));

        skynnet::ProjectTraining t = window.document()->trainSettings();
        t.config.epochs = epochs;
        t.trainBaseline = true;
        window.document()->setTrainSettings(t);
        window.showPage(MainWindow::TrainPageIndex);
        settle(200);
        TrainingSession* session = window.session();
        meter.start();
        window.showPage(MainWindow::TrainPageIndex);
        QMetaObject::invokeMethod(
            &window, [&window] { window.trainPage()->startTraining(); }, Qt::QueuedConnection);
        bool started = false;
        QObject::connect(session, &TrainingSession::started, [&started] { started = true; });
        if (!waitUntil([&] { return started && !session->running(); }, 3600000)) return fail("training did not end");
        settle(300);
        meter.stop();
        if (session->lastStatus() != skynnet::TrainStatus::Completed || !session->results())
            return fail("training did not complete");
        report("train", meter,
               QStringLiteral(
                   "(class groups N=3 + baseline, %1 epoch(s), %2 submodels; accuracy combined %3, baseline %4)")
                   .arg(epochs)
                   .arg(session->plan()->submodelCount())
                   .arg(session->results()->combinedMetric, 0, 'f', 4)
                   .arg(session->results()->baselineMetric, 0, 'f', 4));
        shoot(&window, shots, QStringLiteral("after-training"));
        if (!window.projectController()->saveTo(project)) return fail("saving the project failed");
        if (parser.isSet(keepOption) && !window.projectController()->saveTo(parser.value(keepOption)))
            return fail("saving the project to --keep failed");
        window.close();
    }

    MainWindow window(settingsFile());
    window.projectController()->prompts().showError = [](const QString&, const QString& m) {
        std::fprintf(stderr, "error: %s\n", qPrintable(m));
    };
    window.projectController()->autosave()->setDirectory(scratch.filePath(QStringLiteral("recovery")));
    window.resize(1500, 940);
    window.show();
    settle(300);
    ProjectController* pc = window.projectController();
    meter.start();
    if (!pc->openFile(project)) return fail("opening did not start");
    if (!shots.isEmpty()) {
        QTimer::singleShot(30, &window, [&] { shoot(&window, shots, QStringLiteral("while-opening")); });
    }
    if (!waitUntil([&] { return !pc->isOpening(); }, 600000)) return fail("opening did not end");
    settle(300);
    meter.stop();
    const auto data = window.document()->dataset();
    if (!data || !window.session()->results()) return fail("the project opened without its data or its model");
    const double megabytes = double(data->features.size()) * sizeof(float) / 1e6;
    report("open", meter,
           QStringLiteral("(%1, %2 MB on disk; %3 rows x %4 features = %5 MB of features, with its trained model)")
               .arg(QFileInfo(project).fileName())
               .arg(double(QFileInfo(project).size()) / 1e6, 0, 'f', 1)
               .arg(data->size())
               .arg(data->features.cols())
               .arg(megabytes, 0, 'f', 0));
    shoot(&window, shots, QStringLiteral("after-opening"));

    Autosave* autosave = pc->autosave();
    skynnet::ProjectTraining t = window.document()->trainSettings();
    t.config.epochs += 1;  // an unsaved change, so there is something to autosave
    window.document()->editTrainSettings(t);
    bool saved = false, failed = false;
    QObject::connect(autosave, &Autosave::saved, [&saved] { saved = true; });
    QObject::connect(autosave, &Autosave::failed, [&failed](const QString& m) {
        std::fprintf(stderr, "autosave failed: %s\n", qPrintable(m));
        failed = true;
    });
    settle(200);
    meter.start();
    QMetaObject::invokeMethod(
        autosave, [autosave] { autosave->saveNow(); }, Qt::QueuedConnection);
    if (!waitUntil([&] { return saved || failed; }, 600000) || failed) return fail("autosave failed");
    settle(100);
    meter.stop();
    report("autosave", meter,
           QStringLiteral("(recovery file %1 MB)")
               .arg(double(QFileInfo(window.settings()->recoveryFile()).size()) / 1e6, 0, 'f', 1));
    window.projectController()->prompts().unsavedChanges = [](const QString&) { return QMessageBox::Discard; };
    window.close();
    std::printf("total     %.1f s\n", double(total.elapsed()) / 1000.0);
    return 0;
}
