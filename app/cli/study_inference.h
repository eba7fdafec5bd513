#pragma once
// The inference cost of a study's runs, measured in the study process once every run is trained,
// the same way for every run and with no training beside it: the saved model's parameters and
// FLOPs per sample, and the median latency of predict() on latencyBatchRows rows.
#include <string>

#include "study/study_progress.h"

namespace skynnet::cli {

// Loads the model and times predict() on latencyBatchRows rows, the median of `repetitions`
// after one warm-up; fills params, flopsPerSample and latencySeconds.
void measureModel(StudyRun& run, const std::string& modelPath, int repetitions);
// measureModel for every finished run of the study, on `threads` kernel threads; a run whose
// model cannot be measured keeps no inference figures, with a warning on stderr.
void measureStudyRuns(StudyProgress& progress, int threads);

}  // namespace skynnet::cli
