// `skynnet-cli plan`: how `train` with the same options would split the network, without training:
// the plan as a table (or JSON with --json) and its warnings. The data is loaded and split as
// training would, since the plan depends on the classes and rows of the training part.
#include <iostream>

#include "commands.h"
#include "core/error.h"
#include "plan_view.h"
#include "split_options.h"
#include "train_options.h"
#include "train_setup.h"

namespace skynnet::cli {

int runPlan(const std::vector<std::string>& words) {
    const Args args = Args::parse(words, planOptionSpecs());
    if (args.flag("--help")) {
        std::cout << planHelp();
        return exitOk;
    }
    if (!args.has("--submodels")) throw UsageError("--submodels is required");
    const TrainOptions o = parseTrainOptions(args);
    const PreparedData data = prepareData(o, DataUse::Planning);
    // The loss must fit the task, as in train: a plan that train would refuse is no preview. The
    // parts are raw here: reconstruction's default loss follows the inputs as scaled.
    const Matrix scaled = data.task() == Task::Reconstruction ? data.preprocessing.apply(data.train.features)
                                                              : Matrix();
    const TrainConfig config = buildTrainConfig(o, data.task(), scaled);
    const NetworkSpec spec = buildNetworkSpec(o, data, config.loss);
    const SplitOptions split = fitSplitOptions(args, *o.split, data.train.task);
    const SplitPlan plan = makePlan(spec, data.train, split);
    checkSplitOptionsUsed(args, split, plan);
    if (args.flag("--json")) std::cout << dumpJson(planJson(plan, o.threads), 2) << "\n";
    else std::cout << planTable(plan, o.threads);
    std::cout.flush();
    return exitOk;
}

}  // namespace skynnet::cli
