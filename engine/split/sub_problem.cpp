#include "split/sub_problem.h"

#include <numeric>
#include <string>

#include "core/error.h"
#include "data/dataset.h"

namespace skynnet {
namespace {

// Global class -> local output of the submodel, -1 where it is not owned.
std::vector<int> localIndex(const CombinationRule& rule, int index, int classCount) {
    std::vector<int> local(static_cast<std::size_t>(classCount), -1);
    const auto& owned = rule.classes[std::size_t(index)];
    for (std::size_t k = 0; k < owned.size(); ++k) local[std::size_t(owned[k])] = int(k);
    return local;
}

}  // namespace

Matrix gatherRows(const Matrix& m, const std::vector<int>& rows) {
    Matrix out(Index(rows.size()), m.cols());
    for (std::size_t i = 0; i < rows.size(); ++i) out.row(Index(i)) = m.row(rows[i]);
    return out;
}

std::vector<int> ownRows(const CombinationRule& rule, int index, const Dataset& data) {
    return ownRows(rule, index, data, data.size());
}

std::vector<int> ownRows(const CombinationRule& rule, int index, const Dataset& data, Index rowCount) {
    std::vector<int> rows;
    // With "other", every row is the submodel's: of its own classes, or "other".
    if (rule.strategy == Strategy::ClassGroups && !rule.otherOutput) {
        const auto local = localIndex(rule, index, data.classCount());
        for (std::size_t r = 0; r < data.labels.size(); ++r)
            if (local[std::size_t(data.labels[r])] >= 0) rows.push_back(int(r));
        return rows;
    }
    rows.resize(std::size_t(rowCount));
    std::iota(rows.begin(), rows.end(), 0);
    return rows;
}

Matrix submodelTargets(const CombinationRule& rule, int index, const Dataset& data, const std::vector<int>& rows) {
    switch (rule.strategy) {
    case Strategy::ClassGroups: {
        const auto local = localIndex(rule, index, data.classCount());
        const Index owned = Index(rule.classes[std::size_t(index)].size());
        // The "other" column, last, takes the rows of the classes the submodel does not own.
        Matrix y = Matrix::Zero(Index(rows.size()), owned + (rule.otherOutput ? 1 : 0));
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const int label = data.labels[std::size_t(rows[i])];
            if (local[std::size_t(label)] >= 0) y(Index(i), local[std::size_t(label)]) = 1;
            else if (rule.otherOutput) y(Index(i), owned) = 1;
            else
                throw Error("row " + std::to_string(rows[i] + 1) + " has class " + std::to_string(label) +
                            ", which submodel " + std::to_string(index + 1) + " does not own");
        }
        return y;
    }
    case Strategy::OutputSplit: {
        const auto [begin, end] = rule.columns[std::size_t(index)];
        const Matrix& values = data.task == Task::Reconstruction ? data.features : data.targets;
        return gatherRows(values.middleCols(begin, end - begin), rows);
    }
    case Strategy::BinaryShards:
    case Strategy::DataShards:
    case Strategy::Auto: break;  // a shard learns the whole task's targets
    }
    return gatherRows(data.targetMatrix(), rows);
}

SubProblem subProblem(const CombinationRule& rule, int index, const Dataset& data, const std::vector<int>& rows) {
    return {gatherRows(data.features, rows), submodelTargets(rule, index, data, rows)};
}

}  // namespace skynnet
