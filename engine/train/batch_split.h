#pragma once
// Data parallelism inside one batch whose results do not depend on the number of kernel threads:
// the batch is cut into slices fixed by its size and the network alone (slicesFor), the threads
// there are take slices as they come free, each on its own replica of the network with single-threaded
// kernels, each slice's gradient lands in a buffer of its own, and the buffers are summed in slice
// order. So 1, 2 or 8 threads compute the same floats, and a scheduler may give a running model
// more cores. One parallel region per step instead of one per matrix product (Eigen's own parallel
// products scaled only 1.2x on these 2-core machines).
#include <functional>
#include <vector>

#include "core/task.h"
#include "losses/loss.h"
#include "model/network.h"
#include "optim/optimizer.h"

namespace skynnet {

class BatchSplit {
public:
    // The slices a batch of `rows` rows gets on a network of `flopsPerSample` forward FLOPs: about
    // 64 rows each (smaller slices starve the matrix kernels), none under ~4 MFLOP of forward and
    // backward (a thread would not even wake up in that time: two threads made a 4-64-64-2
    // network 100x slower when the other core was busy), at most kMaxSlices (each slice holds a
    // gradient buffer the size of the parameters).
    static constexpr int kMaxSlices = 8;
    static int slicesFor(Index rows, std::int64_t flopsPerSample);

    struct Step {
        double loss = 0;       // mean over the batch
        double metricSum = 0;  // classification: correct predictions in the batch
    };
    // Writes the whole batch's parameter gradients into master's params (as one pass would, up to
    // float rounding), from `slices` slices spread over up to `threads` threads. The floats depend
    // on the slices, never on the threads.
    // step: the optimiser step, which with each row's place in the batch seeds its dropout masks.
    Step computeGradients(Network& master, const Loss& loss, Task task, const Matrix& x, const Matrix& y,
                          std::uint64_t step, int slices, int threads);

    // The same in two halves, so that the second can run inside the optimiser's update (see
    // optimizerHooks): each slice's gradient in its own buffer, then their sum into master's.
    Step computeSliceGradients(Network& master, const Loss& loss, Task task, const Matrix& x, const Matrix& y,
                               std::uint64_t step, int slices, int threads);
    // Fills x and y with rows [begin, end) of a batch: the thread that takes a slice gathers its
    // rows itself, so the batch is never gathered whole on one thread and then copied again.
    using BatchRows = std::function<void(Index begin, Index end, Matrix& x, Matrix& y)>;
    // The rows of a batch already gathered whole (copied from x and y, which must outlive it).
    static BatchRows rowsOf(const Matrix& x, const Matrix& y);
    Step computeSliceGradients(Network& master, const Loss& loss, Task task, Index rows, const BatchRows& rowsOf,
                               std::uint64_t step, int slices, int threads);
    void sumSliceGradients(int threads);
    // One segment of that sum: gradient values [begin, begin + len) of parameter `param`, into `to`.
    void sumSlices(std::size_t param, Index begin, Index len, Scalar* to) const;
    // Hooks for the update that follows computeSliceGradients: each segment's gradient is summed
    // just before it is updated (into the update's scratch: master's gradient is not written), and
    // its new values go to the replicas just after, so that the next computeSliceGradients need not
    // copy the weights (an unbalanced serial copy on one thread).
    SegmentHooks optimizerHooks();
    // Call after an update that ran with optimizerHooks(): every replica now holds the master's
    // weights. Anything else that changes master's weights leaves the next step to copy them.
    void replicasUpdated() { replicasCurrent_ = true; }
    void masterWeightsChanged() { replicasCurrent_ = false; }

    std::int64_t bufferBytes() const;

private:
    std::vector<Network> replicas_;                  // threads 1..n-1; thread 0 runs on the master itself
    std::vector<std::vector<Matrix>> sliceGrads_;    // per slice: its parameter gradients
    std::vector<Matrix> xs_, ys_, grads_;            // per thread: the slice's rows and output gradient
    std::vector<Step> steps_;                        // per slice
    std::vector<Param> masterParams_;                // of the last step
    std::vector<std::vector<Param>> replicaParams_;  // of the last step, per replica
    int slices_ = 0;                                 // of the last step
    bool replicasCurrent_ = false;                   // the replicas hold the master's weights
};

// One forward and backward pass of a whole batch on one network: loss and correct predictions.
// The gradient of every parameter is written for a loss averaged over `totalRows` rows.
BatchSplit::Step forwardBackward(Network& net, const Loss& loss, Task task, const Matrix& x, const Matrix& y,
                                 Index totalRows, Matrix& grad);

}  // namespace skynnet
