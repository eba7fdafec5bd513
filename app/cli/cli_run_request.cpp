#include "cli_run_request.h"

#include "checkpoint_option.h"
#include "train_setup.h"

namespace skynnet::cli {

RunRequest runRequestOf(const TrainOptions& o, std::shared_ptr<const PreparedData> data) {
    RunRequest r;
    r.config = buildTrainConfig(o, data->task(), data->train.features);
    r.network = buildNetworkSpec(o, *data, r.config.loss);
    r.prepared = std::move(data);
    r.split = o.split;
    r.baseline = o.baseline;
    // The report's test_* figures are the test rows' or none: a validation score is not a test.
    r.evaluation = EvaluationRows::TestOnly;
    r.checkpointFolder = o.checkpointDir;
    r.checkpointStart = o.resume ? CheckpointStart::Resume : CheckpointStart::Fresh;
    // The folder goes only once the model is saved, and only when there is one (--save): with
    // --checkpoint alone the checkpoints are all that is left of the run.
    r.keepCheckpoints = true;
    r.checkpointHooks = checkpointHooks;
    r.threads = o.threads;
    return r;
}

}  // namespace skynnet::cli
