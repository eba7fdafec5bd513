#pragma once
// Short human-readable numbers for labels and tooltips (the tables use ui/core/formatting.h),
// so every page writes sizes, counts and durations the same way.
#include <QString>
#include <cstdint>

namespace skynnet::ui {

QString formatCount(std::int64_t n);       // "1.2 M", "535 k", "42"
QString formatBytes(std::int64_t bytes);   // "12.3 MB"
QString formatDuration(double seconds);    // "4.2 s", "3 min 05 s"

}  // namespace skynnet::ui
