#pragma once
// The options of `skynnet-cli train` and `skynnet-cli plan`, checked and typed. Kept apart from
// running the training so that `plan` previews exactly the split `train` would run.
#include <optional>
#include <string>
#include <vector>

#include "cli_args.h"
#include "data/data_source.h"
#include "data/preprocessing.h"
#include "data/text_data.h"
#include "json_progress.h"
#include "losses/loss.h"
#include "spec/network_spec.h"
#include "split/split_plan.h"
#include "train/train_types.h"

namespace skynnet::cli {

// --layers when it is not given.
inline constexpr const char* defaultLayers = "dense:64:relu,dense:64:relu";

struct TrainOptions {
    DataRequest data;
    std::optional<DataRequest> testData;  // --test-data; without it the test set is cut from --data
    double validationFraction = 0.1;      // of all rows of --data; 0 disables validation
    double testFraction = 0.2;            // of all rows of --data, only without --test-data

    std::vector<LayerSpec> layers;
    TextSettings text;               // --vocab, --max-length (text data only)
    std::optional<Scaling> scaling;  // empty: minmax for images (IDX, image folders), standardize otherwise
    std::optional<LossKind> loss;    // empty: the task's natural loss
    TrainConfig config;              // everything but the loss, which follows from the task
    int threads = 0;                 // kernel threads; the machine's cores when not given
                                     // (split: the budget all submodels share)

    std::optional<SplitOptions> split;  // --submodels: train the Skynnet split instead of one network
    bool baseline = false;              // --baseline: also the original model, for comparison

    // --backend mpi: the submodels train on the ranks of an MPI job (rank 0 hands them out);
    // --hosts FILE --ranks K starts that job with mpirun. threadsGiven: --threads was on the
    // command line (an MPI worker otherwise takes its host's cores / the workers there).
    bool mpi = false;
    bool shipData = false;  // --ship-data: rank 0 sends each worker its rows
    std::string hostsFile;  // --hosts
    int ranks = 0;          // --ranks
    bool threadsGiven = false;

    std::string savePath;    // --save; empty: the model is not written
    std::string reportPath;  // --report; empty: no report file
    // --checkpoint, or beside --save (<save>.checkpoint); empty: no checkpoints.
    std::string checkpointDir;
    bool resume = false;                             // --resume: continue the run in checkpointDir
    bool quiet = false;                              // no per-epoch progress on stderr
    ProgressFormat progress = ProgressFormat::Text;  // --progress json: events on stdout instead
};

const std::vector<OptionSpec>& trainOptionSpecs();
std::string trainHelp();
// The train options that shape data, network and split (no outputs), plus --json.
const std::vector<OptionSpec>& planOptionSpecs();
std::string planHelp();
// Throws UsageError naming the option at fault.
TrainOptions parseTrainOptions(const Args& args);

}  // namespace skynnet::cli
