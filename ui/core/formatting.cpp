#include "ui/core/formatting.h"

#include <algorithm>
#include <cmath>

namespace skynnet::ui {

QString formatMegabytes(std::int64_t bytes) { return QString::number(double(bytes) / 1e6, 'g', 4); }

MemoryUnit memoryUnitFor(std::int64_t largestBytes) {
    if (largestBytes < 1000000) return MemoryUnit{1e3, QStringLiteral("kB")};
    if (largestBytes >= 10000000000) return MemoryUnit{1e9, QStringLiteral("GB")};  // not "1.2e+04" MB
    return MemoryUnit{};
}

QString formatSeconds(double seconds) {
    const double a = std::abs(seconds);
    if (a == 0 || !std::isfinite(a)) return QString::number(seconds);
    // Three significant digits in plain decimals, so a short epoch reads "0.000423", not "0.000";
    // below a microsecond the figure is noise.
    const int magnitude = int(std::floor(std::log10(a)));
    if (magnitude < -6) return QStringLiteral("< 0.000001");
    return QString::number(seconds, 'f', std::clamp(2 - magnitude, 0, 6));
}

QString formatDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("?");
    // Rounded to whole seconds first: 59.7 s is "1 min 00 s", never "60 s".
    if (seconds < 59.5) {
        QString text = formatSeconds(seconds);
        if (text.contains(QLatin1Char('.')) && !text.startsWith(QLatin1Char('<'))) {
            while (text.endsWith(QLatin1Char('0'))) text.chop(1);
            if (text.endsWith(QLatin1Char('.'))) text.chop(1);
        }
        return text + QStringLiteral(" s");
    }
    const long total = std::lround(seconds);
    if (total < 3600) return QStringLiteral("%1 min %2 s").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 h %2 min").arg(total / 3600).arg((total % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString speedRatioText(double baselineSeconds, double splitSeconds) {
    if (!(baselineSeconds > 0) || !(splitSeconds > 0)) return {};
    const double ratio = baselineSeconds / splitSeconds;
    const auto times = [](double r) { return QString::number(r, 'f', r < 10 ? 2 : 1); };
    if (std::abs(ratio - 1) < 0.005) return QStringLiteral("as fast");
    return ratio > 1 ? QStringLiteral("%1x faster").arg(times(ratio))
                     : QStringLiteral("%1x slower").arg(times(1 / ratio));
}

QString formatMetric(double value) { return QString::number(value, 'f', 4); }

QString formatLoss(double value) { return QString::number(value, 'g', 4); }

QString formatFlops(std::int64_t value) {
    static const char* const prefixes[] = {"", " k", " M", " G", " T", " P"};
    double v = double(value);
    int p = 0;
    // 999,500 rounds to "1e+03 k" at three digits: it is "1 M".
    while (std::abs(v) >= 999.5 && p < 5) {
        v /= 1000;
        ++p;
    }
    return QString::number(v, 'g', 3) + QLatin1String(prefixes[p]);
}

}  // namespace skynnet::ui
