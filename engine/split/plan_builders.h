#pragma once
// Internal to the planner: one builder per strategy. Each fills the factor, the submodels' owned
// classes or columns, training rows and roles, and its warnings; makePlan() then shrinks the
// networks and computes the figures for all of them alike.
#include <cstdint>
#include <string>
#include <vector>

#include "split/split_plan.h"

namespace skynnet::detail {

void planClassGroups(SplitPlan& plan, const DataInfo& data, const SplitOptions& options);
void planBinaryShards(SplitPlan& plan, const DataInfo& data, const SplitOptions& options);
void planDataShards(SplitPlan& plan, const DataInfo& data, const SplitOptions& options);
// SplitOptions::ensemble: every submodel on all the rows; F matches the total parameters of the
// task's own split of `original` with the same N, unless options.dataShardFactor sets it.
void planEnsemble(SplitPlan& plan, const DataInfo& data, const SplitOptions& options, const NetworkSpec& original);
// Falls back to planDataShards (with a warning) when asked to and the target is too narrow.
void planOutputSplit(SplitPlan& plan, const DataInfo& data, const SplitOptions& options);

// `total` items cut into `parts` contiguous runs as evenly as possible, the first total % parts
// one longer (groups of classes, chunks of columns, shards of samples all follow this rule).
std::vector<int> evenSizes(long total, int parts);
// Sample rows 0..samples-1 dealt into n disjoint shards covering them all: a seeded shuffle cut
// into even runs (or file order when not shuffling); each shard ascending.
std::vector<std::vector<int>> makeShards(long samples, int n, bool shuffle, std::uint64_t seed);
// Throws Error naming the first submodel whose training rows hold a single class (classification
// and binary data only): it could learn nothing but that class, and the combination would trust it.
// `what` starts the message ("binary shards"), `remedy` ends it.
void requireTwoClassesEach(const SplitPlan& plan, const DataInfo& data, const std::string& what,
                           const std::string& remedy);
// Adds to s.rows round(share x its rows) of `candidates` (rows it does not have; all of them if
// fewer), drawn without replacement by a partial Fisher-Yates shuffle seeded from the plan seed,
// `stream` and the submodel's index alone, so that every backend that makes the plan draws the
// same rows; keeps s.rows ascending and returns how many it added (the class groups' "other"
// rows, the data shards' overlap rows).
int addBorrowedRows(SubmodelPlan& s, std::vector<int> candidates, double share, std::uint64_t seed,
                    std::uint64_t stream);
// "3" or "F=2.5" style number for messages: up to 4 significant digits.
std::string formatNumber(double value);

}  // namespace skynnet::detail
