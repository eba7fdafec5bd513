#include "data/dataset.h"

#include "core/error.h"

namespace skynnet {

int Dataset::outputCount() const {
    switch (task) {
    case Task::Classification: return classCount();
    case Task::Binary: return 1;
    case Task::Regression: return int(targets.cols());
    }
    return 1;
}

Matrix Dataset::targetMatrix() const {
    if (task == Task::Regression) return targets;
    if (task == Task::Binary) {
        Matrix y(Index(labels.size()), 1);
        for (std::size_t i = 0; i < labels.size(); ++i) y(Index(i), 0) = Scalar(labels[i]);
        return y;
    }
    Matrix y = Matrix::Zero(Index(labels.size()), classCount());
    for (std::size_t i = 0; i < labels.size(); ++i) y(Index(i), labels[i]) = 1;
    return y;
}

Dataset Dataset::subset(const std::vector<int>& rows) const {
    Dataset d;
    static_cast<ModelSchema&>(d) = schema();
    d.source = source;
    d.labelColumn = labelColumn;
    d.features.resize(Index(rows.size()), features.cols());
    for (std::size_t i = 0; i < rows.size(); ++i) d.features.row(Index(i)) = features.row(rows[i]);
    if (!texts.empty()) {
        d.texts.reserve(rows.size());
        for (int r : rows) d.texts.push_back(texts[std::size_t(r)]);
    }
    if (task == Task::Regression) {
        d.targets.resize(Index(rows.size()), targets.cols());
        for (std::size_t i = 0; i < rows.size(); ++i) d.targets.row(Index(i)) = targets.row(rows[i]);
    } else {
        d.labels.reserve(rows.size());
        for (int r : rows) d.labels.push_back(labels[std::size_t(r)]);
    }
    return d;
}

void Dataset::validate() const {
    const std::string where = source.empty() ? std::string("dataset") : source;
    if (sampleShape.size() != features.cols())
        throw Error(where + ": sample shape " + sampleShape.toString() + " does not match " +
                    std::to_string(features.cols()) + " feature columns");
    if (!texts.empty() && Index(texts.size()) != features.rows())
        throw Error(where + ": " + std::to_string(texts.size()) + " texts for " + std::to_string(features.rows()) +
                    " samples");
    if (!featureNames.empty() && Index(featureNames.size()) != features.cols())
        throw Error(where + ": " + std::to_string(featureNames.size()) + " feature names for " +
                    std::to_string(features.cols()) + " columns");
    if (task == Task::Regression) {
        if (targets.rows() != features.rows() || targets.cols() < 1)
            throw Error(where + ": regression targets must have one row per sample and at least one column");
        return;
    }
    if (Index(labels.size()) != features.rows())
        throw Error(where + ": " + std::to_string(labels.size()) + " labels for " + std::to_string(features.rows()) +
                    " samples");
    if (task == Task::Binary && classCount() != 2)
        throw Error(where + ": a binary task needs exactly 2 classes, found " + std::to_string(classCount()));
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (labels[i] < 0 || labels[i] >= classCount())
            throw Error(where + ": sample " + std::to_string(i + 1) + " has label " + std::to_string(labels[i]) +
                        " outside the " + std::to_string(classCount()) + " declared classes");
}

std::string Dataset::skippedFilesWarning() const {
    if (skipped.empty()) return {};
    constexpr std::size_t named = 3;
    const std::size_t total = std::size_t(size()) + skipped.size();
    std::string s = std::to_string(skipped.size()) + " of " + std::to_string(total) +
                    " image files could not be read and " + (skipped.size() == 1 ? "was" : "were") + " skipped: ";
    for (std::size_t i = 0; i < skipped.size() && i < named; ++i)
        s += (i ? ", " : "") + skipped[i].path + " (" + skipped[i].reason + ")";
    if (skipped.size() > named) s += " and " + std::to_string(skipped.size() - named) + " more";
    return s;
}

}  // namespace skynnet
