#pragma once
// Preprocessing fitted on the training split only, then applied unchanged to validation, test and
// prediction data. It is part of a saved model, so a model predicts from raw features.
#include <string>
#include <vector>

#include "data/dataset.h"

namespace skynnet {

// MinMax scales each column by its own range. PixelRange scales every column by one range, the
// smallest and largest value of the whole training matrix: a convolution shares its weights
// across positions, which assumes every position is on the same scale (a per-column range would
// magnify a corner pixel that is rarely lit). The default for images.
enum class Scaling { None, Standardize, MinMax, PixelRange };

std::string scalingName(Scaling s);             // "none", "standardize", "minmax", "pixel-range"
Scaling parseScaling(const std::string& name);  // throws Error naming the value

struct Preprocessing {
    Scaling scaling = Scaling::Standardize;
    int rawColumns = 0;                        // feature columns of the raw dataset
    std::vector<Dataset::Categorical> oneHot;  // categorical raw columns and their fitted categories
    std::vector<int> numericColumns;           // raw columns that are scaled, in order
    RowVector offset, scale;                   // per numeric column: x' = (x - offset) * scale

    // Learns categories and scaling from the training split only.
    void fit(const Dataset& train);
    // Raw features -> network input: numeric columns scaled, then each categorical column one-hot
    // (an unseen category code gives all zeros). Throws Error on a column-count mismatch.
    Matrix apply(const Matrix& raw) const;
    int outputColumns() const;
    std::vector<std::string> outputNames(const std::vector<std::string>& rawNames) const;
    bool fitted() const { return rawColumns > 0; }
};

}  // namespace skynnet
