#include "ui/widgets/format.h"

#include <cmath>

namespace skynnet::ui {

QString formatCount(std::int64_t n) {
    const double v = double(n);
    if (std::abs(v) >= 1e9) return QString::number(v / 1e9, 'f', 2) + QStringLiteral(" G");
    if (std::abs(v) >= 1e6) return QString::number(v / 1e6, 'f', 2) + QStringLiteral(" M");
    if (std::abs(v) >= 1e4) return QString::number(v / 1e3, 'f', 1) + QStringLiteral(" k");
    return QString::number(n);
}

QString formatBytes(std::int64_t bytes) {
    // Decimal units, as the tables' kB and MB (ui/core/formatting.h): the Train page's "MB" was
    // 2^20 bytes while the Results page's was 10^6, so one peak read 0.0923 MB and 96.76 kB.
    const double v = double(bytes);
    if (v >= 1e9) return QString::number(v / 1e9, 'f', 2) + QStringLiteral(" GB");
    if (v >= 1e6) return QString::number(v / 1e6, 'f', 1) + QStringLiteral(" MB");
    if (v >= 1e3) return QString::number(v / 1e3, 'f', 1) + QStringLiteral(" kB");
    return QString::number(bytes) + QStringLiteral(" B");
}

}  // namespace skynnet::ui
