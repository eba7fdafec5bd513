#include "distributed/mpi_backend.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/error.h"
#include "distributed/host_rows.h"
#include "distributed/mpi_session.h"
#include "distributed/shipped_rows.h"
#include "project/project_json.h"
#include "split/schedule.h"
#include "train/resources.h"

namespace skynnet {
namespace {

std::string rankName(int rank, const std::string& host) { return "rank " + std::to_string(rank) + " (" + host + ")"; }

// A user handler that throws must not end the run's bookkeeping: the submodel fails instead.
void finished(SubmodelOutcome& out, int index, const SubmodelEvents& events) {
    if (!events.onSubmodelFinished) return;
    try {
        events.onSubmodelFinished(index, out.result);
    } catch (const std::exception& e) {
        out.result.status = TrainStatus::Failed;
        out.result.error = "submodel " + std::to_string(index + 1) + ": finished handler failed: " + e.what();
    }
}

class Rank0Run {
public:
    Rank0Run(MpiSession& s, const SplitPlan& plan, const SubmodelEvents& events, const CancelToken* cancel,
             const MpiBackend::AssignmentObserver& observer)
        : s_(s), plan_(plan), events_(events), cancel_(cancel), observer_(observer), busy_(std::size_t(s.size()), -1),
          threads_(std::size_t(s.size()), 0), hosts_(std::size_t(s.size())), outcomes_(plan.submodels.size()),
          done_(plan.submodels.size(), false) {
        hosts_[0] = s.host();
    }

    // Without a --threads of the user's, a rank with no more work hands its cores to a busy rank on
    // the same host, as the thread backend's workers do (split/core_share.h).
    void handOnCores(bool on) { handOnCores_ = on; }
    int coresHandedOn() const { return handedOn_; }

    // With --ship-data, assignments carry the submodel's rows.
    void shipFrom(const Dataset& train, const Dataset* validation) {
        shipTrain_ = &train;
        shipValidation_ = validation;
    }

    // Sends the job; once every worker has accepted it, shares this host's rows with the workers
    // here (host_rows.h: the first rank of each other host does the same there), then waits until
    // every worker has its rows. Throws Error with the first refusal, which names its rank.
    void sendJob(const MpiJob& job, const Dataset& train, const Dataset* validation) {
        const EncodedJob encoded = encodeJob(job);
        for (int r = 1; r < s_.size(); ++r) {
            s_.send(r, TagJob, encoded.json);
            s_.send(r, TagJobBlocks, encoded.blocks);
        }
        s_.trace("job sent");
        // This host's rows go into the block while the workers check the job (wasted only when
        // one refuses it).
        const bool sharing = job.shareData && !job.shipData && !s_.dataPeers().empty();
        const bool written = sharing && writeRowsOnHost(s_, train, validation);
        // Per rank: 0 waiting, 1 accepted, 2 ready. A worker that fails says so once and no more.
        std::vector<int> stage(std::size_t(s_.size()), 0);
        std::string refusal;
        const auto awaitAll = [&](int wanted) {
            const auto waiting = [&] {
                for (int r = 1; r < s_.size(); ++r)
                    if (stage[std::size_t(r)] < wanted) return true;
                return false;
            };
            while (waiting()) {
                const MpiMessage m = s_.receive(-1, -1);
                const Json j = parseMessage(m.bytes, "MPI reply to the job");
                int& at = stage[std::size_t(m.source)];
                if (m.tag == TagFailure) {
                    if (refusal.empty()) refusal = JsonField(j).at("error").asString();
                    at = 2;
                } else if (m.tag == TagAccepted || m.tag == TagReady) {
                    hosts_[std::size_t(m.source)] = JsonField(j).value("host", "?");
                    at = std::max(at, m.tag == TagAccepted ? 1 : 2);
                    if (m.tag == TagReady) threads_[std::size_t(m.source)] = JsonField(j).value("threads", 0);
                } else {
                    throw Error("MPI: unexpected message " + std::to_string(m.tag) + " from rank " +
                                std::to_string(m.source));
                }
            }
        };
        awaitAll(1);
        if (!refusal.empty()) throw Error(refusal);
        s_.trace("every worker accepted the job");
        if (sharing) shareRowsOnHost(s_, train, validation, written);
        awaitAll(2);
        if (!refusal.empty()) throw Error(refusal);
        s_.trace("every worker is ready");
    }

    // Finished submodels of an earlier run, from the checkpoint: never handed out.
    void loadFinished(const CheckpointHooks* checkpoint) {
        checkpoint_ = checkpoint;
        if (!checkpoint || !checkpoint->load) return;
        for (int i = 0; i < plan_.submodelCount(); ++i) {
            const std::optional<SubmodelResume> saved = checkpoint->load(i);
            if (!saved || !saved->finished) continue;
            SubmodelOutcome& out = outcomes_[std::size_t(i)];
            const SubmodelPlan& sp = plan_.submodels[std::size_t(i)];
            out.network = Network(sp.spec, sp.seed);
            out.network.setFlatWeights(saved->weights);
            out.result = saved->result;
            done_[std::size_t(i)] = true;
            finished(out, i, events_);
        }
    }

    std::vector<SubmodelOutcome> run() {
        for (int i : longestFirst(plan_))
            if (!done_[std::size_t(i)]) order_.push_back(i);
        for (int r = 1; r < s_.size(); ++r) {
            if (next_ < order_.size()) assign(r);
            else handOnThreadsOf(r);  // more ranks than submodels: its cores go to a busy neighbour
        }
        while (std::any_of(busy_.begin(), busy_.end(), [](int i) { return i >= 0; })) {
            const MpiMessage m = s_.receive(-1, -1, [this] { checkCancel(); });
            handle(m);
            checkCancel();
        }
        for (std::size_t i = 0; i < done_.size(); ++i)
            if (!done_[i]) outcomes_[i] = skippedSubmodel(plan_, int(i), events_);
        return std::move(outcomes_);
    }

private:
    void assign(int rank) {
        const int index = order_[next_++];
        busy_[std::size_t(rank)] = index;
        observe(rank, index);
        s_.trace("submodel " + std::to_string(index + 1) + " to rank " + std::to_string(rank));
        s_.send(rank, TagAssign, dumpJson(Json::object({{"index", index}})));
        if (shipTrain_) {
            const EncodedRows rows = encodeShippedRows(plan_, index, *shipTrain_, shipValidation_);
            s_.send(rank, TagShippedRows, rows.json);
            s_.send(rank, TagShippedFloats, rows.floats);
        }
    }

    void observe(int rank, int index) {
        if (observer_) observer_(rank, hosts_[std::size_t(rank)], index);
    }

    // The rank's cores go to the busy rank on its host with the fewest (ties: the lowest rank).
    void handOnThreadsOf(int idle) {
        const int spare = std::exchange(threads_[std::size_t(idle)], 0);
        if (!handOnCores_ || stopping_ || spare <= 0) return;
        int to = -1;
        for (int r = 1; r < s_.size(); ++r)
            if (busy_[std::size_t(r)] >= 0 && hosts_[std::size_t(r)] == hosts_[std::size_t(idle)] &&
                (to < 0 || threads_[std::size_t(r)] < threads_[std::size_t(to)]))
                to = r;
        if (to < 0) return;
        threads_[std::size_t(to)] += spare;
        ++handedOn_;
        s_.trace("rank " + std::to_string(idle) + "'s cores to rank " + std::to_string(to) + ": " +
                 std::to_string(threads_[std::size_t(to)]) + " threads");
        s_.send(to, TagThreads, dumpJson(Json::object({{"threads", threads_[std::size_t(to)]}})));
    }

    void stopAll() {
        if (stopping_) return;
        stopping_ = true;
        for (int r = 1; r < s_.size(); ++r)
            if (busy_[std::size_t(r)] >= 0) s_.send(r, TagCancel, std::string("{}"));
    }

    void checkCancel() {
        if (cancel_ && cancel_->cancelled()) stopAll();
    }

    int indexOf(const JsonField& j, int source) const {
        const int index = j.at("index").asInt();
        if (index < 0 || index >= plan_.submodelCount() || busy_[std::size_t(source)] != index)
            j.fail("names submodel " + std::to_string(index + 1) + ", not the one rank " + std::to_string(source) +
                   " trains");
        return index;
    }

    void handle(const MpiMessage& m) {
        const Json doc = parseMessage(m.bytes, "MPI message");
        const JsonField j(doc, "MPI message from rank " + std::to_string(m.source));
        switch (m.tag) {
        case TagStarted: {
            const int index = indexOf(j, m.source);
            WorkerPlace place{m.source, j.at("host").asString(), j.at("threads").asInt()};
            hosts_[std::size_t(m.source)] = place.host;
            threads_[std::size_t(m.source)] = std::max(threads_[std::size_t(m.source)], place.kernelThreads);
            if (events_.onSubmodelStarted) events_.onSubmodelStarted(index, place);
            return;
        }
        case TagEpoch:
            if (events_.onEpoch) events_.onEpoch(indexOf(j, m.source), epochStatsFromJson(j.at("stats")));
            return;
        case TagBatch:
            if (events_.onBatch) events_.onBatch(indexOf(j, m.source), batchProgressFromJson(j.at("progress")));
            return;
        case TagResources:
            if (events_.onResources) events_.onResources(indexOf(j, m.source), resourceSampleFromJson(j.at("sample")));
            return;
        case TagFinished: {
            const int index = indexOf(j, m.source);
            SubmodelOutcome& out = outcomes_[std::size_t(index)];
            out.result = trainResultFromJson(j.at("result"));
            const SubmodelPlan& sp = plan_.submodels[std::size_t(index)];
            out.network = Network(sp.spec, sp.seed);
            const MpiMessage w = s_.receive(m.source, TagWeights);
            const std::vector<float> weights = floatsFromBytes(w.bytes);
            if (weights.size() != std::size_t(out.network.flatWeights().size()))
                throw Error("MPI: " + rankName(m.source, hosts_[std::size_t(m.source)]) + " sent " +
                            std::to_string(weights.size()) + " weights for submodel " + std::to_string(index + 1));
            out.network.setFlatWeights(weights);
            done_[std::size_t(index)] = true;
            busy_[std::size_t(m.source)] = -1;
            s_.trace("submodel " + std::to_string(index + 1) + " received from rank " + std::to_string(m.source));
            // Saved as finished here: the worker's epoch state of it is of no more use.
            if (save(out, index)) s_.send(m.source, TagSaved, dumpJson(Json::object({{"index", index}})));
            finished(out, index, events_);
            if (out.result.status == TrainStatus::Failed) stopAll();
            if (!stopping_ && next_ < order_.size()) assign(m.source);
            else {
                observe(m.source, -1);
                handOnThreadsOf(m.source);
            }
            return;
        }
        default:
            throw Error("MPI: unexpected message " + std::to_string(m.tag) + " from " +
                        rankName(m.source, hosts_[std::size_t(m.source)]));
        }
    }

    // Whether the submodel is now in the checkpoint as finished.
    bool save(SubmodelOutcome& out, int index) {
        const bool done = out.result.status == TrainStatus::Completed || out.result.status == TrainStatus::EarlyStopped;
        if (!done || !checkpoint_ || !checkpoint_->saveFinished) return false;
        try {
            checkpoint_->saveFinished(index, out);
            return true;
        } catch (const std::exception& e) {
            out.result.status = TrainStatus::Failed;
            out.result.error = "submodel " + std::to_string(index + 1) + ": " + e.what();
            return false;
        }
    }

    MpiSession& s_;
    const SplitPlan& plan_;
    const SubmodelEvents& events_;
    const CancelToken* cancel_;
    const MpiBackend::AssignmentObserver& observer_;
    std::vector<int> busy_;     // per rank: the submodel it trains, -1 when idle
    std::vector<int> threads_;  // per rank: its kernel threads (0 once it has no more work)
    std::vector<std::string> hosts_;
    std::vector<SubmodelOutcome> outcomes_;
    std::vector<bool> done_;
    std::vector<int> order_;
    std::size_t next_ = 0;
    const Dataset* shipTrain_ = nullptr;
    const Dataset* shipValidation_ = nullptr;
    const CheckpointHooks* checkpoint_ = nullptr;
    bool stopping_ = false;  // cancelled, or a submodel failed: nothing more is handed out
    bool handOnCores_ = false;
    int handedOn_ = 0;
};

bool stopped = false, released = false;  // one MPI session per process

}  // namespace

MpiBackend::MpiBackend(MpiSession& session, MpiJob job) : session_(session), job_(std::move(job)) {
    if (session.rank() != 0 || session.size() < 2)
        throw Error("--backend mpi needs at least 2 ranks (rank 0 hands out the submodels, the others train them); "
                    "this job has " +
                    std::to_string(session.size()));
}

int MpiBackend::workers(int submodels) const { return std::max(1, std::min(submodels, session_.size() - 1)); }

std::vector<SubmodelOutcome> MpiBackend::train(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                                               const TrainConfig& config, const SubmodelEvents& events,
                                               const CancelToken* cancel, const CheckpointHooks* checkpoint) {
    const double cpuBefore = processCpuSeconds();
    session_.trace("training starts");
    try {
        Rank0Run run(session_, plan, events, cancel, observer_);
        job_.plan = plan;
        job_.config = config;
        job_.config.clockOrigin.reset();
        if (checkpoint && !checkpoint->folder.empty()) {
            job_.checkpointFolder = checkpoint->folder;
            const Json key = parseJson(checkpoint->runKey, "checkpoint key");
            job_.checkpointKey = checkpointRunKeyFromJson(JsonField(key, "checkpoint key"));
        }
        if (job_.shipData) run.shipFrom(train, validation);
        run.handOnCores(job_.threads == 0);
        run.loadFinished(checkpoint);
        run.sendJob(job_, train, validation);
        std::vector<SubmodelOutcome> outcomes = run.run();
        coresHandedOn_ = run.coresHandedOn();
        // The job itself ends only once rank 0 has written its outputs (releaseWorkers): freeing
        // the host's block (each rank unmaps it page by page) and MPI_Finalize take a good part
        // of a second of CPU together, which the thread backend does not spend before its results.
        // Until then the workers sleep, not in MPI_Finalize, where Open MPI polls (about a tenth
        // of a core each, which would slow down testing and the baseline).
        stopWorkers(session_, &bytesSent_);
        rank0Cpu_ = processCpuSeconds() - cpuBefore;
        return outcomes;
    } catch (...) {
        stopWorkers(session_, &bytesSent_);
        throw;
    }
}

void stopWorkers(MpiSession& s, std::vector<std::int64_t>* bytesSent) {
    if (stopped) return;
    stopped = true;
    for (int r = 1; r < s.size(); ++r) s.send(r, TagStop, std::string("{}"));
    s.trace("stop sent");
    std::vector<std::int64_t> sent(std::size_t(s.size()), 0);
    // Whatever a worker still had on its way (progress of a cancelled submodel) is read and
    // dropped; its goodbye comes last.
    for (int left = s.size() - 1; left > 0;) {
        const MpiMessage m = s.receive(-1, -1);
        if (m.tag != TagBye) continue;
        const Json j = parseMessage(m.bytes, "MPI goodbye");
        sent[std::size_t(m.source)] = JsonField(j).at("bytesSent").asInt64();
        --left;
    }
    sent[0] = s.bytesSent();
    s.trace("every worker said goodbye");
    if (bytesSent) *bytesSent = std::move(sent);
}

void releaseWorkers(MpiSession& s) {
    if (released) return;
    stopWorkers(s);
    released = true;
    for (int r = 1; r < s.size(); ++r) s.send(r, TagFinish, std::string("{}"));
    // With the workers on this host, which free it once they have this message.
    s.freeSharedBlock();
    s.trace("workers released");
}

}  // namespace skynnet
