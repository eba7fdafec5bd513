#pragma once
// `train --project P --backend mpi`, run under mpirun (the desktop app's runs on the machines of a
// hostfile): every rank runs the same command; rank 0 loads P, sends its data request in the job
// (the workers prepare their rows from it exactly as rank 0 does, from the same paths, without
// reading P), trains the project with the MPI backend, checks the data files' contents on every
// worker, and saves the run into P as a thread run would.
#include <functional>
#include <string>

#include "project/project_file.h"
#include "split_train.h"

namespace skynnet::cli {

// On a worker rank: serves rank 0 until it is done and returns exitOk without calling `train`.
// On rank 0: calls `train` with the MPI backend and returns what it returns; the workers are
// released however it ends. threads: kernel threads per worker, 0 for its host's share.
// Throws Error (noMpiBackend) in a build without MPI.
int runMpiProject(const std::string& projectPath, int threads, const std::function<int(const SplitBackend&)>& train);

}  // namespace skynnet::cli
