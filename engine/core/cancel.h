#pragma once
// A cancellation token shared between the thread that asks and the workers that check it at batch
// boundaries. Atomic, never a plain bool.
#include <atomic>
#include <memory>

namespace skynnet {

class CancelToken {
public:
    void cancel() { flag_->store(true, std::memory_order_relaxed); }
    bool cancelled() const { return flag_->load(std::memory_order_relaxed); }
    void reset() { flag_->store(false, std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> flag_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace skynnet
