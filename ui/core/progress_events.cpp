#include "ui/core/progress_events.h"

#include "core/error.h"
#include "project/project_json.h"

namespace skynnet::ui {
namespace {

WorkerPlace placeOf(const JsonField& e) {
    WorkerPlace p;
    p.rank = e.at("rank").get<int>();
    p.host = e.at("host").asString();
    if (e.contains("threads")) p.kernelThreads = e.at("threads").get<int>();
    return p;
}

TrainResult finishedResult(const JsonField& e) {
    TrainResult r;
    r.status = trainStatusFromJson(e.at("status"));
    r.error = e.at("error").asString();
    r.wallSeconds = numberFromJson(e.at("wall_seconds"));
    r.cpuSeconds = numberFromJson(e.at("cpu_seconds"));
    return r;
}

}  // namespace

ProgressEventReader::ProgressEventReader(RunEventBuffer& buffer, int submodels)
    : buffer_(buffer), submodel_(buffer.submodelEvents()), baseline_(buffer.baselineCallbacks()), submodels_(submodels) {
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
        apply(parseJson(std::string_view(line.constData(), std::size_t(line.size())), "skynnet-cli progress"));
        ++events_;
    } catch (const std::exception& e) {
        buffer_.log(QStringLiteral("unreadable progress line (%1): %2").arg(QString::fromUtf8(e.what()), QString::fromUtf8(line)));
    }
}

void ProgressEventReader::apply(const Json& event) {
    const JsonField e(event, "progress event");
    const std::string& kind = e.at("event").asString();
    if (kind == "plan") {
        const int s = e.at("submodels").get<int>();
        if (s != submodels_)
            buffer_.log(QStringLiteral("note: the tool planned %1 submodel(s), the app %2; events beyond the app's plan are dropped")
                            .arg(s)
                            .arg(submodels_));
        return;
    }
    if (kind == "result") {
        result_ = event;
        return;
    }
    if (kind == "error") {
        error_ = QString::fromStdString(e.at("message").asString());
        return;
    }
    const std::string& model = e.at("model").asString();
    if (model == "baseline") return baselineEvent(kind, event);
    if (model != "submodel") return;  // "network": a single network, which the app does not run
    const int number = e.at("submodel").get<int>();
    if (number < 1 || number > submodels_) {
        buffer_.log(QStringLiteral("dropped a progress event of submodel %1 (the plan has %2)").arg(number).arg(submodels_));
        return;
    }
    submodelEvent(kind, number - 1, event);
}

void ProgressEventReader::submodelEvent(const std::string& kind, int i, const Json& event) {
    const JsonField e(event, "progress event");
    if (kind == "started") {
        submodel_.onSubmodelStarted(i, placeOf(e));
    } else if (kind == "batch") {
        submodel_.onBatch(i, batchProgressFromJson(e));
    } else if (kind == "epoch") {
        const EpochStats s = epochStatsFromJson(e);
        history_[std::size_t(i)].push_back(s);
        submodel_.onEpoch(i, s);
    } else if (kind == "resources") {
        submodel_.onResources(i, resourceSampleFromJson(e));
    } else if (kind == "finished") {
        TrainResult r = finishedResult(e);
        r.history = history_[std::size_t(i)];
        submodel_.onSubmodelFinished(i, r);
    }
}

void ProgressEventReader::baselineEvent(const std::string& kind, const Json& event) {
    const JsonField e(event, "progress event");
    if (kind == "batch") {
        baseline_.onBatch(batchProgressFromJson(e));
    } else if (kind == "epoch") {
        baseline_.onEpoch(epochStatsFromJson(e));
    } else if (kind == "resources") {
        baseline_.onResources(resourceSampleFromJson(e));
    } else if (kind == "finished") {
        const TrainResult r = finishedResult(e);
        buffer_.baselineFinished(r.status);
        QString line = QStringLiteral("baseline: %1").arg(QString::fromStdString(statusName(r.status)));
        if (r.status == TrainStatus::Failed) line += QStringLiteral(": ") + QString::fromStdString(r.error);
        buffer_.log(line);
    }
}

}  // namespace skynnet::ui
