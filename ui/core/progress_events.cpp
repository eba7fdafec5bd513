#include "ui/core/progress_events.h"

namespace skynnet::ui {
namespace {

// The TrainResult of a finished event, as the engine's callbacks hand it on (without history).
TrainResult finishedResult(const FinishedEvent& e) {
    TrainResult r;
    r.status = e.status;
    r.error = e.error;
    r.wallSeconds = e.wallSeconds;
    r.cpuSeconds = e.cpuSeconds;
    return r;
}

}  // namespace

ProgressEventReader::ProgressEventReader(RunEventBuffer& buffer, int submodels)
    : buffer_(buffer), submodel_(buffer.submodelEvents()), baseline_(buffer.baselineCallbacks()),
      submodels_(submodels) {
    history_.resize(std::size_t(std::max(submodels, 0)));
}

void ProgressEventReader::feed(const QByteArray& raw) {
    const QByteArray line = raw.trimmed();
    if (line.isEmpty()) return;
    if (!line.startsWith('{')) {
        buffer_.log(QString::fromUtf8(line));
        return;
    }
    try {
        const Json j = parseJson(std::string_view(line.constData(), std::size_t(line.size())), "skynnet-cli progress");
        // An event of a kind this build does not know (a newer tool's) counts, and is skipped.
        if (const auto event = progressEventFromJson(JsonField(j, "skynnet-cli progress"))) apply(*event);
        ++events_;
    } catch (const std::exception& e) {
        buffer_.log(QStringLiteral("unreadable progress line (%1): %2")
                        .arg(QString::fromUtf8(e.what()), QString::fromUtf8(line)));
    }
}

void ProgressEventReader::apply(const ProgressEvent& event) {
    if (const auto* plan = std::get_if<PlanEvent>(&event)) {
        if (plan->submodels != submodels_)
            buffer_.log(QStringLiteral("note: the tool planned %1 submodel(s), the app %2; events beyond the app's "
                                       "plan are dropped")
                            .arg(plan->submodels)
                            .arg(submodels_));
        return;
    }
    if (const auto* result = std::get_if<ResultEvent>(&event)) {
        result_ = *result;
        return;
    }
    if (const auto* error = std::get_if<ErrorEvent>(&event)) {
        error_ = QString::fromStdString(error->message);
        return;
    }
    const std::optional<ModelTag> tag = modelTagOf(event);
    if (!tag) return;
    if (tag->model == EventModel::Baseline) return baselineEvent(event);
    if (tag->model != EventModel::Submodel) return;  // a single network, which the app does not run
    const int number = tag->submodel;
    if (number < 1 || number > submodels_) {
        buffer_.log(
            QStringLiteral("dropped a progress event of submodel %1 (the plan has %2)").arg(number).arg(submodels_));
        return;
    }
    submodelEvent(number - 1, event);
}

void ProgressEventReader::submodelEvent(int i, const ProgressEvent& event) {
    if (const auto* e = std::get_if<StartedEvent>(&event)) {
        submodel_.onSubmodelStarted(i, e->place);
    } else if (const auto* e = std::get_if<BatchEvent>(&event)) {
        submodel_.onBatch(i, e->progress);
    } else if (const auto* e = std::get_if<EpochEvent>(&event)) {
        history_[std::size_t(i)].push_back(e->stats);
        submodel_.onEpoch(i, e->stats);
    } else if (const auto* e = std::get_if<ResourcesEvent>(&event)) {
        submodel_.onResources(i, e->sample);
    } else if (const auto* e = std::get_if<FinishedEvent>(&event)) {
        // Its TrainResult carries the epochs so far, as the engine's does.
        TrainResult r = finishedResult(*e);
        r.history = history_[std::size_t(i)];
        submodel_.onSubmodelFinished(i, r);
    }
}

// The baseline's started event has nothing the app shows.
void ProgressEventReader::baselineEvent(const ProgressEvent& event) {
    if (const auto* e = std::get_if<BatchEvent>(&event)) {
        baseline_.onBatch(e->progress);
    } else if (const auto* e = std::get_if<EpochEvent>(&event)) {
        baseline_.onEpoch(e->stats);
    } else if (const auto* e = std::get_if<ResourcesEvent>(&event)) {
        baseline_.onResources(e->sample);
    } else if (const auto* e = std::get_if<FinishedEvent>(&event)) {
        buffer_.baselineFinished(e->status);
        QString line = QStringLiteral("baseline: %1").arg(QString::fromStdString(statusName(e->status)));
        if (e->status == TrainStatus::Failed) line += QStringLiteral(": ") + QString::fromStdString(e->error);
        buffer_.log(line);
    }
}

}  // namespace skynnet::ui
