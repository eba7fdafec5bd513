#include "ui/core/run_history.h"

#include <QCoreApplication>
#include <QTimeZone>
#include <algorithm>
#include <cstdint>

#include "ui/core/formatting.h"
#include "ui/core/project_document.h"

namespace skynnet::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("RunHistory", text); }

bool sameFile(const ProjectDataFile& a, const ProjectDataFile& b) {
    if (a.fingerprint && b.fingerprint) return *a.fingerprint == *b.fingerprint;  // the content, wherever it is now
    return a.path == b.path;
}

bool sameData(const ProjectDataSource& a, const ProjectDataSource& b) {
    return sameFile(a.train, b.train) && sameFile(a.trainLabels, b.trainLabels) && sameFile(a.test, b.test) &&
           sameFile(a.testLabels, b.testLabels) && a.targetColumn == b.targetColumn && a.task == b.task &&
           a.image == b.image && a.sampleShape == b.sampleShape && a.scaling == b.scaling &&
           a.validationFraction == b.validationFraction && a.testFraction == b.testFraction && a.seed == b.seed;
}

std::int64_t floatBytes(std::int64_t count) { return count * std::int64_t(sizeof(float)); }

QString secondsText(double s) { return formatSeconds(s) + QStringLiteral(" s"); }
QString megabytesText(std::int64_t bytes) { return formatMegabytes(bytes) + QStringLiteral(" MB"); }
QString none() { return tr("none"); }

}  // namespace

RunSettings currentRunSettings(const ProjectDocument& document) {
    RunSettings s;
    s.data = document.dataSettings();
    for (ProjectDataFile* f : {&s.data.train, &s.data.trainLabels, &s.data.test, &s.data.testLabels})
        f->status = DataFileStatus::Unchecked;  // where the files were found is not the run's business
    s.network = document.network();
    s.split = document.splitOptions();
    s.training = document.trainSettings();
    return s;
}

QStringList outOfDateParts(const ProjectRun& run, const ProjectDocument& document) {
    QStringList parts;
    if (!run.settings) {
        if (!(run.plan.original == document.network())) parts << tr("network");
        return parts;
    }
    const RunSettings& s = *run.settings;
    if (!sameData(s.data, document.dataSettings())) parts << tr("data");
    if (!(s.network == document.network())) parts << tr("network");
    if (!(s.split == document.splitOptions())) parts << tr("split");
    return parts;
}

QString outOfDateText(const QStringList& parts) {
    if (parts.isEmpty()) return {};
    QStringList named;
    for (const QString& p : parts) named << tr("the %1").arg(p);
    const QString what = named.size() == 1 ? named.front()
                                           : QStringList(named.mid(0, named.size() - 1)).join(QStringLiteral(", ")) +
                                                 tr(" and ") + named.back();
    return tr("Out of date: %1 changed since this run.").arg(what);
}

bool hasWeights(const ProjectRun& run) { return run.results && (run.results->model || run.results->baselineWeights); }

std::int64_t runBytes(const ProjectRun& run) {
    std::int64_t bytes = 0;
    for (const SubmodelPlan& s : run.plan.submodels) bytes += floatBytes(std::int64_t(s.rows.size()));
    if (!run.results) return bytes;
    const ProjectResults& r = *run.results;
    bytes += floatBytes(r.combinedTestOutput.size() + r.baselineTestOutput.size() + r.testTargets.size());
    for (const Matrix& m : r.submodelTestOutputs) bytes += floatBytes(m.size());
    if (r.model)
        for (const auto& w : r.model->weights) bytes += floatBytes(std::int64_t(w.size()));
    if (r.baselineWeights) bytes += floatBytes(std::int64_t(r.baselineWeights->size()));
    return bytes;
}

QString formatSize(std::int64_t bytes) {
    if (bytes < 1000) return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1000 * 1000) return QStringLiteral("%1 kB").arg(QString::number(double(bytes) / 1e3, 'g', 3));
    if (bytes < 1000 * 1000 * 1000) return QStringLiteral("%1 MB").arg(QString::number(double(bytes) / 1e6, 'g', 3));
    return QStringLiteral("%1 GB").arg(QString::number(double(bytes) / 1e9, 'g', 3));
}

QString isoUtc(const QDateTime& time) { return time.toUTC().toString(Qt::ISODate); }

QString runStartText(const ProjectRun& run) {
    if (run.startedAt.empty()) return tr("not recorded");
    QDateTime t = QDateTime::fromString(QString::fromStdString(run.startedAt), Qt::ISODate);
    if (!t.isValid()) return QString::fromStdString(run.startedAt);  // shown as written rather than lost
    return t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString runStrategyText(const ProjectRun& run) {
    return QStringLiteral("%1, N=%2")
        .arg(QString::fromStdString(strategyName(run.plan.strategy)))
        .arg(run.plan.requested);
}

QString runMetricText(const ProjectRun& run) {
    if (!run.results) return none();
    return QString::fromStdString(run.results->metricName) + QLatin1Char(' ') +
           formatMetric(run.results->combinedMetric);
}

QString logLine(const QString& text, const QTime& at) { return at.toString(QStringLiteral("HH:mm:ss  ")) + text; }

std::vector<RunComparisonRow> compareRuns(const ProjectRun& a, const ProjectRun& b) {
    std::vector<RunComparisonRow> rows;
    const auto row = [&](const QString& label, auto text) { rows.push_back({label, text(a), text(b)}); };
    row(tr("Started"), [](const ProjectRun& r) -> QString { return runStartText(r); });
    row(tr("Status"), [](const ProjectRun& r) -> QString { return QString::fromStdString(statusName(r.status)); });
    row(tr("Strategy"), [](const ProjectRun& r) -> QString { return runStrategyText(r); });
    row(tr("Submodels"), [](const ProjectRun& r) -> QString { return QString::number(r.plan.submodelCount()); });
    row(tr("Epochs (submodels / baseline)"), [](const ProjectRun& r) -> QString {
        return QStringLiteral("%1 / %2").arg(r.plan.effectiveEpochs).arg(r.plan.epochs);
    });
    row(tr("Training samples"), [](const ProjectRun& r) -> QString { return QString::number(r.plan.samples); });
    row(tr("Combined model"), [](const ProjectRun& r) -> QString { return runMetricText(r); });
    row(tr("Baseline"), [](const ProjectRun& r) -> QString {
        if (!r.results || !r.results->baseline) return none();
        return QString::fromStdString(r.results->metricName) + QLatin1Char(' ') +
               formatMetric(r.results->baselineMetric);
    });
    row(tr("Split wall time"),
        [](const ProjectRun& r) -> QString { return r.results ? secondsText(r.results->splitWallSeconds) : none(); });
    row(tr("Split CPU time"),
        [](const ProjectRun& r) -> QString { return r.results ? secondsText(r.results->splitCpuSeconds) : none(); });
    row(tr("Baseline wall time"), [](const ProjectRun& r) -> QString {
        return r.results && r.results->baseline ? secondsText(r.results->baseline->wallSeconds) : none();
    });
    row(tr("Baseline CPU time"), [](const ProjectRun& r) -> QString {
        return r.results && r.results->baseline ? secondsText(r.results->baseline->cpuSeconds) : none();
    });
    row(tr("Peak memory, submodels at once"), [](const ProjectRun& r) -> QString {
        return r.results ? megabytesText(r.results->peakConcurrentBytes) : none();
    });
    row(tr("Peak memory, baseline"), [](const ProjectRun& r) -> QString {
        return r.results && r.results->baseline ? megabytesText(r.results->baseline->peakBytes()) : none();
    });
    row(tr("Whole job wall time"),
        [](const ProjectRun& r) -> QString { return r.results ? secondsText(r.results->wallSeconds) : none(); });
    row(tr("Trained weights"), [](const ProjectRun& r) -> QString { return hasWeights(r) ? tr("kept") : tr("none"); });
    row(tr("Size in the project"), [](const ProjectRun& r) -> QString { return formatSize(runBytes(r)); });
    row(tr("Settings"),
        [](const ProjectRun& r) -> QString { return r.settings ? tr("recorded") : tr("not recorded"); });
    return rows;
}

std::vector<RunCurve> runLossCurves(const ProjectRun& run, const QString& runName) {
    std::vector<RunCurve> curves;
    std::size_t epochs = run.submodels.empty() ? 0 : SIZE_MAX;
    for (const ModelHistory& h : run.submodels) epochs = std::min(epochs, h.epochs.size());
    if (epochs > 0) {
        RunCurve mean{tr("%1 submodels (mean)").arg(runName), {}, false};
        for (std::size_t e = 0; e < epochs; ++e) {
            double sum = 0;
            for (const ModelHistory& h : run.submodels) sum += h.epochs[e].loss;
            mean.points.emplace_back(double(run.submodels.front().epochs[e].epoch), sum / double(run.submodels.size()));
        }
        curves.push_back(std::move(mean));
    }
    if (run.baseline && !run.baseline->epochs.empty()) {
        RunCurve base{tr("%1 baseline").arg(runName), {}, true};
        for (const EpochStats& e : run.baseline->epochs) base.points.emplace_back(double(e.epoch), e.loss);
        curves.push_back(std::move(base));
    }
    return curves;
}

}  // namespace skynnet::ui
