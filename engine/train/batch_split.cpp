#include "train/batch_split.h"

#include <algorithm>
#include <atomic>

#include "core/parallel.h"
#include "core/work_profile.h"
#include "train/metrics.h"

namespace skynnet {

BatchSplit::Step forwardBackward(Network& net, const Loss& loss, Task task, const Matrix& x, const Matrix& y,
                                 Index totalRows, Matrix& grad) {
    BatchSplit::Step step;
    const Matrix& out = net.forward(x, true);
    const double share = double(x.rows()) / double(totalRows);
    step.loss = loss.value(out, y) * share;
    if (!predictsValues(task)) step.metricSum = headlineMetric(task, out, y) * double(x.rows());
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

int BatchSplit::slicesFor(Index rows, std::int64_t flopsPerSample) {
    constexpr Index kSliceRows = 64;
    constexpr double kMinSliceFlops = 4e6;
    const double stepFlops = 3.0 * double(flopsPerSample) * double(rows);  // forward and backward
    const Index byRows = (rows + kSliceRows / 2) / kSliceRows;
    const auto byFlops = Index(stepFlops / kMinSliceFlops);
    return int(std::max<Index>(1, std::min({byRows, byFlops, Index(kMaxSlices)})));
}

BatchSplit::Step BatchSplit::computeGradients(Network& master, const Loss& loss, Task task, const Matrix& x,
                                              const Matrix& y, std::uint64_t step, int slices, int threads) {
    const Step total = computeSliceGradients(master, loss, task, x, y, step, slices, threads);
    sumSliceGradients(threads);
    return total;
}

BatchSplit::Step BatchSplit::computeSliceGradients(Network& master, const Loss& loss, Task task, const Matrix& x,
                                                   const Matrix& y, std::uint64_t step, int slices, int threads) {
    return computeSliceGradients(master, loss, task, x.rows(), rowsOf(x, y), step, slices, threads);
}

BatchSplit::BatchRows BatchSplit::rowsOf(const Matrix& x, const Matrix& y) {
    return [&x, &y](Index begin, Index end, Matrix& xs, Matrix& ys) {
        xs = x.middleRows(begin, end - begin);
        ys = y.middleRows(begin, end - begin);
    };
}

BatchSplit::Step BatchSplit::computeSliceGradients(Network& master, const Loss& loss, Task task, Index rows,
                                                   const BatchRows& rowsOf, std::uint64_t step, int slices,
                                                   int threads) {
    slices = int(std::clamp<Index>(slices, 1, std::max<Index>(rows, 1)));
    threads = std::clamp(threads, 1, slices);
    masterParams_ = master.params();
    const std::vector<Param>& masterParams = masterParams_;
    slices_ = slices;
    // Unless the last update copied the new weights over, each replica starts from the master's.
    const bool copyWeights = !replicasCurrent_;
    replicasCurrent_ = false;
    while (int(replicas_.size()) < threads - 1) replicas_.push_back(master);
    replicaParams_.clear();
    for (Network& r : replicas_) replicaParams_.push_back(r.params());
    // Buffers only grow: the epoch's last, shorter batch would otherwise free them for one step.
    if (sliceGrads_.size() < std::size_t(slices)) sliceGrads_.resize(std::size_t(slices));
    for (std::size_t s = 0; s < std::size_t(slices); ++s) {
        // Shaped like the gradients they stand in for: a layer may add into its gradient in place.
        sliceGrads_[s].resize(masterParams.size());
        for (std::size_t i = 0; i < masterParams.size(); ++i)
            sliceGrads_[s][i].resize(masterParams[i].grad->rows(), masterParams[i].grad->cols());
    }
    if (xs_.size() < std::size_t(threads)) {
        xs_.resize(std::size_t(threads));
        ys_.resize(std::size_t(threads));
        grads_.resize(std::size_t(threads));
    }
    steps_.assign(std::size_t(slices), Step{});
    // Layer state learnt from the batch (BatchNorm's running statistics) is folded in once, from
    // every slice in row order, after the region: which thread ran which slice does not matter.
    std::vector<Network*> replicas;
    for (auto& r : replicas_) replicas.push_back(&r);
    master.deferStateUpdates(true);
    for (Network* r : replicas) r->deferStateUpdates(true);
    // Threads take the next slice as they come free, so a thread the OS holds back (another
    // process on its core) costs its share of the work, not a stall of the whole step.
    std::atomic<int> nextSlice{0};
    // For the work profile: the threads' time in the region that no slice used (waking up, and
    // waiting for the last slice to end).
    std::vector<double> busySeconds(std::size_t(threads), 0.0);
    std::atomic<int> team{1};  // the threads OpenMP granted
    const workprofile::WorkTimer region;
    parallelRegion(threads, [&](int t) {
        const workprofile::WorkTimer busy;
        if (t == 0) team = currentTeamSize();
        // Inside a slice every kernel is single-threaded, whatever this thread's budget.
        const KernelThreadScope serial(1);
        Network& net = t == 0 ? master : replicas_[std::size_t(t - 1)];
        std::vector<Param> mine = net.params();
        if (t > 0 && copyWeights)
            for (std::size_t i = 0; i < mine.size(); ++i) *mine[i].value = *masterParams[i].value;
        const auto n = std::size_t(t);
        for (int s = nextSlice++; s < slices; s = nextSlice++) {
            const Index begin = rows * s / slices, end = rows * (s + 1) / slices;
            // The slice's gradient lands in its own buffer: the buffers' storage is swapped in
            // (no copy) around the pass.
            std::vector<Matrix>& own = sliceGrads_[std::size_t(s)];
            for (std::size_t i = 0; i < mine.size(); ++i) mine[i].grad->swap(own[i]);
            net.setBatchOrigin(step, begin);
            {
                const workprofile::ScopedWork gather("gathering the slices' rows", 1);
                rowsOf(begin, end, xs_[n], ys_[n]);
            }
            steps_[std::size_t(s)] = forwardBackward(net, loss, task, xs_[n], ys_[n], rows, grads_[n]);
            for (std::size_t i = 0; i < mine.size(); ++i) mine[i].grad->swap(own[i]);
        }
        busySeconds[n] = busy.seconds();
    });
    if (region.running() && threads > 1) {
        double idle = region.seconds() * team;
        for (double b : busySeconds) idle -= b;
        workprofile::add("threads idle in the slices' region", idle);
    }
    master.foldDeferredState(replicas);
    master.deferStateUpdates(false);
    Step total;
    for (const Step& s : steps_) {
        total.loss += s.loss;
        total.metricSum += s.metricSum;
    }
    return total;
}

void BatchSplit::sumSlices(std::size_t param, Index begin, Index len, Scalar* to) const {
    using Values = Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
    using ConstValues = Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
    const auto slice = [&](int s) { return ConstValues(sliceGrads_[std::size_t(s)][param].data() + begin, len); };
    // Each value is summed in slice order whichever thread sums it.
    Values sum(to, len);
    if (slices_ == 1) sum = slice(0);
    else sum = slice(0) + slice(1);
    for (int s = 2; s < slices_; ++s) sum += slice(s);
}

void BatchSplit::sumSliceGradients(int threads) {
    // Split over the threads by parameter segment (all parameters' segments in one parallel loop:
    // each region costs a wake-up).
    constexpr Index kSegment = 16384;
    std::vector<std::pair<std::size_t, Index>> segments;  // (parameter, first value)
    for (std::size_t i = 0; i < masterParams_.size(); ++i)
        for (Index begin = 0; begin < masterParams_[i].grad->size(); begin += kSegment) segments.emplace_back(i, begin);
    const KernelThreadScope sumThreads(threads);
    std::int64_t values = 0;
    for (const Param& p : masterParams_) values += p.grad->size();
    constexpr std::int64_t kSummedValuesPerThread = 32768;
    parallelFor(0, std::int64_t(segments.size()), threadsWorthFor(values * slices_, kSummedValuesPerThread),
                [&](std::int64_t g) {
                    const auto [i, begin] = segments[std::size_t(g)];
                    sumSlices(i, begin, std::min(kSegment, masterParams_[i].grad->size() - begin),
                              masterParams_[i].grad->data() + begin);
                });
}

SegmentHooks BatchSplit::optimizerHooks() {
    SegmentHooks hooks;
    hooks.gradient = [this](std::size_t param, Index begin, Index len, Scalar* to) {
        sumSlices(param, begin, len, to);
    };
    hooks.after = [this](std::size_t param, Index begin, Index len) {
        const Scalar* from = masterParams_[param].value->data() + begin;
        for (const std::vector<Param>& replica : replicaParams_)
            std::copy_n(from, len, replica[param].value->data() + begin);
    };
    hooks.prefetch = [this](std::size_t param, Index begin, Index len) {
        for (int s = 0; s < slices_; ++s) prefetchValues(sliceGrads_[std::size_t(s)][param].data() + begin, len);
        for (const std::vector<Param>& replica : replicaParams_)
            prefetchValues(replica[param].value->data() + begin, len);
    };
    return hooks;
}

std::int64_t BatchSplit::bufferBytes() const {
    std::int64_t n = 0;
    for (const auto& r : replicas_) n += r.bufferBytes();
    for (const auto& r : replicas_) n += 2 * std::int64_t(r.paramCount()) * std::int64_t(sizeof(Scalar));
    for (const auto& grads : sliceGrads_)
        for (const auto& g : grads) n += matrixBytes(g);
    for (std::size_t t = 0; t < xs_.size(); ++t)
        n += matrixBytes(xs_[t]) + matrixBytes(ys_[t]) + matrixBytes(grads_[t]);
    return n;
}

}  // namespace skynnet
