#include "split/class_group_rules.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace skynnet {
namespace {

using RowD = Eigen::RowVectorXd;

// Below this a probability is treated as this: the log stays finite and a class rejected by one
// referee still ranks by the others (float softmax can round a far-off class to exactly 0).
constexpr double kMinProbability = 1e-30;

// Row r of every submodel as one vote per class: its probability for an owned class; with an
// "other" output, other / (classes it does not own) for the rest; NaN where it does not vote.
Eigen::MatrixXd votes(const std::vector<Matrix>& subProbs, const std::vector<std::vector<int>>& classes, int count,
                      bool other, Index r) {
    Eigen::MatrixXd v = Eigen::MatrixXd::Constant(Index(subProbs.size()), count, std::nan(""));
    for (std::size_t s = 0; s < subProbs.size(); ++s) {
        const auto& owned = classes[s];
        if (other) {
            const int notOwned = count - int(owned.size());
            if (notOwned > 0) v.row(Index(s)).setConstant(double(subProbs[s](r, Index(owned.size()))) / notOwned);
        }
        for (std::size_t k = 0; k < owned.size(); ++k) v(Index(s), owned[k]) = double(subProbs[s](r, Index(k)));
    }
    return v;
}

RowD productRow(const Eigen::MatrixXd& v) {
    RowD logs = RowD::Zero(v.cols());  // log(1) for a class nobody votes on
    for (Index s = 0; s < v.rows(); ++s)
        for (Index c = 0; c < v.cols(); ++c)
            if (!std::isnan(v(s, c))) logs(c) += std::log(std::max(v(s, c), kMinProbability));
    const RowD e = (logs.array() - logs.maxCoeff()).exp();
    return e / e.sum();
}

RowD sumRow(const Eigen::MatrixXd& v) {
    RowD mean = RowD::Zero(v.cols());
    for (Index c = 0; c < v.cols(); ++c) {
        int voters = 0;
        for (Index s = 0; s < v.rows(); ++s)
            if (!std::isnan(v(s, c))) mean(c) += v(s, c), ++voters;
        if (voters > 0) mean(c) /= voters;
    }
    const double total = mean.sum();
    return total > 0 ? RowD(mean / total) : RowD::Constant(v.cols(), 1.0 / double(v.cols()));
}

// Minimises p^T Q p with sum p = 1, Q = sum_s A_s^T A_s, row k of A_s being e_{I_k} - r_k 1_{I_s}:
// the stationary point of the Lagrangian solves [Q 1; 1^T 0] [p; mu] = [0; 1].
RowD couplingRow(const std::vector<Matrix>& subProbs, const std::vector<std::vector<int>>& classes, int count,
                 Index r) {
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(count + 1, count + 1);
    for (std::size_t s = 0; s < subProbs.size(); ++s) {
        const auto& owned = classes[s];
        const Index m = Index(owned.size());
        Eigen::VectorXd own = subProbs[s].row(r).head(m).cast<double>().transpose().cwiseMax(0.0);
        own /= std::max(own.sum(), kMinProbability);
        Eigen::MatrixXd a = Eigen::MatrixXd::Zero(m, count);
        for (Index k = 0; k < m; ++k) {
            a(k, owned[std::size_t(k)]) += 1;
            for (Index l = 0; l < m; ++l) a(k, owned[std::size_t(l)]) -= own(k);
        }
        kkt.topLeftCorner(count, count) += a.transpose() * a;
    }
    kkt.topRightCorner(count, 1).setOnes();
    kkt.bottomLeftCorner(1, count).setOnes();
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(count + 1);
    rhs(count) = 1;
    // Rank-revealing: a class no submodel owns leaves Q singular; it then gets what the
    // least-squares solution gives it (0 after the cut), not a failure.
    const Eigen::VectorXd solution = kkt.completeOrthogonalDecomposition().solve(rhs);
    RowD p = solution.head(count).transpose().cwiseMax(0.0);
    const double total = p.sum();
    return total > 0 ? RowD(p / total) : RowD::Constant(count, 1.0 / double(count));
}

}  // namespace

std::string classCombineName(ClassCombine c) {
    switch (c) {
    case ClassCombine::Product: return "product";
    case ClassCombine::Coupling: return "coupling";
    case ClassCombine::Sum: return "sum";
    case ClassCombine::Stacked: return "stacked";
    }
    return "product";
}

ClassCombine parseClassCombine(const std::string& name) {
    for (ClassCombine c : {ClassCombine::Product, ClassCombine::Coupling, ClassCombine::Sum, ClassCombine::Stacked})
        if (name == classCombineName(c)) return c;
    throw Error("unknown combination rule '" + name + "' (expected product, coupling, sum or stacked)");
}

Matrix combineClassProbabilities(const std::vector<Matrix>& subProbs, const std::vector<std::vector<int>>& classes,
                                 int classCount, bool otherOutput, ClassCombine how) {
    if (how == ClassCombine::Stacked)
        throw Error("the stacked rule combines by weights fitted on the validation rows: combine with a rule that "
                    "holds them (combination.h)");
    const Index rows = subProbs.empty() ? 0 : subProbs[0].rows();
    Matrix out(rows, classCount);
    for (Index r = 0; r < rows; ++r) {
        // Double precision: g-1 clamped logs can reach a few hundred, beyond float's comfort.
        const RowD p = how == ClassCombine::Coupling ? couplingRow(subProbs, classes, classCount, r)
                                                     : (how == ClassCombine::Sum ? sumRow : productRow)(
                                                           votes(subProbs, classes, classCount, otherOutput, r));
        out.row(r) = p.cast<Scalar>();
    }
    return out;
}

}  // namespace skynnet
