#pragma once
// study.png: each configuration's mean test metric against its mean wall time, with error bars of
// one standard deviation both ways, the original marked and its seed-noise band shaded. Drawn with
// QtGui's QPainter on a QImage: the only Qt in skynnet-cli (the engine stays free of Qt).
#include <string>

#include "study/study_summary.h"

namespace skynnet::cli {

// Atomic; throws Error naming the path.
void writeStudyChart(const std::string& path, const StudySummary& summary);

}  // namespace skynnet::cli
