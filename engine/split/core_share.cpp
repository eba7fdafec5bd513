#include "split/core_share.h"

namespace skynnet {

CoreShare::CoreShare(std::vector<int> threadsPerWorker)
    : threads_(std::move(threadsPerWorker)), working_(threads_.size(), true) {}

int CoreShare::threadsOf(int worker) const {
    const std::lock_guard lock(mutex_);
    return threads_.at(std::size_t(worker));
}

void CoreShare::retire(int worker) {
    const std::lock_guard lock(mutex_);
    const std::size_t me = std::size_t(worker);
    if (!working_.at(me)) return;
    working_[me] = false;
    for (int core = threads_[me]; core > 0; --core) {
        std::size_t fewest = threads_.size();
        for (std::size_t w = 0; w < threads_.size(); ++w)
            if (working_[w] && (fewest == threads_.size() || threads_[w] < threads_[fewest])) fewest = w;
        if (fewest == threads_.size()) break;
        ++threads_[fewest];
    }
    threads_[me] = 0;
}

}  // namespace skynnet
