#include "ui/core/formatting.h"

#include <cmath>

namespace skynnet::ui {

QString formatMegabytes(std::int64_t bytes) { return QString::number(double(bytes) / 1e6, 'g', 4); }

QString formatSeconds(double seconds) {
    const double a = std::abs(seconds);
    return QString::number(seconds, 'f', a < 1 ? 3 : a < 100 ? 1 : 0);
}

QString formatMetric(double value) { return QString::number(value, 'f', 4); }

QString formatLoss(double value) { return QString::number(value, 'g', 4); }

QString formatMega(std::int64_t value) { return QString::number(double(value) / 1e6, 'g', 4); }

}  // namespace skynnet::ui
