#pragma once
// One submodel's checkpoint file, "submodel-<n>.ckpt" in a checkpoint folder (checkpoint_store.h):
// the model container of io/container.h (CRC-checked, written atomically) with the header
//   {"kind":"checkpoint","run":{"plan":..,"config":..,"data":..},"submodel":n,"finished":bool,
//    "weightsBlock":0, "result":{...TrainResult} | "state":{...TrainerState}}
// and float blocks for the weights, the best weights and every optimiser state matrix.
#include <string>

#include "io/json.h"
#include "split/worker_pool.h"

namespace skynnet {

// What decides a run's results, as hashes (16 hex digits each): a checkpoint from a run whose
// plan, training settings or data differ is refused, naming which.
struct CheckpointRunKey {
    std::string plan, config, data;
    bool operator==(const CheckpointRunKey&) const = default;
};
Json toJson(const CheckpointRunKey& key);
CheckpointRunKey checkpointRunKeyFromJson(const JsonField& j);
// "the training data differs", "the split plan and the training settings differ".
std::string checkpointKeyDifferences(const CheckpointRunKey& saved, const CheckpointRunKey& current);

// Atomic: a failed save leaves the previous checkpoint as it was. Throws Error naming the path.
void saveCheckpointFile(const std::string& path, const CheckpointRunKey& key, int index, const SubmodelResume& r);
// Throws Error naming the path when the file is damaged, is not a checkpoint, belongs to another
// run or submodel, or does not fit `network` (weights, optimiser state of other sizes), a network
// built from the submodel's spec.
SubmodelResume loadCheckpointFile(const std::string& path, const CheckpointRunKey& key, int index, Network& network);

}  // namespace skynnet
