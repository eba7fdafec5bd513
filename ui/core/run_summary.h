#pragma once
// The Train page's sentence about the run that just ended: what trained, how long it took and how
// well it did. A run of a small data set ends in a fraction of a second, before anyone could watch
// it; the page stays and says what happened instead of leaving only the curves.
#include <QString>

namespace skynnet::ui {

class TrainingSession;

// "Finished in 0.213 s (CPU 0.391 s): 3 submodels, 7 epochs each, then the baseline, 10 epochs.
// Test accuracy 0.9444 (the original: 0.9722); last training loss 0.1834." for a completed run;
// "Stopped after 3 of 10 epochs, 1.2 s." for a stopped one; empty before any run, for a failed one
// (the page's error banner says why) and while one runs.
QString runSummaryText(const TrainingSession& session);

}  // namespace skynnet::ui
