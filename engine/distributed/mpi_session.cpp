#include "distributed/mpi_session.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>

#include "core/error.h"
#include "split/worker_pool.h"
#include "train/resources.h"

namespace skynnet {
namespace {

// A wait sleeps between probes, twice as long each time nothing has come, from 1 ms up to 8 ms:
// short against any epoch, while a rank that waits long (rank 0 between progress reports, a worker
// with no more submodels) wakes only 125 times a second. Each wake-up takes a core from the
// training for a moment, and a training team of several threads waits for the one it took.
// Where every rank the message may come from rings this rank's doorbell (they share its host's
// block), the sleep ends when one does, and the timeout, up to 64 ms, only covers a ring missed.
constexpr auto firstProbeSleep = std::chrono::milliseconds(1);
constexpr auto longestProbeSleep = std::chrono::milliseconds(8);
constexpr auto longestRungSleep = std::chrono::milliseconds(64);
// Per rank of the data group, one doorbell word on a cache line of its own, at the block's end.
constexpr std::size_t doorbellBytes = 64;

void check(int code, const char* what) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string("MPI: ") + what + " failed: " + text);
}

// SKYNNET_MPI_TEST_HOSTS=K: how many hosts one machine acts as for sharing the data (1 unless set).
int testHosts() {
    const char* v = std::getenv("SKYNNET_MPI_TEST_HOSTS");
    return v && std::atoi(v) > 1 ? std::atoi(v) : 1;
}

}  // namespace

struct MpiSession::Handles {
    MPI_Comm dataGroup = MPI_COMM_NULL;
    MPI_Win block = MPI_WIN_NULL;
};

bool MpiSession::launchedByMpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(name)) return true;
    return false;
}

int MpiSession::launcherRank() {
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
        if (const char* v = std::getenv(name); v && *v) return std::atoi(v);
    return -1;
}

MpiSession::MpiSession() : host_(localHostName()) {
    const char* traceSetting = std::getenv("SKYNNET_MPI_TRACE");
    tracing_ = traceSetting && *traceSetting && std::strcmp(traceSetting, "0") != 0;
    if (!launchedByMpi())
        throw Error(
            "--backend mpi must be started by an MPI launcher: mpirun -np K skynnet-cli train ... --backend mpi "
            "(K >= 2), srun under Slurm, or skynnet-cli train ... --hosts FILE --ranks K");
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    // Errors come back as codes (turned into Error above) rather than ending the job silently.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local),
          "MPI_Comm_split_type");
    MPI_Comm_size(local, &ranksOnHost_);
    // Rank 0 only hands out work: count the workers that share this host.
    const int worker = rank_ > 0 ? 1 : 0;
    check(MPI_Allreduce(&worker, &workersOnHost_, 1, MPI_INT, MPI_SUM, local), "MPI_Allreduce");
    handles_ = std::make_unique<Handles>();
    // The largest setting of the host's ranks counts: every rank must make the same calls, even
    // where a launcher passed the variable to some of them only (mpirun -x in an MPMD launch).
    const int mine = testHosts();
    int k = 1;
    check(MPI_Allreduce(&mine, &k, 1, MPI_INT, MPI_MAX, local), "MPI_Allreduce");
    if (k > 1) {
        check(MPI_Comm_split(local, rank_ % k, rank_, &handles_->dataGroup), "MPI_Comm_split");
        MPI_Comm_free(&local);
    } else {
        handles_->dataGroup = local;
    }
    int groupSize = 0;
    MPI_Comm_size(handles_->dataGroup, &groupSize);
    std::vector<int> group(std::size_t(groupSize), 0);
    check(MPI_Allgather(&rank_, 1, MPI_INT, group.data(), 1, MPI_INT, handles_->dataGroup), "MPI_Allgather");
    std::sort(group.begin(), group.end());
    group_ = group;
    dataLeader_ = group.front();
    for (const int r : group)
        if (r != rank_) dataPeers_.push_back(r);
    if (tracing_)
        trace("MPI_Init done (" + std::to_string(size_) + " ranks, " + std::to_string(workersOnHost_) + " workers on " +
              host_ + ")");
}

void MpiSession::trace(const std::string& what) const {
    if (!tracing_) return;
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const long ms = long(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
    std::tm t{};
    localtime_r(&seconds, &t);
    // One write per line, so that the ranks' lines do not interleave mid-line.
    char line[512];
    std::snprintf(line, sizeof line, "mpi-trace %02d:%02d:%02d.%03ld rank %d (cpu %.2f s): %s\n", t.tm_hour, t.tm_min,
                  t.tm_sec, ms, rank_, processCpuSeconds(), what.c_str());
    std::fputs(line, stderr);
    std::fflush(stderr);
}

MpiSession::~MpiSession() { finish(); }

void MpiSession::finish() {
    if (finished_) return;
    finished_ = true;
    if (handles_->dataGroup != MPI_COMM_NULL) MPI_Comm_free(&handles_->dataGroup);
    MPI_Finalize();
    trace("MPI finalized");
}

std::span<std::byte> MpiSession::allocateSharedBlock(std::size_t bytes) {
    if (handles_->block != MPI_WIN_NULL) throw Error("MPI: a second shared block in one session");
    void* mine = nullptr;
    // The leader's part ends with the group's doorbells (a new segment: zeroed). Sizes rounded up
    // to whole doorbells keep them aligned.
    const std::size_t bells = doorbellBytes * group_.size();
    const std::size_t own = rank_ == dataLeader_ ? (bytes + doorbellBytes - 1) / doorbellBytes * doorbellBytes + bells
                                                 : 0;
    const int code = MPI_Win_allocate_shared(MPI_Aint(own), 1, MPI_INFO_NULL, handles_->dataGroup, &mine,
                                             &handles_->block);
    if (code != MPI_SUCCESS) {
        handles_->block = MPI_WIN_NULL;
        check(code,
              ("MPI_Win_allocate_shared (" + std::to_string(bytes >> 20) + " MiB on host " + host_ + ")").c_str());
    }
    // The group's rank 0 is its lowest world rank (the split's key), the leader.
    MPI_Aint size = 0;
    int unit = 0;
    void* leaders = nullptr;
    check(MPI_Win_shared_query(handles_->block, 0, &size, &unit, &leaders), "MPI_Win_shared_query");
    if (std::size_t(size) < bells)
        throw Error("MPI: the shared block on host " + host_ + " has no room for its doorbells");
    std::byte* base = static_cast<std::byte*>(leaders);
    block_ = {base, std::size_t(size) - bells};
    doorbells_.clear();
    for (std::size_t i = 0; i < group_.size(); ++i)
        doorbells_.emplace_back(reinterpret_cast<std::uint32_t*>(base + block_.size() + i * doorbellBytes));
    return block_;
}

const Doorbell* MpiSession::doorbellOf(int rank) const {
    if (doorbells_.empty()) return nullptr;
    const auto at = std::lower_bound(group_.begin(), group_.end(), rank);
    if (at == group_.end() || *at != rank) return nullptr;
    return &doorbells_[std::size_t(at - group_.begin())];
}

bool MpiSession::everySenderRings(int source) const {
    if (doorbells_.empty()) return false;
    if (source >= 0) return doorbellOf(source) != nullptr;
    return int(group_.size()) == size_;
}

void MpiSession::freeSharedBlock() {
    if (handles_->block == MPI_WIN_NULL) return;
    MPI_Win_free(&handles_->block);
    block_ = {};
    doorbells_.clear();
}

void MpiSession::send(int dest, int tag, const std::string& bytes) {
    if (bytes.size() > std::size_t(INT_MAX))
        throw Error("MPI: a message of " + std::to_string(bytes.size()) + " bytes is too large");
    // Started, then rung, then completed: a large message is only taken once the receiver
    // probes, and a receiver that sleeps until its doorbell rings would otherwise never come.
    MPI_Request request;
    check(MPI_Isend(bytes.data(), int(bytes.size()), MPI_BYTE, dest, tag, MPI_COMM_WORLD, &request), "MPI_Isend");
    if (const Doorbell* bell = doorbellOf(dest)) bell->ring();
    check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
    bytesSent_ += std::int64_t(bytes.size());
}

void MpiSession::send(int dest, int tag, std::span<const float> values) {
    std::string bytes(values.size() * sizeof(float), '\0');
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    send(dest, tag, bytes);
}

bool MpiSession::poll(MpiMessage& out, int source, int tag) {
    int flag = 0;
    MPI_Status status;
    // Twice: Open MPI's probe looks at the messages it has taken in, and only when none matches
    // makes progress, taking in what has arrived since, without looking again. One probe would
    // see a message that came during the sleep only at the next wake-up.
    for (int probe = 0; probe < 2 && !flag; ++probe)
        check(MPI_Iprobe(source < 0 ? MPI_ANY_SOURCE : source, tag < 0 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &flag,
                         &status),
              "MPI_Iprobe");
    if (!flag) return false;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    out.source = status.MPI_SOURCE;
    out.tag = status.MPI_TAG;
    out.bytes.assign(std::size_t(count), '\0');
    check(MPI_Recv(out.bytes.data(), count, MPI_BYTE, out.source, out.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Recv");
    return true;
}

MpiMessage MpiSession::receive(int source, int tag, const std::function<void()>& idle) {
    MpiMessage m;
    auto sleep = firstProbeSleep;
    for (;;) {
        // Read before the probe, so that a ring between the probe and the wait ends the wait.
        const Doorbell* bell = doorbellOf(rank_);
        const std::uint32_t seen = bell ? bell->count() : 0;
        if (poll(m, source, tag)) return m;
        if (idle) idle();
        if (bell) bell->wait(seen, sleep);
        else std::this_thread::sleep_for(sleep);
        sleep = std::min(2 * sleep, everySenderRings(source) ? longestRungSleep : longestProbeSleep);
    }
}

void MpiSession::abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

std::vector<float> floatsFromBytes(const std::string& bytes) {
    if (bytes.size() % sizeof(float) != 0)
        throw Error("MPI: a float block of " + std::to_string(bytes.size()) + " bytes");
    std::vector<float> values(bytes.size() / sizeof(float));
    if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
}

}  // namespace skynnet
