#pragma once
// `train --progress json`: progress as one JSON object per line on stdout, for programs (the
// desktop app runs skynnet-cli under mpirun and reads these lines). Nothing else goes to stdout
// in this mode: human lines go to stderr. Events, in order of a run:
//   {"event":"plan","submodels":S,"roles":[...],"epochs":E,"baseline":B,"baseline_epochs":E0}
//   {"event":"started","model":M,"submodel":I,"rank":R,"host":H,"threads":T}
//   {"event":"batch","model":M,"submodel":I,"epoch":..,"batch":..,"batches":..,"loss":..}
//   {"event":"epoch","model":M,"submodel":I, <toJson(EpochStats)>}
//   {"event":"resources","model":M,"submodel":I,"rank":R,"host":H, <toJson(ResourceSample)>}
//   {"event":"finished","model":M,"submodel":I,"status":..,"error":..,"wall_seconds":..,"cpu_seconds":..}
//   {"event":"result", <the run's headline figures>}
//   {"event":"error","message":..}   (the exit status is then not 0)
// M is "submodel" (I from 1), "baseline" or "network" (I = 0). Lines are written whole under one
// lock and flushed, since submodels report from several worker threads at once.
#include <cstdint>
#include <string>
#include <vector>

#include "io/json.h"
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

// One event line on stdout, whole and flushed.
void writeEvent(const Json& event);
Json modelEvent(const char* event, const std::string& model, int submodel);

// The plan event of a split run, and of a single network (no submodels; epochs = its epochs).
void writePlanEvent(const SplitPlan& plan, bool baseline);
void writeNetworkPlanEvent(int epochs);
void writeStartedEvent(const std::string& model, int submodel, const WorkerPlace& place);
void writeFinishedEvent(const std::string& model, int submodel, const TrainResult& result);
// {"event":"result", then `fields`}.
void writeResultEvent(const Json& fields);
// The figures every result event ends with: "wall_seconds" (the command), "train_seconds",
// "cpu_seconds" (the process), "peak_memory_bytes", and the files written ("" for none).
void addResultFigures(Json& result, double wallSeconds, double trainSeconds, double cpuSeconds, std::int64_t peakBytes,
                      const std::string& modelPath, const std::string& reportPath);

// Every submodel's started, batch (as often as the trainer reports them), epoch, resources and
// finished events.
SubmodelEvents jsonSubmodelEvents();
// The batch, epoch and resources events of one model trained on this process ("baseline" or
// "network", submodel 0); its started and finished events are the caller's.
TrainCallbacks jsonTrainCallbacks(const std::string& model);

}  // namespace skynnet::cli
