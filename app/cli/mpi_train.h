#pragma once
// `train --backend mpi`: the Skynnet split on the ranks of an MPI job. mpirun starts the same
// command on every rank; rank 0 plans, hands the submodels out (engine/distributed/mpi_backend.h)
// and then tests, reports and saves exactly as a thread-backend run does; the other ranks train
// them (engine/distributed/mpi_worker.h), with rows prepared from the job's data request (never
// from their own command line), and print nothing.
#include <chrono>
#include <string>
#include <vector>

#include "cli_args.h"
#include "mpi_launch.h"
#include "train_options.h"

namespace skynnet::cli {

// What --backend mpi (and mpi-check) answer in a build without MPI.
inline constexpr const char* noMpiBackend = "this build has no MPI backend (Open MPI was not found at build time)";
bool haveMpiBackend();

// options.mpi must be set. On a worker rank the options are not used: rank 0 sends the run's data
// (runDataOf(options), run/run_data.h) in the job. Throws Error (noMpiBackend) in a build without MPI.
int runMpiTraining(const Args& args, const TrainOptions& options, std::chrono::steady_clock::time_point start);

// `train ... --hosts FILE [--ranks K]`: runs the same command (without those two options) as an
// MPI job through mpirun, relaying its output. When a rank dies, says which rank, host and
// submodel, and how to resume. Returns mpirun's exit status (130 when interrupted).
int runMpiLaunch(const std::vector<std::string>& words, const TrainOptions& options);
// The same for any command: resumeHint ends the message about a dead rank ("; ... --resume ...").
int runMpiLaunch(const std::vector<std::string>& words, const MpiLaunch& launch, const std::string& resumeHint);

}  // namespace skynnet::cli
