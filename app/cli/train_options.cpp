#include "train_options.h"

#include "core/error.h"
#include "core/parallel.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"

namespace skynnet::cli {
namespace {

constexpr const char* defaultLayers = "dense:64:relu,dense:64:relu";

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

const std::vector<OptionSpec>& trainOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--data", "PATH", "training data: CSV/TSV file, IDX images (.gz ok), or builtin:spirals|sine|blobs[:KEY=VALUE...]"},
        {"--labels", "PATH", "IDX labels file (default: the one beside the images)"},
        {"--test-data", "PATH", "separate test data (default: a stratified part of --data, see --test-fraction)"},
        {"--test-labels", "PATH", "IDX labels file of --test-data"},
        {"--target", "COL", "CSV target column, by name or 0-based index (default: the last column)"},
        {"--task", "TASK", "classification, binary or regression (default: detected from the data)"},
        {"--layers", "LIST", std::string("hidden layers, e.g. dense:512:relu,dropout:0.2,dense:256:relu (default ") + defaultLayers + ")"},
        {"--epochs", "E", "training epochs (default 10)"},
        {"--batch", "B", "batch size (default 32)"},
        {"--optimizer", "NAME", "sgd, adam, adamw or rmsprop (default adam)"},
        {"--lr", "RATE", "learning rate (default 0.001)"},
        {"--momentum", "M", "SGD momentum (default 0)"},
        {"--nesterov", "", "Nesterov momentum for SGD"},
        {"--weight-decay", "W", "weight decay (default 0)"},
        {"--schedule", "S", "learning-rate schedule: constant, step:EPOCHS:GAMMA or cosine[:MIN_RATE] (default constant)"},
        {"--loss", "NAME", "cross_entropy, binary_cross_entropy, mse or mae (default: from the task)"},
        {"--scaling", "S", "standardize, minmax or none (default: minmax for images, else standardize)"},
        {"--validation", "F", "fraction of --data held out for validation; 0 disables (default 0.1)"},
        {"--test-fraction", "F", "fraction of --data held out for testing without --test-data (default 0.2)"},
        {"--early-stopping", "P", "stop after P epochs without a better validation loss, keep the best weights"},
        {"--seed", "S", "seed of the split, the initial weights and the batch order (default 1)"},
        {"--threads", "T", "kernel threads (default: all cores)"},
        {"--save", "MODEL", "write the trained model (architecture, weights, preprocessing, names)"},
        {"--report", "FILE", "write a JSON report: test metrics, times, memory, per-epoch history"},
        {"--quiet", "", "no per-epoch progress on stderr"},
        {"--help", "", "show this help"},
    };
    return specs;
}

std::string trainHelp() {
    return "Usage: skynnet-cli train --data PATH [options]\n\n"
           "Trains a network, reports per-epoch progress on stderr and the test metrics on stdout.\n"
           "Preprocessing is fitted on the training split only. Output files are written only when\n"
           "training succeeds; Ctrl-C stops at the next batch and writes nothing (exit status 130).\n\n" +
           formatOptions(trainOptionSpecs());
}

TrainOptions parseTrainOptions(const Args& a) {
    TrainOptions o;
    o.data.path = a.required("--data");
    o.data.labels = a.text("--labels", "");
    o.data.target = a.text("--target", "");
    if (const auto task = a.text("--task")) o.data.task = parsedOption("--task", [&] { return parseTask(*task); });
    if (const auto test = a.text("--test-data")) {
        DataRequest t = o.data;
        t.option = "--test-data";
        t.path = *test;
        t.labels = a.text("--test-labels", "");
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

    const std::string layers = a.text("--layers", defaultLayers);
    o.layers = parsedOption("--layers", [&] { return parseLayers(layers); });
    if (const auto s = a.text("--scaling")) o.scaling = parsedOption("--scaling", [&] { return parseScaling(*s); });
    if (const auto l = a.text("--loss")) o.loss = parsedOption("--loss", [&] { return parseLoss(*l); });

    TrainConfig& c = o.config;
    c.epochs = a.positiveInt("--epochs", 10);
    c.batchSize = a.positiveInt("--batch", 32);
    c.seed = a.unsignedInt("--seed", 1);
    OptimizerConfig& opt = c.optimizer;
    opt.kind = parsedOption("--optimizer", [&] { return parseOptimizer(a.text("--optimizer", "adam")); });
    opt.learningRate = float(a.positiveNumber("--lr", 1e-3));
    opt.momentum = float(a.fraction("--momentum", 0));
    opt.nesterov = a.flag("--nesterov");
    opt.weightDecay = float(a.nonNegativeNumber("--weight-decay", 0));
    if (opt.kind != OptimizerKind::SGD && (a.has("--momentum") || opt.nesterov))
        Args::fail(a.has("--momentum") ? "--momentum" : "--nesterov", "only applies to --optimizer sgd");
    if (opt.nesterov && opt.momentum <= 0) Args::fail("--nesterov", "needs --momentum above 0");
    if (const auto s = a.text("--schedule")) opt.schedule = parsedOption("--schedule", [&] { return parseSchedule(*s); });
    if (a.has("--early-stopping")) {
        c.earlyStopping.enabled = true;
        c.earlyStopping.patience = a.positiveInt("--early-stopping", 5);
        c.earlyStopping.restoreBest = true;
        if (o.validationFraction <= 0) Args::fail("--early-stopping", "needs a validation split (--validation above 0)");
    }
    o.threads = a.positiveInt("--threads", hardwareThreads());
    c.threads = o.threads;

    o.savePath = a.text("--save", "");
    o.reportPath = a.text("--report", "");
    if (a.has("--save") && o.savePath.empty()) Args::fail("--save", "expects a file name");
    if (a.has("--report") && o.reportPath.empty()) Args::fail("--report", "expects a file name");
    o.quiet = a.flag("--quiet");
    return o;
}

}  // namespace skynnet::cli
