#pragma once
// JSON forms of the training-side value types a project file holds: training configuration, split
// options and plans, epoch statistics, resource samples and training results. Like spec_json.h,
// every *FromJson validates and throws Error naming the file and the field at fault
// ("p.skynnet: training.config.batchSize must be at least 1"), and unknown fields are ignored so a
// newer file with extra information still loads.
//
// Bulk numbers (a plan's training rows) do not belong in JSON text: they go to the container's
// float blocks through a BlockWriter and come back through a BlockReader, the JSON holding only
// the block's index.
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "io/json.h"
#include "split/split_plan.h"
#include "train/train_types.h"

namespace skynnet {

// Collects the float blocks of a file being written. Spans point into the caller's data, which
// must outlive the save; converted data (integers, copies) is owned here.
class BlockWriter {
public:
    int add(std::span<const float> block);
    int addOwned(std::vector<float> block);
    // Integers stored bit for bit as uint32 in a float32 block (never used as numbers, so every
    // value survives exactly, denormal bit patterns included). Throws Error for negative values.
    int addIndices(const std::vector<int>& values);
    const std::vector<std::span<const float>>& blocks() const { return blocks_; }

private:
    std::vector<std::span<const float>> blocks_;
    std::deque<std::vector<float>> owned_;  // a deque: adding never moves what spans point into
};

// Hands out the float blocks of a file being read, each at most once; errors name the JSON field
// that refers to the block.
class BlockReader {
public:
    explicit BlockReader(std::vector<std::vector<float>> blocks);
    // The block the integer `index` names; expected < 0: any size.
    std::vector<float> take(const JsonField& index, std::int64_t expected = -1);
    std::vector<int> takeIndices(const JsonField& index, std::int64_t expected = -1);

private:
    std::vector<std::vector<float>> blocks_;
    std::vector<bool> used_;
};

// Doubles that may not be finite (a diverged loss): non-finite values are written as the strings
// "NaN", "Infinity" and "-Infinity", since JSON numbers cannot hold them.
Json numberToJson(double value);
double numberFromJson(const JsonField& j);
// 64-bit unsigned values (seeds) exactly: a number up to INT64_MAX, else a decimal string.
Json unsignedToJson(std::uint64_t value);
std::uint64_t unsignedFromJson(const JsonField& j);

Json toJson(const TrainConfig& config);
TrainConfig trainConfigFromJson(const JsonField& j);

Json toJson(const SplitOptions& options);
SplitOptions splitOptionsFromJson(const JsonField& j);

// Every field, the submodels' training rows as index blocks.
Json toJson(const SplitPlan& plan, BlockWriter& blocks);
SplitPlan splitPlanFromJson(const JsonField& j, BlockReader& blocks);

Json toJson(const EpochStats& e);
EpochStats epochStatsFromJson(const JsonField& j);
Json toJson(const ResourceSample& r);
ResourceSample resourceSampleFromJson(const JsonField& j);
Json toJson(const BatchProgress& b);
BatchProgress batchProgressFromJson(const JsonField& j);

Json toJson(const TrainResult& r);
TrainResult trainResultFromJson(const JsonField& j);

// "completed", "early_stopped", "cancelled", "failed" (statusName) and back.
TrainStatus trainStatusFromJson(const JsonField& j);

}  // namespace skynnet
