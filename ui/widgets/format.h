#pragma once
// Short human-readable numbers for labels and tooltips (the tables use ui/core/formatting.h),
// so every page writes sizes, counts and durations the same way. Durations are formatDuration()
// of ui/core/formatting.h, the tables' significant digits in prose.
#include <QString>
#include <cstdint>

#include "ui/core/formatting.h"

namespace skynnet::ui {

QString formatCount(std::int64_t n);      // "1.2 M", "535 k", "42"
QString formatBytes(std::int64_t bytes);  // "12.3 MB", decimal units (10^6 bytes) as the tables'

}  // namespace skynnet::ui
