#include "ui/core/run_log_progress.h"

#include <QFile>
#include <algorithm>
#include <numeric>

#include "io/json.h"

namespace skynnet::ui {

bool RunLogProgress::poll() {
    QFile file(path_);
    if (path_.isEmpty() || !file.open(QIODevice::ReadOnly)) return false;  // not written yet
    if (file.size() < offset_) {  // written afresh (a continued study reuses a stopped run's log)
        offset_ = 0;
        partial_.clear();
        totals_.clear();
        done_.clear();
    }
    if (!file.seek(offset_)) return false;
    const QByteArray added = file.readAll();
    offset_ += added.size();
    partial_ += added;
    bool changed = false;
    qsizetype start = 0;
    for (qsizetype end = partial_.indexOf('\n'); end >= 0; end = partial_.indexOf('\n', start)) {
        changed |= feed(partial_.mid(start, end - start));
        start = end + 1;
    }
    partial_.remove(0, start);
    return changed;
}

bool RunLogProgress::feed(const QByteArray& raw) {
    const QByteArray line = raw.trimmed();
    if (!line.startsWith('{')) return false;  // the tool's human lines
    std::optional<ProgressEvent> event;
    try {
        const Json j = parseJson(std::string_view(line.constData(), std::size_t(line.size())), "run log");
        event = progressEventFromJson(JsonField(j, "run log"));
    } catch (const std::exception&) {
        return false;  // a line cut short or another program's braces: progress is best effort
    }
    if (!event) return false;
    if (const auto* plan = std::get_if<PlanEvent>(&*event)) {
        submodels_ = plan->submodels;
        totals_.assign(std::size_t(std::max(plan->submodels, 1)), plan->epochs);
        if (plan->baseline) totals_.push_back(plan->baselineEpochs);
        done_.assign(totals_.size(), 0.0);
        return true;
    }
    if (const auto* batch = std::get_if<BatchEvent>(&*event)) {
        const BatchProgress& b = batch->progress;
        if (b.batches <= 0 || b.epoch <= 0) return false;
        return advance(indexOf(batch->tag), b.epoch - 1 + double(b.batch) / b.batches);
    }
    if (const auto* epoch = std::get_if<EpochEvent>(&*event)) return advance(indexOf(epoch->tag), epoch->stats.epoch);
    if (const auto* finished = std::get_if<FinishedEvent>(&*event)) {
        // Early stopping ends a model before its last epoch: it is done all the same.
        const int i = indexOf(finished->tag);
        return i >= 0 && advance(i, totals_[std::size_t(i)]);
    }
    return false;
}

int RunLogProgress::indexOf(const ModelTag& tag) const {
    int i = -1;
    switch (tag.model) {
    case EventModel::Submodel: i = tag.submodel - 1; break;  // numbered from 1
    case EventModel::Network: i = 0; break;
    case EventModel::Baseline: i = std::max(submodels_, 1); break;
    }
    return i >= 0 && i < int(totals_.size()) ? i : -1;
}

bool RunLogProgress::advance(int index, double epochs) {
    if (index < 0) return false;
    double& done = done_[std::size_t(index)];
    const double now = std::min(epochs, double(totals_[std::size_t(index)]));
    if (now <= done) return false;
    done = now;
    return true;
}

double RunLogProgress::epochsDone() const { return std::accumulate(done_.begin(), done_.end(), 0.0); }

int RunLogProgress::epochsTotal() const { return std::accumulate(totals_.begin(), totals_.end(), 0); }

double RunLogProgress::fraction() const {
    const int total = epochsTotal();
    return total > 0 ? epochsDone() / total : 0.0;
}

}  // namespace skynnet::ui
