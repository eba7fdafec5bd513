// The Study page's figures before and during a study: the run count and the time estimate before
// Start (study_estimate.h, at a speed measured on a worker thread), how far the run in progress has
// got (from its log, through the session), the time left and the window's status bar line.
#include <QFutureWatcher>
#include <QLabel>
#include <QProgressBar>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "ui/core/formatting.h"
#include "ui/core/project_document.h"
#include "ui/core/study_estimate.h"
#include "ui/widgets/study_page.h"

namespace skynnet::ui {
void StudyPage::rememberStartEstimate(const StudyChoice& choice) {
    // Until the study's first run gives it an estimate of its own, the time left counts down
    // from this page's, for the runs still to do.
    const StudyEstimate e = estimateStudy(*document_, choice, speed_, document_->coresForRuns());
    const bool continuing = hasStudy() && record().choice == choice && record().total > 0;
    const double left = continuing ? 1.0 - double(record().runs.size()) / record().total : 1.0;
    startEstimate_.reset();
    if (e.seconds) startEstimate_ = *e.seconds * std::max(left, 0.0);
    sinceStart_.start();
}

void StudyPage::refreshRunProgress() {
    // The bar counts runs in hundredths, so that the run in progress moves it.
    const int total = std::max(record().total, 1);
    const int done = std::min(int(record().runs.size()), total);
    const RunLogProgress* run = running() ? session_->runProgress() : nullptr;
    const double fraction = run ? run->fraction() : 0.0;
    progress_->setRange(0, total * 100);
    progress_->setValue(std::min(done * 100 + int(fraction * 100), total * 100));
    // Before the first study there are no runs to count: "0 of 1 runs" would describe one.
    progress_->setFormat(record().total > 0 ? tr("%1 of %2 runs").arg(done).arg(record().total) : tr("no study yet"));
    if (!run) runProgress_->clear();
    else if (!run->planned())
        runProgress_->setText(tr("This run (%1): reading the data and planning…").arg(session_->currentRunName()));
    else
        runProgress_->setText(
            tr("This run (%1): %2%, %3 of %4 epochs of %5")
                .arg(session_->currentRunName())
                .arg(int(fraction * 100))
                .arg(QString::number(run->epochsDone(), 'f', 1))
                .arg(run->epochsTotal())
                .arg(run->models() == 1 ? tr("its 1 model") : tr("its %1 models").arg(run->models())));
    runProgress_->setVisible(run != nullptr);
    updateRemaining();
    emit progressChanged();
}

QString StudyPage::statusBarText() const {
    if (!running()) return {};
    if (session_->currentRun() <= 0) return tr("Study starting…");
    QString text = tr("Study: run %1 of %2").arg(session_->currentRun()).arg(record().total);
    if (const RunLogProgress* run = session_->runProgress(); run && run->planned())
        text += tr(", %1%").arg(int(run->fraction() * 100));
    return text;
}

void StudyPage::inputsChanged() {
    measured_ = false;
    speed_.reset();
    ++measureGeneration_;  // a measurement under way is of the old inputs
    measuring_ = false;
    scheduleEstimate();
}

void StudyPage::scheduleEstimate() { estimateTimer_.start(); }

void StudyPage::setMeasuredSpeed(const TrainingSpeed& speed) {
    ++measureGeneration_;
    speed_ = speed;
    measured_ = true;
    measuring_ = false;
    refreshEstimate();
}

void StudyPage::refreshEstimate() {
    if (!document_->hasData()) {
        estimate_->setText(tr("Load the data first: the study's runs and time follow from the project."));
        return;
    }
    QString error;
    const std::optional<StudyChoice> c = parseChoice(&error);
    if (!c) {
        estimate_->setText(error);
        return;
    }
    if (!measured_ && !measuring_ && isVisible()) measureSpeed();
    estimate_->setText(estimateText(estimateStudy(*document_, *c, speed_, document_->coresForRuns()), measuring_));
}

void StudyPage::measureSpeed() {
    NetworkSpec network;
    try {
        network = document_->plan().original;  // its output layer set for the task
    } catch (const Error&) {
        measured_ = true;  // nothing to measure until the inputs change; Start says why
        return;
    }
    measuring_ = true;
    const quint64 generation = ++measureGeneration_;
    auto* watcher = new QFutureWatcher<std::optional<TrainingSpeed>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != measureGeneration_) return;
        speed_ = watcher->result();
        measured_ = true;
        measuring_ = false;
        refreshEstimate();
    });
    watcher->setFuture(
        QtConcurrent::run([network, data = document_->dataset(), preparation = document_->dataSettings().preparation(),
                           config = document_->trainSettings().config] {
            return measureTrainingSpeed(network, *data, preparation, config, 0.25);
        }));
}

void StudyPage::updateRemaining() {
    if (!running()) {
        remaining_->clear();
        return;
    }
    const std::optional<double> left = session_->remainingSeconds();
    if (left) {
        remaining_->setText(*left > 0 ? tr("About %1 left").arg(formatDuration(*left)) : tr("Almost done"));
    } else if (startEstimate_) {
        const double estimate = *startEstimate_ - sinceStart_.elapsed() / 1000.0;
        remaining_->setText(estimate > 0
                                ? tr("Roughly %1 left, as estimated before the start").arg(formatDuration(estimate))
                                : tr("Longer than estimated before the start; the first run's time will tell"));
    } else {
        remaining_->setText(tr("Time remaining: known once a run has finished"));
    }
}

}  // namespace skynnet::ui
