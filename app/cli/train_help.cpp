// The options of `train` and `plan` as --help lists them (train_options.cpp parses them).
#include "data_request.h"
#include "json_progress.h"
#include "split_options.h"
#include "text_format.h"
#include "train_options.h"

namespace skynnet::cli {

const std::vector<OptionSpec>& trainOptionSpecs() {
    static const std::vector<OptionSpec> common = {
        {"--data", "PATH",
         "training data: CSV/TSV file, IDX images (.gz ok), an image folder (one subfolder of PNG/JPEG/BMP per class), "
         "a text folder (one subfolder of .txt files per class), or builtin:spirals|sine|blobs[:KEY=VALUE...]"},
        {"--labels", "PATH", "IDX labels file (default: the one beside the images)"},
        {"--test-data", "PATH", "separate test data (default: a stratified part of --data, see --test-fraction)"},
        {"--test-labels", "PATH", "IDX labels file of --test-data"},
        {"--target", "COL", "CSV target column, by name or 0-based index (default: the last column)"},
        {"--task", "TASK",
         "classification, binary, regression (default: detected from the data) or reconstruction (an autoencoder: "
         "the targets are the scaled inputs, labels are ignored; with a CSV every column is an input except a "
         "--target column)"},
        imageOptionSpecs()[0],
        imageOptionSpecs()[1],
        imageOptionSpecs()[2],
        imageOptionSpecs()[3],
        textOptionSpecs()[0],
        textOptionSpecs()[1],
        textOptionSpecs()[2],
        textOptionSpecs()[3],
        {"--augment", "LIST",
         "image training batches only: flip (left-right, half the rows) and/or shift:PIXELS (pad and crop), e.g. "
         "flip,shift:2 (default none)"},
        {"--layers", "LIST",
         std::string(
             "hidden layers, comma-separated: dense:UNITS[:ACT], dropout:RATE, flatten, "
             "conv:FILTERS:KxK[:sS][:same|valid][:nobias][:ACT], maxpool:K[:sS], avgpool:K[:sS], "
             "gap, bn, activation:ACT, embedding:DIM (text), gru:UNITS[:sequences], "
             "lstm:UNITS[:sequences], seqpool:mean|last|cls, patch:SIZE:DIM[:cls], encoder:HEADS:MLP[:DROPOUT], "
             "attention:HEADS[:causal], layernorm; e.g. conv:32:3x3:relu,maxpool:2,flatten,dense:128:relu "
             "(default ") +
             defaultLayers + ")"},
        {"--epochs", "E", "training epochs (default 10)"},
        {"--batch", "B", "batch size (default 32)"},
        {"--optimizer", "NAME", "sgd, adam, adamw or rmsprop (default adam)"},
        {"--lr", "RATE", "learning rate (default 0.001)"},
        {"--momentum", "M", "SGD momentum (default 0)"},
        {"--nesterov", "", "Nesterov momentum for SGD"},
        {"--weight-decay", "W", "weight decay (default 0)"},
        {"--schedule", "S",
         "learning-rate schedule: constant, step:EPOCHS:GAMMA or cosine[:MIN_RATE] (default constant)"},
        {"--loss", "NAME",
         "cross_entropy, binary_cross_entropy, mse or mae (default: from the task; reconstruction: "
         "binary_cross_entropy with sigmoid outputs when every scaled training input is in [0, 1], else mse with "
         "linear outputs)"},
        {"--scaling", "S",
         "standardize, minmax (each column its own range), pixel-range (one range for all columns) or none (default: "
         "pixel-range for images, else standardize)"},
        {"--validation", "F", "fraction of --data held out for validation; 0 disables (default 0.1)"},
        {"--test-fraction", "F", "fraction of --data held out for testing without --test-data (default 0.2)"},
        {"--early-stopping", "P", "stop after P epochs without a better validation loss, keep the best weights"},
        {"--seed", "S", "seed of the split, the initial weights and the batch order (default 1)"},
        {"--threads", "T", "kernel threads; with --submodels the budget all submodels share (default: all cores)"},
    };
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> all = common;
        all.insert(all.end(), splitOptionSpecs().begin(), splitOptionSpecs().end());
        all.push_back({"--baseline", "", "with --submodels: also train the original model, for comparison"});
        all.push_back({"--backend", "threads|mpi",
                       "with --submodels: where the submodels train: threads of this process, or the ranks of an MPI "
                       "job (run under mpirun, or with --hosts) (default threads)"});
        all.push_back({"--hosts", "FILE",
                       "with --backend mpi: start the MPI job with mpirun on the machines of this Open MPI hostfile"});
        all.push_back({"--ranks", "K",
                       "with --hosts: MPI ranks, rank 0 hands out the submodels and K-1 train them (default: 1 + the "
                       "hostfile's slots)"});
        all.push_back({"--ship-data", "",
                       "with --backend mpi: rank 0 sends each worker its rows, for machines without the data files "
                       "(MPI traffic is NOT encrypted)"});
        all.push_back({"--save", "MODEL", "write the trained model (architecture, weights, preprocessing, names)"});
        all.push_back({"--report", "FILE", "write a JSON report: test metrics, times, memory, per-epoch history"});
        all.push_back({"--checkpoint", "DIR",
                       "checkpoint every model at each epoch end into DIR (default with --save: MODEL.checkpoint); "
                       "removed once the model is written"});
        all.push_back({"--resume", "",
                       "continue the run checkpointed in the --checkpoint folder (or MODEL.checkpoint): train only "
                       "what is missing"});
        all.push_back({"--quiet", "", "no per-epoch progress on stderr"});
        all.push_back({"--progress", "FORMAT",
                       "text (default: progress lines on stderr) or json: one JSON object per line on stdout, nothing "
                       "else there (see below)"});
        all.push_back({"--help", "", "show this help"});
        return all;
    }();
    return specs;
}

const std::vector<OptionSpec>& planOptionSpecs() {
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> all;
        for (const OptionSpec& s : trainOptionSpecs())
            if (s.name != "--baseline" && s.name != "--save" && s.name != "--report" && s.name != "--quiet" &&
                s.name != "--help" && s.name != "--checkpoint" && s.name != "--resume" && s.name != "--backend" &&
                s.name != "--hosts" && s.name != "--ranks" && s.name != "--ship-data" && s.name != "--progress")
                all.push_back(s);
        all.push_back({"--json", "", "print the plan as JSON instead of a table"});
        all.push_back({"--help", "", "show this help"});
        return all;
    }();
    return specs;
}

std::string trainHelp() {
    return "Usage: skynnet-cli train --data PATH [options]\n\n"
           "Trains a network, reports per-epoch progress on stderr and the test metrics on stdout.\n"
           "Preprocessing is fitted on the training split only. Output files are written only when\n"
           "training succeeds; Ctrl-C stops at the next batch and writes nothing but checkpoints (exit status "
           "130).\n\n" +
           formatOptions(trainOptionSpecs()) +
           "\nWith --submodels N the network is split (see 'skynnet-cli plan --help'): the submodels train in\n"
           "parallel on --threads cores and the report adds the plan, every submodel's figures, the combined\n"
           "model's metrics and, with --baseline, the original model's.\n"
           "\nWith --backend mpi the submodels train on the ranks of an MPI job: run the command under\n"
           "'mpirun -np K' (or srun), or add --hosts FILE --ranks K to have it start mpirun itself. Rank 0 hands\n"
           "the submodels out and writes the report and model; every rank reads --data from the same path\n"
           "(checked by hash) unless --ship-data sends the rows. MPI traffic is not encrypted.\n"
           "\nCheckpoints: with --save MODEL (or --checkpoint DIR) every model is saved at each epoch end into\n"
           "MODEL.checkpoint/ (or DIR), one file per submodel, written atomically in the background (a newer\n"
           "epoch replaces one the disk has not taken yet: training never waits for it). After a crash, a kill or\n"
           "Ctrl-C, the same command with --resume continues: finished submodels are loaded, the others go on\n"
           "from their last epoch end, and the model is the one an uninterrupted run would have made. The\n"
           "folder is removed once the run has written its model. The --baseline model is not checkpointed.\n"
           "\nWith --project P.skynnet a project made in the desktop app is trained and the run saved into it\n"
           "(see 'skynnet-cli train --project P --help').\n" +
           progressHelp();
}

std::string planHelp() {
    return "Usage: skynnet-cli plan --data PATH --submodels N [options]\n\n"
           "Shows, without training, how 'train' with the same options would split the network: the strategy,\n"
           "S submodels, the reduction factor F, and per model the classes or outputs it owns, its training\n"
           "samples, widths, parameters, MFLOP per sample and training memory, the original model first.\n"
           "Strategies (auto picks by task): class-groups (multiclass: pairwise class groups, F = g/2),\n"
           "binary-shards (binary: data shards, F = N), output-split (regression: target columns; reconstruction:\n"
           "the output columns, each submodel reconstructing its columns from the whole input; F = N),\n"
           "data-shards (any task: an averaged ensemble on data shards, F = --shard-factor).\n"
           "ensemble is not a split but the plain alternative to one: N thin networks that each learn the whole\n"
           "task from all the samples, averaged, F chosen so that they hold the parameters of the task's split.\n"
           "With --other-share R every class-groups submodel gets one more output, 'other', and also learns from\n"
           "round(R x its own samples) seeded samples of the classes it does not own, labelled 'other'; its samples\n"
           "then read '1560 (360 other)', and the combination spreads its 'other' probability over those classes\n"
           "(product, sum) or leaves it out (coupling), so that it stops voting on classes it never saw.\n"
           "Submodels are numbered from 1, classes and columns from 0 as in the data.\n\n" +
           formatOptions(planOptionSpecs());
}

}  // namespace skynnet::cli
