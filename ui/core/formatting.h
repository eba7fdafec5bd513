#pragma once
// Number formatting shared by the item models, so every table shows the same units the same way.
#include <QString>
#include <cstdint>

namespace skynnet::ui {

QString formatMegabytes(std::int64_t bytes);  // 10^6 bytes, 4 significant digits, as planSummary prints
// One unit for a table's memory column and its chart: kB (10^3 bytes) while the largest figure is
// below 1 MB, so small models read 25, 50, 75 rather than 0.025; GB from 10 GB; MB otherwise.
struct MemoryUnit {
    double bytes = 1e6;
    QString name = QStringLiteral("MB");
    double of(std::int64_t b) const { return double(b) / bytes; }
    QString format(std::int64_t b) const { return QString::number(of(b), 'g', 4); }  // 4 significant digits
};
MemoryUnit memoryUnitFor(std::int64_t largestBytes);
QString formatSeconds(double seconds);  // three significant digits: "0.000423", "0.123", "12.3", "123"
// A duration in prose (headlines, times left): three significant digits without trailing zeros
// below a minute, so a short run reads "0.0313 s" rather than "0.0 s"; "3 min 05 s", "1 h 02 min"
// above; "?" when not known (negative or not finite).
QString formatDuration(double seconds);
// How the split run's time compares with the baseline's: "2.09x faster", "2.07x slower", "as fast";
// empty when either time is not positive.
QString speedRatioText(double baselineSeconds, double splitSeconds);
QString formatMetric(double value);  // 4 decimals: accuracies and R²
QString formatLoss(double value);    // 4 significant digits
// Operation counts with an automatic prefix and three significant digits: "42", "5.95 k",
// "1.43 M", "2.1 G", so a small model reads 5.95 k FLOP rather than 0.005952 MFLOP.
QString formatFlops(std::int64_t value);

}  // namespace skynnet::ui
