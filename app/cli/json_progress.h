#pragma once
// `train --progress json`: progress as one JSON object per line on stdout, for programs (the
// desktop app runs skynnet-cli under mpirun and reads these lines). Nothing else goes to stdout
// in this mode: human lines go to stderr. The events (plan, then each model's started, batch,
// epoch, resources and finished, then one result or an error, after which the exit status is not
// 0) are the typed values of engine/run/progress_event.h, which also gives their JSON form; every
// line is toJson of one. Lines are written whole under one lock and flushed, since submodels
// report from several worker threads at once.
#include <cstdint>
#include <string>
#include <vector>

#include "io/json.h"
#include "run/progress_event.h"
#include "split/split_plan.h"
#include "split/worker_pool.h"
#include "train/train_types.h"

namespace skynnet::cli {

enum class ProgressFormat { Text, Json };

// --progress among the words of a command line, looked at before the options are parsed, so
// that even a bad option is reported as an error event. Text when absent or not "json".
ProgressFormat progressFormatIn(const std::vector<std::string>& words);
// The value of --progress once the options are parsed; throws UsageError for anything else.
ProgressFormat parseProgressFormat(const std::string& value);
// The events, for the --help of the commands that take --progress.
std::string progressHelp();

// From here on printError() also writes its message as an error event on stdout.
void reportErrorsAsJson();
bool errorsReportedAsJson();

// One event line on stdout, whole and flushed: a progress event, or another command's (study).
void writeEvent(const ProgressEvent& event);
void writeEvent(const Json& event);
void writeErrorEvent(const std::string& message);

// The plan event of a split run, and of a single network (no submodels; epochs = its epochs).
void writePlanEvent(const SplitPlan& plan, bool baseline);
void writeNetworkPlanEvent(int epochs);
void writeStartedEvent(const std::string& model, int submodel, const WorkerPlace& place);
void writeFinishedEvent(const std::string& model, int submodel, const TrainResult& result);
// The result event of `fields` (resultFields of a ResultEvent, or the same keys built by hand).
void writeResultEvent(const Json& fields);
// Sets the figures every result event has (ResultEvent's times, peak memory and files written,
// "" for none) in `result`'s fields.
void addResultFigures(Json& result, double wallSeconds, double trainSeconds, double cpuSeconds, std::int64_t peakBytes,
                      const std::string& modelPath, const std::string& reportPath);

// Every submodel's started, batch (as often as the trainer reports them), epoch, resources and
// finished events.
SubmodelEvents jsonSubmodelEvents();
// The batch, epoch and resources events of one model trained on this process ("baseline" or
// "network", submodel 0); its started and finished events are the caller's.
TrainCallbacks jsonTrainCallbacks(const std::string& model);

}  // namespace skynnet::cli
