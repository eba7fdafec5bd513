#pragma once
// The sub-problem each submodel learns and is judged on: its rows of a dataset and the targets in
// its own output format (its own classes one-hot with labels remapped, and "other" last when the
// rule has it; its own target columns; or the dataset's targets for shards). Shared by training
// and evaluation so the two cannot disagree.
#include <vector>

#include "core/tensor.h"
#include "split/combination.h"

namespace skynnet {

struct Dataset;

struct SubProblem {
    Matrix x, y;
};

// The listed rows of m, in that order.
Matrix gatherRows(const Matrix& m, const std::vector<int>& rows);
// The rows of `data` submodel `index` answers for when evaluated: the samples of its own classes
// for class groups, every row otherwise (shards are a training-time split only). Class groups with
// an "other" output answer for every row too (its own class, or "other"), so a submodel's metric
// is then over its (|I_s|+1)-way task, not over its own classes alone.
std::vector<int> ownRows(const CombinationRule& rule, int index, const Dataset& data);
// The same for a dataset of `rows` rows whose features are kept elsewhere (SubmodelData).
std::vector<int> ownRows(const CombinationRule& rule, int index, const Dataset& data, Index rows);
// Targets of submodel `index` for the given rows; a row whose class is not its own is "other" (the
// last column) with rule.otherOutput, an Error without.
Matrix submodelTargets(const CombinationRule& rule, int index, const Dataset& data, const std::vector<int>& rows);
SubProblem subProblem(const CombinationRule& rule, int index, const Dataset& data, const std::vector<int>& rows);

}  // namespace skynnet
