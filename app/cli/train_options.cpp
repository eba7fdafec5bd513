#include "train_options.h"

#include "core/error.h"
#include "core/parallel.h"
#include "data/augmentation.h"
#include "data_request.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "split_options.h"

namespace skynnet::cli {
namespace {

// Engine parsers throw skynnet::Error for a bad name; on the command line that is a usage error
// of the option it came from.
template <typename F>
auto parsedOption(const std::string& name, F parse) -> decltype(parse()) {
    try {
        return parse();
    } catch (const Error& e) {
        Args::fail(name, e.what());
    }
}

}  // namespace

namespace {

// --data, --test-data and the fractions of the rows held out.
void parseDataOptions(const Args& a, TrainOptions& o) {
    o.data = dataRequest(a);
    if (const auto task = a.text("--task")) o.data.task = parsedOption("--task", [&] { return parseTask(*task); });
    checkRequestUsage(o.data);
    if (a.has("--test-data")) {
        DataRequest t = dataRequest(a, {"--test-data", "--test-labels", "--target"});
        t.task = o.data.task;
        checkRequestUsage(t);
        o.testData = t;
    } else if (a.has("--test-labels")) {
        Args::fail("--test-labels", "needs --test-data");
    }
    o.validationFraction = a.fraction("--validation", 0.1);
    o.testFraction = a.fraction("--test-fraction", 0.2);
    if (o.testData && a.has("--test-fraction")) Args::fail("--test-fraction", "cannot be combined with --test-data");
    if (o.testData) o.testFraction = 0;
    if (o.validationFraction + o.testFraction >= 1)
        Args::fail("--validation", "together with --test-fraction it must leave some rows for training");
    if (const auto s = a.text("--scaling")) o.scaling = parsedOption("--scaling", [&] { return parseScaling(*s); });
    o.text = textSettings(a, o.data);
    const bool text = !o.data.textColumn.empty() || dataKind(o.data.path) == DataKind::TextFolder;
    if (text && o.scaling && *o.scaling != Scaling::None)
        Args::fail("--scaling", "text data is read as token ids, which are never scaled (use none or leave it out)");
}

// The optimiser, its schedule and early stopping.
void parseTrainingOptions(const Args& a, TrainOptions& o) {
    TrainConfig& c = o.config;
    c.epochs = a.positiveInt("--epochs", 10);
    c.batchSize = a.positiveInt("--batch", 32);
    c.seed = a.unsignedInt("--seed", 1);
    if (const auto augment = a.text("--augment"))
        c.augmentation = parsedOption("--augment", [&] { return parseAugmentation(*augment); });
    OptimizerConfig& opt = c.optimizer;
    opt.kind = parsedOption("--optimizer", [&] { return parseOptimizer(a.text("--optimizer", "adam")); });
    opt.learningRate = float(a.positiveNumber("--lr", 1e-3));
    opt.momentum = float(a.fraction("--momentum", 0));
    opt.nesterov = a.flag("--nesterov");
    opt.weightDecay = float(a.nonNegativeNumber("--weight-decay", 0));
    if (opt.kind != OptimizerKind::SGD && (a.has("--momentum") || opt.nesterov))
        Args::fail(a.has("--momentum") ? "--momentum" : "--nesterov", "only applies to --optimizer sgd");
    if (opt.nesterov && opt.momentum <= 0) Args::fail("--nesterov", "needs --momentum above 0");
    if (const auto s = a.text("--schedule"))
        opt.schedule = parsedOption("--schedule", [&] { return parseSchedule(*s); });
    if (a.has("--early-stopping")) {
        c.earlyStopping.enabled = true;
        c.earlyStopping.patience = a.positiveInt("--early-stopping", 5);
        c.earlyStopping.restoreBest = true;
        if (o.validationFraction <= 0)
            Args::fail("--early-stopping", "needs a validation split (--validation above 0)");
    }
    if (const auto l = a.text("--loss")) o.loss = parsedOption("--loss", [&] { return parseLoss(*l); });
}

// --backend mpi and its launch: --ship-data, --hosts, --ranks.
void parseBackendOptions(const Args& a, TrainOptions& o) {
    const std::string backend = a.text("--backend", "threads");
    if (backend != "threads" && backend != "mpi")
        Args::fail("--backend", "expected threads or mpi, got '" + backend + "'");
    o.mpi = backend == "mpi";
    if (o.mpi && !o.split)
        Args::fail("--backend", "mpi needs --submodels (the MPI ranks train the submodels of a split)");
    o.shipData = a.flag("--ship-data");
    if (o.shipData && !o.mpi) Args::fail("--ship-data", "needs --backend mpi");
    o.hostsFile = a.text("--hosts", "");
    if (a.has("--hosts") && o.hostsFile.empty()) Args::fail("--hosts", "expects a hostfile");
    if (a.has("--hosts") && !o.mpi) Args::fail("--hosts", "needs --backend mpi");
    if (a.has("--ranks") && !a.has("--hosts"))
        Args::fail("--ranks", "needs --hosts (under mpirun, -np sets the ranks)");
    if (a.has("--ranks")) {
        o.ranks = a.positiveInt("--ranks", 2);
        if (o.ranks < 2)
            Args::fail("--ranks", "must be at least 2 (rank 0 hands out the submodels, the others train them)");
    }
}

// --save, --report, --checkpoint, --resume, --quiet and --progress.
void parseOutputOptions(const Args& a, TrainOptions& o) {
    o.savePath = a.text("--save", "");
    o.reportPath = a.text("--report", "");
    if (a.has("--save") && o.savePath.empty()) Args::fail("--save", "expects a file name");
    if (a.has("--report") && o.reportPath.empty()) Args::fail("--report", "expects a file name");
    o.quiet = a.flag("--quiet");
    o.checkpointDir = a.text("--checkpoint", "");
    if (a.has("--checkpoint") && o.checkpointDir.empty()) Args::fail("--checkpoint", "expects a folder name");
    if (o.checkpointDir.empty() && !o.savePath.empty()) o.checkpointDir = o.savePath + ".checkpoint";
    o.resume = a.flag("--resume");
    if (o.resume && o.checkpointDir.empty())
        Args::fail("--resume", "needs --checkpoint DIR or --save MODEL (whose MODEL.checkpoint folder it continues)");
    o.progress = parseProgressFormat(a.text("--progress", "text"));
}

}  // namespace

TrainOptions parseTrainOptions(const Args& a) {
    TrainOptions o;
    parseDataOptions(a, o);
    const std::string layers = a.text("--layers", defaultLayers);
    o.layers = parsedOption("--layers", [&] { return parseLayers(layers); });
    parseTrainingOptions(a, o);
    o.threads = a.positiveInt("--threads", hardwareThreads());
    o.threadsGiven = a.has("--threads");
    o.config.threads = o.threads;
    o.split = parseSplitOptions(a, o.config);
    o.baseline = a.flag("--baseline");
    if (o.baseline && !o.split) Args::fail("--baseline", "needs --submodels (it is what the split is compared with)");
    parseBackendOptions(a, o);
    parseOutputOptions(a, o);
    return o;
}

}  // namespace skynnet::cli
