// `skynnet-cli study --help`.
#include "study_option_specs.h"
#include "study_options.h"

namespace skynnet::cli {

std::string studyHelp() {
    return "Usage: skynnet-cli study --data PATH [train options] --submodels 1,3,6,10 [--seeds 1,2,3]\n"
           "                         [--strategies LIST] [--scale-epochs on,off] --out DIR\n\n"
           "What the split costs and gains on this data, over seeds. Every run is the command\n"
           "  skynnet-cli train <train options> --submodels N [--strategy X] [--scale-epochs Y] --seed S\n"
           "                    --report DIR/runs/<config>-seed<S>.json --save DIR/runs/<config>-seed<S>.skym\n"
           "started as a child process (N=1: without the split options: the original model), its output in\n"
           "DIR/runs/<config>-seed<S>.log. Besides each N's split, the plain ensemble runs too (strategy\n"
           "ensemble: N thin networks on all the data, the split's parameters in all): the fair alternative.\n"
           "A run whose report is in DIR/runs is not run again: after Ctrl-C (the running child is stopped,\n"
           "finished runs are kept) the same command continues; other options with the same DIR are refused.\n\n"
           "Per configuration: the test metric's mean and standard deviation, the paired difference to the\n"
           "original on the same seeds with its 95% Student's t interval, wall, slowest-submodel and CPU time,\n"
           "the largest submodel's peak memory (with its rows), the combined model's parameters, FLOPs per\n"
           "sample and measured latency per batch of 128 rows; and a recommendation: the shortest time whose\n"
           "mean metric is within one standard deviation (over the seeds) of the original's, on this machine\n"
           "and on --machines K. Written to DIR/study.json, study.csv (one row per run), study.md and study.png.\n\n" +
           formatOptions(studyOwnSpecs()) +
           "\nEvery other option is a train option ('skynnet-cli train --help'), passed to each run as given;\n"
           "the split's strategy knobs (--shard-factor, --binary-combine, ...) to the split runs only. A test set\n"
           "is needed. Not accepted: --seed, --strategy, --save, --report, --checkpoint, --resume, --baseline,\n"
           "--backend, --hosts, --ranks, --ship-data.\n"
           "\nWith --project P (a project made in the app, with a test set) every run is instead\n"
           "  skynnet-cli train --project DIR/runs/<config>-seed<S>.skynnet --report DIR/runs/<config>-seed<S>.json "
           "\\\n"
           "    --progress json\n"
           "on a copy of P with the run's seed (as the data split's, the split's and the batch order's seed), N\n"
           "(N=1: the project's network on all its training rows), strategy (auto: the project's own) and epoch\n"
           "choice (default: the project's), without a baseline; only --threads goes with it. Its progress\n"
           "events are in its log, DIR/runs/<config>-seed<S>.log, between its human lines.\n"
           "\nWith --progress json, stdout gets one JSON object per line: {\"event\":\"plan\",\"runs\":[...]},\n"
           "then per run \"run_started\" and \"run_finished\" (its figures, \"remaining_seconds\") followed by\n"
           "\"partial_summary\" (the aggregates of the runs finished so far, no inference figures yet), then\n"
           "\"summary\" (the aggregates and the recommendation, and the runs, as in study.json), or \"error\"\n"
           "{\"message\"}.\n";
}

}  // namespace skynnet::cli
