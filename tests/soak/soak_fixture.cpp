#include "soak_fixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/project_document.h"
#include "ui/core/run_recorder.h"
#include "ui/core/training_session.h"

namespace soak {

using namespace skynnet::ui;

void expect(bool ok, const QString& what) {
    if (!ok) throw Failure{what};
}

Fixture::Fixture(const QString& folder, unsigned seed)
    : folder_(folder), settings_(std::make_unique<AppSettings>(QDir(folder).filePath(QStringLiteral("settings.ini")))),
      document_(std::make_unique<ProjectDocument>()), session_(std::make_unique<TrainingSession>(document_.get())),
      recorder_(std::make_unique<RunRecorder>(document_.get(), session_.get())),
      autosave_(std::make_unique<Autosave>(document_.get(), session_.get(), settings_.get())), random_(seed) {
    autosave_->setIntervalMilliseconds(0);  // each cycle autosaves at its own step, not on a timer
    autosave_->setDirectory(path(QStringLiteral("recovery")));
    // Progress often enough that a stop or a kill lands soon after a submodel's first epoch.
    session_->setThrottleMilliseconds(20);
    QObject::connect(session_.get(), &TrainingSession::finished, session_.get(),
                     [this](skynnet::TrainStatus status, const QString& message) {
                         ++finished_;
                         lastStatus_ = status;
                         lastMessage_ = message;
                     });
    QObject::connect(session_.get(), &TrainingSession::progress, session_.get(), [this] {
        if (!onEpochDone) return;
        for (const auto& s : session_->submodels())
            if (!s.epochs.empty()) {
                onEpochDone();
                return;
            }
    });
}

Fixture::~Fixture() {
    onEpochDone = nullptr;
    if (session_->running()) {
        session_->stop();
        session_->waitForFinished();
    }
    autosave_->finish();
}

QString Fixture::path(const QString& relative) const { return QDir(folder_).filePath(relative); }

void Fixture::waitUntil(const std::function<bool()>& done, int timeoutMs, const QString& what) {
    QElapsedTimer clock;
    clock.start();
    QTimer tick;  // wakes the loop, so the clock is looked at even when nothing else happens
    tick.start(5);
    QEventLoop loop;
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            throw Failure{QStringLiteral("timed out after %1 ms: %2").arg(timeoutMs).arg(what)};
        loop.processEvents(QEventLoop::WaitForMoreEvents);
    }
}

void Fixture::waitFinished(int before, int timeoutMs, const QString& what) {
    waitUntil([&] { return finished_ > before; }, timeoutMs, what);
}

}  // namespace soak
