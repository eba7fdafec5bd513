#include "train/batch_split.h"

#include <algorithm>

#include "core/parallel.h"
#include "train/metrics.h"

namespace skynnet {

BatchSplit::Step forwardBackward(Network& net, const Loss& loss, Task task, const Matrix& x, const Matrix& y,
                                 Index totalRows, Matrix& grad) {
    BatchSplit::Step step;
    const Matrix& out = net.forward(x, true);
    const double share = double(x.rows()) / double(totalRows);
    step.loss = loss.value(out, y) * share;
    if (task != Task::Regression) step.metricSum = headlineMetric(task, out, y) * double(x.rows());
    const std::size_t layers = net.layers().size();
    // Every loss is a mean over rows: a slice's gradient, scaled by its share, is its part of the
    // whole batch's gradient.
    const bool fused = loss.fusesWith() != Activation::None && net.endsWith(loss.fusesWith());
    if (fused) loss.fusedGradient(out, y, grad);
    else loss.gradient(out, y, grad);
    if (x.rows() != totalRows) grad *= Scalar(share);
    net.backward(grad, fused ? layers - 1 : layers);
    return step;
}

BatchSplit::BatchSplit(const Network& master, int threads) {
    for (int t = 1; t < threads; ++t) replicas_.push_back(master);
    xs_.resize(std::size_t(threads));
    ys_.resize(std::size_t(threads));
    grads_.resize(std::size_t(threads));
    steps_.resize(std::size_t(threads));
}

BatchSplit::Step BatchSplit::computeGradients(Network& master, const Loss& loss, Task task, const Matrix& x,
                                              const Matrix& y, std::uint64_t step) {
    const int n = threads();
    const Index rows = x.rows();
    std::vector<Param> masterParams = master.params();
    parallelRegion(n, [&](int t) {
        const Index begin = rows * t / n, end = rows * (t + 1) / n;
        Network& net = t == 0 ? master : replicas_[std::size_t(t - 1)];
        if (t > 0) {
            // The replica starts each step from the master's current weights.
            std::vector<Param> mine = net.params();
            for (std::size_t i = 0; i < mine.size(); ++i) *mine[i].value = *masterParams[i].value;
        }
        net.setBatchOrigin(step, begin);
        xs_[std::size_t(t)] = x.middleRows(begin, end - begin);
        ys_[std::size_t(t)] = y.middleRows(begin, end - begin);
        steps_[std::size_t(t)] = forwardBackward(net, loss, task, xs_[std::size_t(t)], ys_[std::size_t(t)], rows,
                                                 grads_[std::size_t(t)]);
    });
    // Sum the replicas' gradients into the master's, split over the threads by parameter segment.
    std::vector<std::vector<Param>> replicaParams;
    for (auto& r : replicas_) replicaParams.push_back(r.params());
    constexpr Index kSegment = 16384;
    for (std::size_t i = 0; i < masterParams.size(); ++i) {
        Matrix& total = *masterParams[i].grad;
        const Index size = total.size();
        parallelFor(0, (size + kSegment - 1) / kSegment, [&](std::int64_t s) {
            const Index begin = Index(s) * kSegment, len = std::min(kSegment, size - begin);
            auto sum = Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>(total.data() + begin, len);
            for (auto& rp : replicaParams)
                sum += Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>(rp[i].grad->data() + begin, len);
        });
    }
    Step total;
    for (const Step& s : steps_) {
        total.loss += s.loss;
        total.metricSum += s.metricSum;
    }
    return total;
}

std::int64_t BatchSplit::bufferBytes() const {
    std::int64_t n = 0;
    for (const auto& r : replicas_) n += r.bufferBytes();
    for (const auto& r : replicas_) n += 2 * std::int64_t(r.paramCount()) * std::int64_t(sizeof(Scalar));
    for (std::size_t t = 0; t < xs_.size(); ++t) n += matrixBytes(xs_[t]) + matrixBytes(ys_[t]) + matrixBytes(grads_[t]);
    return n;
}

}  // namespace skynnet
