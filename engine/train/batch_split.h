#pragma once
// Data parallelism inside one batch: each kernel thread runs forward and backward of its slice of
// the batch on its own replica of the network with single-threaded kernels, then the slices'
// gradients are summed into the master network. One parallel region per step instead of one per
// matrix product (Eigen's own parallel products scaled only 1.2x on these 2-core machines).
#include <vector>

#include "core/task.h"
#include "losses/loss.h"
#include "model/network.h"

namespace skynnet {

class BatchSplit {
public:
    BatchSplit(const Network& master, int threads);

    int threads() const { return int(replicas_.size()) + 1; }
    struct Step {
        double loss = 0;       // mean over the batch
        double metricSum = 0;  // classification: correct predictions in the batch
    };
    // Writes the whole batch's parameter gradients into master's params (as one pass would).
    // step: the optimiser step, which with each row's place in the batch seeds its dropout masks.
    Step computeGradients(Network& master, const Loss& loss, Task task, const Matrix& x, const Matrix& y,
                          std::uint64_t step);
    std::int64_t bufferBytes() const;

private:
    std::vector<Network> replicas_;  // threads 1..n-1; thread 0 runs on the master itself
    std::vector<Matrix> xs_, ys_, grads_;
    std::vector<Step> steps_;
};

// One forward and backward pass of a whole batch on one network: loss and correct predictions.
// The gradient of every parameter is written for a loss averaged over `totalRows` rows.
BatchSplit::Step forwardBackward(Network& net, const Loss& loss, Task task, const Matrix& x, const Matrix& y,
                                 Index totalRows, Matrix& grad);

}  // namespace skynnet
