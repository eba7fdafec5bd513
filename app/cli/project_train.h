#pragma once
// `train --project P.skynnet`: trains a project made in the desktop app (its data, network, split
// options and training settings, exactly as the app would) and saves the trained result back into
// the project file as a new run, atomically; the app shows it on reopening. Only --threads,
// --quiet and --report go with --project; Ctrl-C leaves the project file untouched.
#include <string>
#include <vector>

namespace skynnet::cli {

// Whether the words after `train` ask for project training (--project or --project=P).
bool wantsProjectTraining(const std::vector<std::string>& words);
// The whole command; returns the exit status, throws UsageError or Error like the others.
int runProjectTraining(const std::vector<std::string>& words);

}  // namespace skynnet::cli
