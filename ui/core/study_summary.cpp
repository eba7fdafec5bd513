#include "ui/core/study_summary.h"

#include <QCoreApplication>
#include <algorithm>
#include <functional>

#include "study/study_summary.h"
#include "ui/core/formatting.h"

namespace skynnet::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("StudySummary", text); }

std::optional<double> number(const Json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j.at(key).is_number()) return std::nullopt;
    return j.at(key).get<double>();
}

QString text(const Json& j, const char* key) {
    return j.is_object() && j.contains(key) && j.at(key).is_string()
               ? QString::fromStdString(j.at(key).get<std::string>())
               : QString();
}

const Json& configurations(const StudyRecord& r) {
    static const Json none = Json::array();
    return r.summary.is_object() && r.summary.contains("configurations") ? r.summary.at("configurations") : none;
}

QString fixed(double v, int decimals) { return QString::number(v, 'f', decimals); }
QString signedFixed(double v, int decimals) { return (v >= 0 ? QStringLiteral("+") : QString()) + fixed(v, decimals); }

QString differenceText(const Json& c) {
    if (c.value("submodels", 1) == 1) return tr("(the original)");
    const Json d = c.value("difference", Json());
    if (!d.is_object()) return tr("(no paired seed)");
    const double mean = d.value("mean", 0.0);
    const auto low = number(d, "ci95_low"), high = number(d, "ci95_high");
    if (!low || !high) return signedFixed(mean, 4) + tr(" (1 seed)");
    return QStringLiteral("%1 [%2, %3]").arg(signedFixed(mean, 4), signedFixed(*low, 4), signedFixed(*high, 4));
}

QString machinesHeader(int k) { return k == 1 ? tr("on 1 machine s") : tr("on %1 machines s").arg(k); }

}  // namespace

std::optional<double> configMachinesSeconds(const std::vector<Json>& runs, const std::string& config, int machines) {
    double sum = 0;
    int count = 0;
    for (const Json& r : runs) {
        if (r.value("status", std::string()) != "finished" || r.value("config", std::string()) != config) continue;
        sum += machinesSeconds(r.value("submodel_seconds", std::vector<double>()), machines);
        ++count;
    }
    if (count == 0) return std::nullopt;
    return sum / count;
}

StudyRecommendation recommendStudy(const StudyRecord& record, int machines) {
    StudyRecommendation r;
    r.machines = machines;
    const Json& s = record.summary;
    if (!s.is_object()) return r;
    r.metricName = text(s, "metric_name");
    const Json original = s.value("original", Json());
    r.originalMean = number(original, "metric_mean");
    r.originalStdDev = number(original, "metric_sd");
    if (!r.originalMean) return r;
    r.threshold = recommendationThreshold(*r.originalMean, r.originalStdDev);
    // The engine's rule on the summary's configurations, their times as `seconds` gives them.
    const auto fastest =
        [&](const std::function<std::optional<double>(const Json&)>& seconds) -> std::optional<StudyPick> {
        std::vector<RecommendationCandidate> candidates;
        for (const Json& c : configurations(record))
            candidates.push_back({text(c, "config").toStdString(), c.value("submodels", 1),
                                  text(c, "strategy").toStdString(), c.value("metric_mean", 0.0), seconds(c)});
        const std::optional<Recommendation> best = fastestWithin(candidates, *r.threshold);
        if (!best) return std::nullopt;
        return StudyPick{QString::fromStdString(best->config), best->submodels, QString::fromStdString(best->strategy),
                         best->seconds, best->metricMean};
    };
    r.thisMachine = fastest([](const Json& c) { return number(c, "wall_seconds_mean"); });
    r.onMachines = fastest(
        [&](const Json& c) { return configMachinesSeconds(record.runs, c.value("config", std::string()), machines); });
    return r;
}

QString recommendationText(const StudyRecommendation& r) {
    if (!r.threshold) return tr("No recommendation yet: no run of the original model (N=1) has finished.");
    QString t = tr("Original: %1 %2").arg(r.metricName, fixed(*r.originalMean, 4));
    t += r.originalStdDev ? tr(" ± %1 (standard deviation over the seeds).").arg(fixed(*r.originalStdDev, 4))
                          : tr(" (one seed: no spread known, so nothing below it counts as within it).");
    t += QLatin1Char('\n') +
         tr("Recommended, the shortest time with a mean %1 of at least %2:").arg(r.metricName, fixed(*r.threshold, 4));
    const auto line = [](const QString& where, const std::optional<StudyPick>& p, const QString& what) {
        return QStringLiteral("\n  ") + where + QStringLiteral(": ") +
               (p ? QStringLiteral("%1 (%2), %3 s %4, %5")
                        .arg(p->config, p->strategy, fixed(p->seconds, 2), what, fixed(p->metricMean, 4))
                  : tr("none"));
    };
    t += line(tr("on this machine"), r.thisMachine, tr("wall"));
    t += line(r.machines == 1 ? tr("on 1 machine") : tr("on %1 machines").arg(r.machines), r.onMachines,
              tr("for the submodels scheduled longest first"));
    return t;
}

std::vector<QStringList> studyTableRows(const StudyRecord& record, int machines) {
    const QString metric = text(record.summary, "metric_name");
    std::vector<QStringList> rows = {{tr("configuration"), tr("N"), tr("S"), tr("strategy"), tr("epochs scaled"),
                                      tr("runs"), (metric.isEmpty() ? tr("metric") : metric) + tr(" mean"), tr("sd"),
                                      tr("difference [95% CI]"), tr("wall s"), tr("slowest submodel s"),
                                      machinesHeader(machines), tr("cpu s"), tr("peak memory"), tr("params"),
                                      tr("FLOP/sample"), tr("ms per 128 rows")}};
    for (const Json& c : configurations(record)) {
        const bool original = c.value("submodels", 1) == 1;
        const auto sd = number(c, "metric_sd");
        const auto onK = configMachinesSeconds(record.runs, c.value("config", std::string()), machines);
        const auto latency = number(c, "latency_seconds_per_batch_median");
        // A partial summary (runs still to come) has no inference figures yet.
        const bool inference = record.complete;
        rows.push_back({text(c, "config"), QString::number(c.value("submodels", 1)), QString::number(c.value("S", 1)),
                        text(c, "strategy"),
                        original                                 ? QStringLiteral("-")
                        : c.value("epoch_scaling", "") == "sqrt" ? tr("by √F")
                        : c.value("scale_epochs", false)         ? tr("yes")
                                                                 : tr("no"),
                        QString::number(c.value("runs", 0)), fixed(c.value("metric_mean", 0.0), 4),
                        sd ? fixed(*sd, 4) : QStringLiteral("-"), differenceText(c),
                        fixed(c.value("wall_seconds_mean", 0.0), 2),
                        fixed(c.value("slowest_submodel_seconds_mean", 0.0), 2),
                        onK ? fixed(*onK, 2) : QStringLiteral("-"), fixed(c.value("cpu_seconds_mean", 0.0), 2),
                        formatMegabytes(c.value("peak_memory_bytes_max", std::int64_t(0))) + QStringLiteral(" MB"),
                        inference ? QString::number(c.value("params", std::int64_t(0))) : QStringLiteral("-"),
                        inference ? formatFlops(c.value("flops_per_sample", std::int64_t(0))) : QStringLiteral("-"),
                        latency ? QString::number(*latency * 1e3, 'g', 3) : QStringLiteral("-")});
    }
    return rows;
}

std::vector<StudyPoint> studyPoints(const StudyRecord& record) {
    std::vector<StudyPoint> points;
    for (const Json& c : configurations(record))
        points.push_back({text(c, "config"), c.value("submodels", 1) == 1, c.value("wall_seconds_mean", 0.0),
                          number(c, "wall_seconds_sd").value_or(0.0), c.value("metric_mean", 0.0),
                          number(c, "metric_sd").value_or(0.0)});
    return points;
}

}  // namespace skynnet::ui
