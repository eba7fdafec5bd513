#include "data/preprocessing.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"

namespace skynnet {

std::string scalingName(Scaling s) {
    switch (s) {
    case Scaling::None: return "none";
    case Scaling::Standardize: return "standardize";
    case Scaling::MinMax: return "minmax";
    case Scaling::PixelRange: return "pixel-range";
    }
    return "none";
}

Scaling parseScaling(const std::string& name) {
    if (name == "none") return Scaling::None;
    if (name == "standardize" || name == "standard" || name == "zscore") return Scaling::Standardize;
    if (name == "minmax" || name == "min-max") return Scaling::MinMax;
    if (name == "pixel-range" || name == "pixels") return Scaling::PixelRange;
    throw Error("unknown scaling '" + name + "' (expected none, standardize, minmax or pixel-range)");
}

void Preprocessing::fit(const Dataset& train) {
    const Matrix& x = train.features;
    if (x.rows() == 0 || x.cols() == 0)
        throw Error((train.source.empty() ? std::string("dataset") : train.source) +
                    ": cannot fit preprocessing on an empty training split");
    rawColumns = int(x.cols());
    // The category lists are the dataset's declared ones, whose codes the raw matrix holds, so the
    // one-hot slot of a category is the same in training and in prediction.
    oneHot = train.categoricals;
    std::sort(oneHot.begin(), oneHot.end(), [](const auto& a, const auto& b) { return a.column < b.column; });
    std::vector<bool> categorical(std::size_t(rawColumns), false);
    for (const auto& c : oneHot) {
        if (c.column < 0 || c.column >= rawColumns)
            throw Error(train.source + ": categorical column " + std::to_string(c.column) + " is outside the " +
                        std::to_string(rawColumns) + " feature columns");
        categorical[std::size_t(c.column)] = true;
    }
    numericColumns.clear();
    for (int c = 0; c < rawColumns; ++c)
        if (!categorical[std::size_t(c)]) numericColumns.push_back(c);

    const std::size_t n = numericColumns.size();
    offset = RowVector::Zero(Index(n));
    scale = RowVector::Ones(Index(n));
    if (scaling == Scaling::None || n == 0) return;

    // Accumulate in double, row by row (the matrix is row-major), over the training rows only.
    std::vector<double> a(n, 0.0), b(n, 0.0);
    if (scaling == Scaling::PixelRange) {
        double lo = x(0, numericColumns[0]), hi = lo;
        for (Index r = 0; r < x.rows(); ++r)
            for (const int c : numericColumns) {
                lo = std::min(lo, double(x(r, c)));
                hi = std::max(hi, double(x(r, c)));
            }
        offset.setConstant(Scalar(lo));
        if (hi > lo) scale.setConstant(Scalar(1.0 / (hi - lo)));  // a constant image keeps scale 1
        return;
    }
    if (scaling == Scaling::MinMax) {
        for (std::size_t j = 0; j < n; ++j) a[j] = b[j] = x(0, numericColumns[j]);
        for (Index r = 1; r < x.rows(); ++r)
            for (std::size_t j = 0; j < n; ++j) {
                const double v = x(r, numericColumns[j]);
                a[j] = std::min(a[j], v);
                b[j] = std::max(b[j], v);
            }
        for (std::size_t j = 0; j < n; ++j) {
            offset[Index(j)] = Scalar(a[j]);
            if (b[j] > a[j]) scale[Index(j)] = Scalar(1.0 / (b[j] - a[j]));  // a constant column keeps scale 1
        }
        return;
    }
    for (Index r = 0; r < x.rows(); ++r)
        for (std::size_t j = 0; j < n; ++j) a[j] += x(r, numericColumns[j]);
    for (double& m : a) m /= double(x.rows());
    for (Index r = 0; r < x.rows(); ++r)
        for (std::size_t j = 0; j < n; ++j) {
            const double d = x(r, numericColumns[j]) - a[j];
            b[j] += d * d;
        }
    for (std::size_t j = 0; j < n; ++j) {
        offset[Index(j)] = Scalar(a[j]);
        const double sd = std::sqrt(b[j] / double(x.rows()));  // population std of the training rows
        if (sd > 0 && Scalar(1.0 / sd) < std::numeric_limits<Scalar>::infinity()) scale[Index(j)] = Scalar(1.0 / sd);
    }
}

int Preprocessing::outputColumns() const {
    int n = int(numericColumns.size());
    for (const auto& c : oneHot) n += int(c.categories.size());
    return n;
}

Matrix Preprocessing::apply(const Matrix& raw) const {
    if (!fitted()) throw Error("preprocessing is applied before being fitted");
    if (raw.cols() != rawColumns)
        throw Error("preprocessing expects " + std::to_string(rawColumns) + " feature columns, got " +
                    std::to_string(raw.cols()));
    Matrix out(raw.rows(), outputColumns());
    const Index n = Index(numericColumns.size());
    if (n > 0)
        out.leftCols(
            n) = ((raw(Eigen::all, numericColumns).rowwise() - offset).array().rowwise() * scale.array()).matrix();
    Index at = n;
    for (const auto& c : oneHot) {
        const Index k = Index(c.categories.size());
        auto block = out.middleCols(at, k);
        block.setZero();
        for (Index r = 0; r < raw.rows(); ++r) {
            // Codes outside the fitted categories (e.g. -1 for an unseen category) stay all zeros.
            const Scalar code = raw(r, c.column);
            if (code >= 0 && code < Scalar(k) && code == std::floor(code)) block(r, Index(code)) = 1;
        }
        at += k;
    }
    return out;
}

std::vector<std::string> Preprocessing::outputNames(const std::vector<std::string>& rawNames) const {
    auto name = [&](int c) {
        return std::size_t(c) < rawNames.size() ? rawNames[std::size_t(c)] : "x" + std::to_string(c + 1);
    };
    std::vector<std::string> names;
    for (int c : numericColumns) names.push_back(name(c));
    for (const auto& c : oneHot)
        for (const auto& category : c.categories) names.push_back(name(c.column) + "=" + category);
    return names;
}

}  // namespace skynnet
