#pragma once
// What rank 0 and the workers say to each other. Every message is JSON text except the float
// blocks (a job's plan rows, a submodel's weights), which follow the message that announces them
// from the same sender. Only the job goes out and only results and progress come back: no
// training data crosses the network unless --ship-data asks for it.
//
//   rank 0                         worker
//   (DataAhead {data} ----------->  the job's data request as soon as rank 0 starts: a worker
//                                   that prepares its own rows prepares them while rank 0 plans)
//   (HostBlock {bytes} ---------->  on rank 0's host: the shared block allocated early, host_rows.h)
//   Job + JobBlocks  ------------>  checks build and data hash
//                    <------------  Accepted | Failure
//   (every worker accepted: the ranks of each host share one prepared copy of the rows,
//    host_rows.h, rank 0 preparing its own host's; else rank 0 sends Stop)
//                                   prepares the rows from the job's data request (or reads
//                                   its host's copy)
//                    <------------  Ready | Failure
//   Assign {index}   ------------>  trains it (ShippedRows first with --ship-data), from its
//                                   epoch state in the job's checkpoint folder if one is there,
//                                   saving one there at each epoch end
//                    <------------  Started, Epoch, Batch, Resources ... Finished + Weights
//   Saved {index}    ------------>  rank 0 has saved that submodel as finished: the worker
//                                   removes its epoch state of it (unless the file is rank 0's)
//   Threads {n}      ------------>  another rank on its host has no more work: use n threads
//   Cancel           ------------>  stops the running submodel at its next batch
//   Stop             ------------>  (no more work)
//                    <------------  Bye {bytes sent}
//   (rank 0 tests, trains the baseline and writes its outputs; the workers sleep meanwhile)
//   Finish           ------------>  frees the host's block (collective on the host), finalizes
#include <cstdint>
#include <string>
#include <vector>

#include "io/json.h"
#include "project/checkpoint_file.h"
#include "project/data_reference.h"
#include "run/run_data.h"
#include "split/split_plan.h"
#include "train/train_types.h"

namespace skynnet {

enum MpiTag : int {
    TagJob = 1,
    TagJobBlocks,
    TagReady,
    TagFailure,
    TagAssign,
    TagShippedRows,
    TagStarted,
    TagEpoch,
    TagBatch,
    TagResources,
    TagFinished,
    TagWeights,
    TagCancel,
    TagStop,
    TagBye,
    TagHello,          // mpi-check: a rank's description
    TagShippedFloats,  // --ship-data: the features and targets after TagShippedRows
    TagThreads,        // {threads}: the kernel threads the worker may use from its next batch on
    TagSaved,          // {index}: rank 0 has checkpointed that submodel as finished
    TagAccepted,       // {host}: the worker runs rank 0's build and finds the same data files
    TagHostRows,       // host_rows.h: the rows a host's first rank shares, described (or why not)
    TagHostRowsReady,  // host_rows.h: they are in the shared block
    TagHostBlock,      // host_rows.h: {bytes}, before the job: rank 0 allocates the block early
    TagFinish,         // after Bye: rank 0 is done, the job ends (free the host's block, finalize)
    TagDataAhead,      // job_data.h: {data, shareData}, first of all: the job's data, sent ahead
};

// A data file every worker must find with the same content (the training file and its labels:
// job_data.h).
struct DataFileCheck {
    std::string path;
    FileFingerprint fingerprint;
};

struct MpiJob {
    std::string version, build, host;  // rank 0's
    // What the workers train on: every worker prepares its rows from this request (job_data.h),
    // as rank 0 prepared its own; no worker reads a command line.
    RunData data;
    std::vector<DataFileCheck> dataFiles;
    SplitPlan plan;
    TrainConfig config;
    int threads = 0;        // kernel threads per worker; 0: its host's cores / the workers there
    bool shipData = false;  // rows come with each assignment; workers load no files
    // The ranks of each host read one prepared copy of the rows, which the host's first rank
    // prepares (host_rows.h); false: every worker prepares its own.
    bool shareData = true;
    // Where workers keep their submodels' epoch states ("" when the run has no checkpoints): rank
    // 0's folder, shared or copied, or created on a worker's machine; and the run's key, which every
    // state file carries, so a state of another run is never resumed.
    std::string checkpointFolder;
    CheckpointRunKey checkpointKey;
};

// The job as a JSON message and the float blocks that follow it (the plan's rows).
struct EncodedJob {
    std::string json;
    std::vector<float> blocks;
};
EncodedJob encodeJob(const MpiJob& job);
// Throws Error naming the field at fault (a job from another version may differ).
MpiJob decodeJob(const std::string& json, const std::string& blocks);

// A message's JSON, parsed with the tag's name in errors.
Json parseMessage(const std::string& bytes, const char* what);

}  // namespace skynnet
