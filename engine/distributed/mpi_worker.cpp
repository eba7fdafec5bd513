#include "distributed/mpi_worker.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <numeric>

#include "core/error.h"
#include "core/parallel.h"
#include "distributed/build_id.h"
#include "distributed/host_rows.h"
#include "distributed/job_data.h"
#include "distributed/mpi_session.h"
#include "distributed/shipped_rows.h"
#include "project/checkpoint_store.h"
#include "project/project_json.h"
#include "split/worker_pool.h"

namespace skynnet {
namespace {

// The cores this process may run on: all of the host's, unless the launcher bound the rank to
// some (mpirun binds each rank to one core when the ranks do not outnumber the slots).
int allowedCores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return hardwareThreads();
    return std::max(1, CPU_COUNT(&set));
}

class Worker {
public:
    Worker(MpiSession& s) : s_(s), who_("rank " + std::to_string(s.rank()) + " on host " + s.host()) {}

    // Returns false when rank 0 stopped this worker before any work.
    bool accept(const std::string& version) {
        MpiMessage first = s_.receive(0, -1);
        // What may come before the job: the job's data ahead of it (rank 0's first message), and
        // on rank 0's host the shared block, which rank 0, this host's first rank, allocates early.
        for (;; first = s_.receive(0, -1)) {
            if (first.tag == TagDataAhead) ahead_ = prepareDataAhead(s_, first);
            else if (first.tag == TagHostBlock) acceptHostBlock(s_);
            else break;
        }
        if (first.tag == TagStop) return false;
        if (first.tag != TagJob) throw Error("MPI: expected the job, got message " + std::to_string(first.tag));
        const MpiMessage blocks = s_.receive(0, TagJobBlocks);
        s_.trace("job received");
        std::string refusal;
        try {
            job_ = decodeJob(first.bytes, blocks.bytes);
        } catch (const std::exception& e) {
            reply(TagFailure, Json::object({{"error", who_ + ": " + e.what()}}));
            return true;  // rank 0 refuses the run and stops every worker
        }
        try {
            checkBuild(version);
            checkData();
        } catch (const std::exception& e) {
            refusal = e.what();
        }
        if (!refusal.empty()) reply(TagFailure, Json::object({{"error", who_ + ": " + refusal}}));
        else reply(TagAccepted, Json::object());
        const std::string failure = loadRows(refusal);
        if (stopped_ || !refusal.empty()) return !stopped_;
        if (!failure.empty()) {
            reply(TagFailure, Json::object({{"error", failure}}));
            return true;
        }
        int threads = job_.threads > 0 ? job_.threads
                                       : std::max(1, hardwareThreads() / std::max(1, s_.workersOnHost()));
        if (job_.threads == 0 && threads > cores_) {
            // More threads than cores would only take turns on them; the results do not change.
            // (A --threads of the user's holds.)
            std::fprintf(stderr,
                         "skynnet-cli: warning: %s may run on %d core%s only (the launcher bound it: with mpirun add "
                         "--bind-to none); it trains with %d kernel thread%s instead of %d\n",
                         who_.c_str(), cores_, cores_ == 1 ? "" : "s", cores_, cores_ == 1 ? "" : "s", threads);
            threads = cores_;
        }
        setKernelThreads(threads);
        job_.config.threads = threads;
        threads_ = threads;
        attachCheckpoints();
        reply(TagReady, Json::object({{"threads", threads}}));
        s_.trace("ready, " + std::to_string(threads) + " kernel threads");
        ready_ = true;
        return true;
    }

    void serve() {
        while (!stopped_) {
            const MpiMessage m = s_.receive(0, -1);
            if (m.tag == TagStop) stopped_ = true;
            if (m.tag == TagStop) return;
            if (m.tag == TagCancel) continue;  // meant for a submodel that has finished since
            if (m.tag == TagThreads) {
                takeThreads(m);
                continue;
            }
            if (m.tag == TagSaved) {
                dropEpochState(m);
                continue;
            }
            if (m.tag != TagAssign || !ready_)
                throw Error("MPI: unexpected message " + std::to_string(m.tag) + " from rank 0");
            const Json j = parseMessage(m.bytes, "MPI assignment");
            const int index = JsonField(j).at("index").asInt();
            if (job_.shipData) receiveRows(index);
            trainOne(index);
        }
    }

    void bye() {
        // The folder this host made for the run, once its epoch states are gone (rank 0's own
        // folder, where it is shared, still holds run.json: rank 0 decides about it).
        if (store_) {
            std::error_code ec;
            if (std::filesystem::is_empty(store_->folder(), ec) && !ec) std::filesystem::remove(store_->folder(), ec);
        }
        s_.trace("bye");
        const Json j = Json::object({{"bytesSent", s_.bytesSent()}});
        s_.send(0, TagBye, dumpJson(j));
        // Rank 0 ends the job once its outputs are written; until then this rank sleeps (on its
        // doorbell where it has one), holding the block the host's ranks share.
        while (s_.receive(0, -1).tag != TagFinish) {
        }
        // Collective with the host's other ranks, rank 0 included on its own host (releaseWorkers).
        s_.freeSharedBlock();
        s_.trace("released");
    }

private:
    void reply(int tag, Json j) {
        j["host"] = s_.host();
        s_.send(0, tag, dumpJson(j));
    }

    // The rows this worker trains on, its own or its host's shared copy; returns why there are
    // none ("" when there are). With --ship-data they come with each assignment instead. A worker
    // that refused the job still takes its part in its host's sharing: the others wait for it.
    // Rank 0 may stop the job meanwhile (stopped_).
    std::string loadRows(const std::string& refusal) {
        if (job_.shipData) {
            ahead_.reset();
            return "";
        }
        std::string failure;
        try {
            const bool sharing = job_.shareData && !s_.dataPeers().empty();
            if (!sharing) {
                if (refusal.empty()) own_ = prepareRows();
            } else if (s_.dataLeader() == s_.rank()) {
                shareOwnRows(refusal);
            } else {
                shared_ = rowsSharedOnHost(s_);
                stopped_ = !shared_;
            }
        } catch (const std::exception& e) {
            failure = e.what();
        }
        ahead_.reset();  // rows prepared ahead that the job did not take
        if (failure.empty() && refusal.empty() && !stopped_ && rows().trainFeatures.rows != job_.plan.samples)
            failure = "the training data has " + std::to_string(rows().trainFeatures.rows) + " rows here, " +
                      std::to_string(job_.plan.samples) + " on rank 0 (" + job_.host + ")";
        return failure.empty() ? failure : who_ + ": " + failure;
    }

    // As the first rank of a host (not rank 0's): prepares the rows, shares them with the host's
    // other ranks and keeps only the shared copy; or tells them why there is none.
    void shareOwnRows(const std::string& refusal) {
        if (!refusal.empty()) {
            refuseRowsOnHost(s_, refusal);
            return;
        }
        WorkerData mine;
        try {
            mine = prepareRows();
        } catch (const std::exception& e) {
            refuseRowsOnHost(s_, e.what());
            throw;
        }
        shared_ = shareRowsOnHost(s_, mine.train, mine.validation ? &*mine.validation : nullptr);
    }

    // The rows prepared ahead when the job asks for exactly their data (or why they are not
    // there), else rows prepared from the job's data now.
    WorkerData prepareRows() {
        std::optional<DataAhead> ahead = std::move(ahead_);
        ahead_.reset();
        if (ahead && ahead->data == job_.data) {
            if (ahead->error) std::rethrow_exception(ahead->error);
            if (ahead->rows) return std::move(*ahead->rows);
        }
        ahead.reset();  // its rows, if any, go before others are prepared
        return prepareWorkerData(s_, job_.data);
    }

    SubmodelData rows() const {
        if (shared_) return shared_->submodelData();
        return SubmodelData::ownFeatures(own_.train, own_.validation ? &*own_.validation : nullptr);
    }

    void checkBuild(const std::string& version) const {
        if (job_.version != version || job_.build != buildId())
            throw Error("runs skynnet " + version + " build " + buildId() + ", rank 0 (" + job_.host + ") runs " +
                        job_.version + " build " + job_.build + ": install the same build on every machine");
    }

    void checkData() const {
        if (job_.shipData) return;
        for (const DataFileCheck& f : job_.dataFiles) {
            FileFingerprint here;
            try {
                here = fileFingerprint(f.path);
            } catch (const Error& e) {
                throw Error(std::string(e.what()) +
                            " (every rank reads the data from the same path; or use --ship-data)");
            }
            if (here == f.fingerprint) continue;
            const std::string how = here.size != f.fingerprint.size ? std::to_string(here.size) + " bytes here, " +
                                                                          std::to_string(f.fingerprint.size) + " there"
                                                                    : "the same size, another content";
            throw Error("the data file " + f.path + " differs from rank 0's (" + job_.host + "): " + how +
                        " (every rank must read the same data; or use --ship-data)");
        }
    }

    // A folder this host cannot write costs only the epoch states: its submodels then train from
    // their start on --resume, which gives the same weights, so the run goes on with a warning.
    void attachCheckpoints() {
        if (job_.checkpointFolder.empty()) return;
        try {
            store_.emplace(CheckpointStore::attach(job_.checkpointFolder, job_.plan, job_.checkpointKey));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "skynnet-cli: warning: %s: %s; its submodels keep no epoch checkpoints\n",
                         who_.c_str(), e.what());
        }
    }

    // Rank 0 saves the finished submodels; a worker keeps the epoch states of the one it trains,
    // and continues from the one it finds (an unreadable or other run's file: from the start).
    std::optional<CheckpointHooks> epochCheckpoints() const {
        if (!store_) return std::nullopt;
        CheckpointHooks hooks;
        const CheckpointStore* store = &*store_;
        hooks.load = [store, who = who_](int i) -> std::optional<SubmodelResume> {
            try {
                return store->load(i);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "skynnet-cli: warning: %s: %s; submodel %d trains from its start\n", who.c_str(),
                             e.what(), i + 1);
                return std::nullopt;
            }
        };
        hooks.saveEpoch = [store](int i, const Network& n, const TrainerState& state) {
            store->saveEpoch(i, n, state);
        };
        return hooks;
    }

    // --ship-data: this submodel's rows replace the data, and its row list becomes 0..n-1.
    void receiveRows(int index) {
        const MpiMessage json = s_.receive(0, TagShippedRows);
        const MpiMessage floats = s_.receive(0, TagShippedFloats);
        ShippedRows rows = decodeShippedRows(json.bytes, floatsFromBytes(floats.bytes));
        if (index < 0 || index >= job_.plan.submodelCount()) return;  // trainOne reports it
        std::vector<int>& planRows = job_.plan.submodels[std::size_t(index)].rows;
        if (long(planRows.size()) != long(rows.train.size()))
            throw Error("MPI: rank 0 shipped " + std::to_string(rows.train.size()) + " rows for submodel " +
                        std::to_string(index + 1) + ", which learns from " + std::to_string(planRows.size()));
        std::iota(planRows.begin(), planRows.end(), 0);
        own_.train = std::move(rows.train);
        own_.validation = std::move(rows.validation);
    }

    // Cores of this host that another rank no longer needs, from rank 0; the trainer picks them up
    // before its next batch (results do not depend on the thread count).
    void takeThreads(const MpiMessage& m) {
        const Json j = parseMessage(m.bytes, "MPI threads");
        threads_ = std::clamp(JsonField(j, "MPI threads").at("threads").asInt(), 1, cores_);
        s_.trace("handed " + std::to_string(threads_) + " kernel threads");
    }

    // Rank 0 has saved the submodel as finished, so its epoch state on this host will never be
    // resumed: it goes. Where this folder is rank 0's (shared, or on rank 0's host) the file
    // already holds the finished submodel, which stays for rank 0 to remove.
    void dropEpochState(const MpiMessage& m) {
        const Json j = parseMessage(m.bytes, "MPI saved");
        const int index = JsonField(j, "MPI saved").at("index").asInt();
        if (!store_ || index < 0 || index >= job_.plan.submodelCount()) return;
        try {
            const std::optional<SubmodelResume> saved = store_->load(index);
            if (saved && !saved->finished) std::filesystem::remove(store_->submodelPath(index));
        } catch (const std::exception& e) {
            // Another run's file, or a damaged one: not this worker's to remove.
            std::fprintf(stderr, "skynnet-cli: warning: %s: %s; left in place\n", who_.c_str(), e.what());
        }
    }

    // Before a batch (and at epoch ends): rank 0 may cancel the run, hand on cores, or stop this
    // worker altogether. Looked at every millisecond at most, so that a handed-on core trains from
    // the next batch on (not the next batch report, 0.2 s later) while tiny batches of a few
    // microseconds do not pay for a probe each.
    void listenSoon() {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastListen_ < std::chrono::milliseconds(1)) return;
        lastListen_ = now;
        listen();
    }

    void listen() {
        MpiMessage m;
        while (s_.poll(m, 0, -1)) {
            if (m.tag == TagThreads) takeThreads(m);
            if (m.tag == TagSaved) dropEpochState(m);
            if (m.tag == TagCancel) cancel_.cancel();
            if (m.tag == TagStop) {
                cancel_.cancel();
                stopped_ = true;
            }
        }
    }

    void send(int tag, int index, const char* key, Json value) {
        s_.send(0, tag, dumpJson(Json::object({{"index", index}, {key, std::move(value)}})));
    }

    void trainOne(int index) {
        if (index < 0 || index >= job_.plan.submodelCount())
            throw Error("MPI: rank 0 assigned submodel " + std::to_string(index + 1) + " of " +
                        std::to_string(job_.plan.submodelCount()));
        cancel_ = CancelToken();
        SubmodelEvents events;
        events.onSubmodelStarted = [&](int i, const WorkerPlace& p) {
            s_.send(0, TagStarted,
                    dumpJson(Json::object({{"index", i}, {"host", p.host}, {"threads", p.kernelThreads}})));
        };
        events.onEpoch = [&](int i, const EpochStats& e) {
            send(TagEpoch, i, "stats", toJson(e));
            listen();
        };
        events.onBatch = [&](int i, const BatchProgress& b) { send(TagBatch, i, "progress", toJson(b)); };
        events.onResources = [&](int i, const ResourceSample& r) { send(TagResources, i, "sample", toJson(r)); };
        events.kernelThreads = [&](int) {
            listenSoon();
            return threads_;
        };
        const WorkerPlace place{s_.rank(), s_.host(), job_.config.threads};
        const std::optional<CheckpointHooks> checkpoint = epochCheckpoints();
        s_.trace("submodel " + std::to_string(index + 1) + " assigned");
        SubmodelOutcome out = trainSubmodel(job_.plan, index, rows(), job_.config, events, &cancel_, &place,
                                            checkpoint ? &*checkpoint : nullptr);
        if (stopped_) return;  // rank 0 wants no result any more
        s_.trace("submodel " + std::to_string(index + 1) + " trained");
        // Its queued epoch states land before rank 0 saves it as finished: in a folder shared with
        // rank 0 (one machine) a late one would replace the finished file, and rank 0's "saved"
        // message would then remove it as a stale epoch state, losing the finished submodel.
        if (store_) store_->waitForSaves();
        send(TagFinished, index, "result", toJson(out.result));
        s_.send(0, TagWeights, out.network.flatWeights());
        s_.trace("submodel " + std::to_string(index + 1) + " sent");
    }

    MpiSession& s_;
    std::string who_;
    MpiJob job_;
    std::optional<DataAhead> ahead_;  // the job's data sent ahead, with rows prepared from it
    WorkerData own_;                  // rows this worker prepared, or was shipped
    std::optional<HostRows> shared_;  // or the copy its host's ranks share
    CancelToken cancel_;
    std::optional<CheckpointStore> store_;
    int threads_ = 1;  // kernel threads for the next batch
    const int cores_ = allowedCores();
    std::chrono::steady_clock::time_point lastListen_;
    bool ready_ = false, stopped_ = false;
};

}  // namespace

void runMpiWorker(MpiSession& session, const std::string& version) {
    Worker w(session);
    if (w.accept(version)) {
        w.serve();
    }
    w.bye();
}

}  // namespace skynnet
