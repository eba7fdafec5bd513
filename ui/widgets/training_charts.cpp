#include "ui/widgets/training_charts.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "train/metrics.h"
#include "ui/core/formatting.h"
#include "ui/core/training_session.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/format.h"
#include "ui/widgets/live_chart.h"

namespace skynnet::ui {
namespace {

double overlap(const PauseInterval& p, double from, double to) {
    return std::max(0.0, std::min(p.endSeconds, to) - std::max(p.startSeconds, from));
}

}  // namespace

TrainingCharts::TrainingCharts(TrainingSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    loss_ = new LiveChart(tr("Training loss"), tr("epoch"), tr("loss"));
    metric_ = new LiveChart(tr("Validation metric"), tr("epoch"), tr("metric"));
    metric_->setUpperLimit(1.0);                                      // accuracy and R² never exceed 1
    cpu_ = new LiveChart(tr("CPU use"), tr("seconds"), tr("cores"));  // short: a longer title is cut on a small screen
    memory_ = new LiveChart(tr("Memory: model, buffers and rows"), tr("seconds"), tr("MB"));
    cpu_->setIncludeZero(true);
    memory_->setIncludeZero(true);
    logScale_ = new QCheckBox(tr("Log-scale loss"));
    logScale_->setToolTip(tr("Show the loss on a logarithmic axis, where late small improvements stay visible"));
    connect(logScale_, &QCheckBox::toggled, loss_, &LiveChart::setLogarithmic);

    auto* grid = new QGridLayout;
    grid->setSpacing(4);
    grid->addWidget(loss_, 0, 0);
    grid->addWidget(metric_, 0, 1);
    grid->addWidget(cpu_, 1, 0);
    grid->addWidget(memory_, 1, 1);
    // One legend for the four charts: under each chart a quarter of a small screen wide, four
    // names shrink to "sub…".
    legend_ = new QLabel;
    legend_->setObjectName(QStringLiteral("chartsLegend"));
    legend_->setWordWrap(true);
    for (LiveChart* c : {loss_, metric_, cpu_, memory_}) c->chart()->legend()->hide();
    auto* top = new QHBoxLayout;
    top->addWidget(logScale_);
    top->addWidget(legend_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addLayout(grid, 1);

    connect(session_, &TrainingSession::started, this, &TrainingCharts::onStarted);
    connect(session_, &TrainingSession::progress, this, &TrainingCharts::onProgress);
    connect(session_, &TrainingSession::finished, this, &TrainingCharts::showShortRunFigures);
    pauseGrowth_.setInterval(500);
    connect(&pauseGrowth_, &QTimer::timeout, this, &TrainingCharts::showPauses);
    connect(session_, &TrainingSession::pausedChanged, this, [this](bool paused) {
        if (paused) pauseGrowth_.start();
        else pauseGrowth_.stop();
        showPauses();
    });
}

void TrainingCharts::showPauses() {
    const std::vector<PauseInterval> pauses = session_->pauses();
    for (LiveChart* c : {cpu_, memory_}) c->setPauses(pauses);
}

void TrainingCharts::onStarted(int submodels, bool withBaseline) {
    for (LiveChart* c : {loss_, metric_, cpu_, memory_}) c->reset(submodels, withBaseline);
    seen_.clear();
    refreshLegend();
    if (const auto plan = session_->plan()) {
        const QString name = QString::fromStdString(headlineMetricName(plan->task));
        metric_->chart()->setTitle(tr("Validation %1").arg(name));
        const auto axes = metric_->chart()->axes(Qt::Vertical);
        for (QAbstractAxis* a : axes) a->setTitleText(name);
    }
}

namespace {

// One model's figures over its resource samples: cores kept busy on average, and its peak memory.
struct ModelFigures {
    QString name;
    double cpuSeconds = 0, seconds = 0, peakMegabytes = 0;
    double start = 0, end = 0;
};

ModelFigures figuresOf(const ModelHistory& m, const QString& name) {
    ModelFigures f;
    f.name = name;
    const ResourceSample& first = m.resources.front();
    const ResourceSample& last = m.resources.back();
    f.start = first.elapsedSeconds;
    f.end = last.elapsedSeconds;
    f.seconds = last.elapsedSeconds - first.elapsedSeconds;
    f.cpuSeconds = last.cpuSeconds - first.cpuSeconds;
    for (const ResourceSample& r : m.resources)
        f.peakMegabytes = std::max(f.peakMegabytes, double(r.modelBytes + r.dataBytes) / 1e6);
    return f;
}

QString shortName(int id) { return id < 0 ? TrainingCharts::tr("baseline") : TrainingCharts::tr("sub %1").arg(id + 1); }

QString percent(double cpuSeconds, double seconds) {
    return seconds > 0 ? QStringLiteral("%1%").arg(qRound(100 * cpuSeconds / seconds)) : QStringLiteral("?");
}

// In the unit that suits it, decimal as every other figure of the app ("92.3 kB", "188.0 MB").
QString megabytes(double mb) { return formatBytes(std::int64_t(std::llround(mb * 1e6))); }

}  // namespace

void TrainingCharts::showShortRunFigures() {
    std::vector<ModelFigures> models;
    for (const ModelHistory& m : session_->submodels())
        if (!m.resources.empty()) models.push_back(figuresOf(m, shortName(m.submodel)));
    if (!session_->baseline().resources.empty()) models.push_back(figuresOf(session_->baseline(), shortName(-1)));
    if (models.empty()) return;
    double start = models.front().start, end = models.front().end, cpu = 0, peak = 0;
    for (const ModelFigures& f : models) {
        start = std::min(start, f.start);
        end = std::max(end, f.end);
        cpu += f.cpuSeconds;
        peak = std::max(peak, f.peakMegabytes);
    }
    for (const auto& [id, seen] : seen_) {
        int points = 0;
        for (const QLineSeries* line : cpu_->segments(id)) points += line->count();
        if (points >= shortRunPoints) return;  // a line worth drawing
    }
    // The whole run first (CPU over its wall time: 180% is almost two cores busy), then each model
    // when there are few enough to read.
    QString cpuText = tr("CPU %1 over %2").arg(percent(cpu, end - start), formatDuration(end - start));
    // The largest model's: several at once add up to the Results page's combined peak.
    QString memoryText = tr("largest peak %1").arg(megabytes(peak));
    if (models.size() > 1 && models.size() <= 6)
        for (const ModelFigures& f : models) {
            cpuText += QStringLiteral("\n%1: %2").arg(f.name, percent(f.cpuSeconds, f.seconds));
            memoryText += QStringLiteral("\n%1: %2").arg(f.name, megabytes(f.peakMegabytes));
        }
    const QString why = tr("(too short a run for a line)");
    cpu_->setFigures(cpuText + QStringLiteral("\n") + why);
    memory_->setFigures(memoryText + QStringLiteral("\n") + why);
}

void TrainingCharts::refreshLegend() {
    const QString html = legendHtml(loss_->chart());  // every chart has the same series
    if (legend_->text() != html) legend_->setText(html);
}

void TrainingCharts::onProgress(const QList<int>& changed, bool baselineChanged) {
    showPauses();  // before the points after a pause, so their lines break across it
    const auto& snapshots = session_->submodels();
    for (LiveChart* c : {loss_, metric_, cpu_, memory_}) c->beginAppending();
    for (int i : changed)
        if (i >= 0 && i < int(snapshots.size())) update(snapshots[std::size_t(i)]);
    if (baselineChanged) update(session_->baseline());
    for (LiveChart* c : {loss_, metric_, cpu_, memory_}) c->endAppending();
    refreshLegend();
}

void TrainingCharts::update(const ModelHistory& s) {
    const int id = s.submodel;
    Seen& seen = seen_[id];
    if (const QString host = session_->submodelHost(id); host != seen.host) {
        seen.host = host;
        for (LiveChart* c : {loss_, metric_, cpu_, memory_})
            // Short, so that four names still fit beside each other under a chart.
            if (QLineSeries* line = c->series(id)) line->setName(tr("sub %1 on %2").arg(id + 1).arg(host));
    }
    for (; seen.epochs < s.epochs.size(); ++seen.epochs) {
        const EpochStats& e = s.epochs[seen.epochs];
        loss_->append(id, e.epoch, e.loss);
        metric_->append(id, e.epoch, e.hasValidation ? e.validationMetric : e.metric);
    }
    // Within an epoch: the running mean so far, so the curve moves before the first epoch ends.
    const BatchProgress& b = s.lastBatch;
    if (!s.finished && b.batches > 0 && b.epoch > 0)
        loss_->append(id, b.epoch - 1 + double(b.batch) / b.batches, b.loss);

    const std::vector<PauseInterval> pauses = session_->pauses();
    const auto pausedBetween = [&pauses](double from, double to) {
        double paused = 0;
        for (const PauseInterval& p : pauses) paused += overlap(p, from, to);
        return paused;
    };
    for (; seen.resources < s.resources.size(); ++seen.resources) {
        const ResourceSample& r = s.resources[seen.resources];
        const double x = r.elapsedSeconds;  // the engine reports on the run's clock
        memory_->append(id, x, double(r.modelBytes + r.dataBytes) / 1e6);
        if (seen.resources == 0) {
            // A model's first sample, taken as its training starts, is where its CPU line starts
            // on the run's clock (queued submodels start late).
            seen.cpuAt = x;
            seen.cpuSeconds = r.cpuSeconds;
            if (r.cpuSeconds < 0.05) cpu_->append(id, x, 0);
            continue;
        }
        // CPU seconds per wall second since the last point drawn: how many cores this model kept
        // busy, while it was not paused. Short gaps are merged (a rate over a few milliseconds is
        // noise), except for the last sample of a finished model, so even a very short run draws
        // its line.
        const double dt = r.elapsedSeconds - seen.cpuAt - pausedBetween(seen.cpuAt, r.elapsedSeconds);
        const bool last = s.finished && seen.resources + 1 == s.resources.size();
        if (dt >= 0.05 || (last && dt > 0)) {
            cpu_->append(id, x, (r.cpuSeconds - seen.cpuSeconds) / dt);
            seen.cpuAt = r.elapsedSeconds;
            seen.cpuSeconds = r.cpuSeconds;
        }
    }
}

}  // namespace skynnet::ui
