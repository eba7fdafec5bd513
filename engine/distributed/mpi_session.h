#pragma once
// The one place that talks to MPI (mpi.h stays inside mpi_session.cpp, so nothing else needs its
// headers). Messages are tagged byte strings (JSON text, or raw float blocks) between ranks of
// MPI_COMM_WORLD. Waiting never busy-polls: Open MPI's blocking calls spin inside its progress
// engine, which on a machine whose every core trains a submodel steals one of them, so a wait is
// a probe followed by a short sleep until something arrives. Once the ranks of a host share a
// block, a send to one of them also rings its doorbell (doorbell.h), and a rank whose senders all
// ring sleeps until one does (or, should a ring be missed, 64 ms at most) instead of waking every
// few milliseconds to probe.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "distributed/doorbell.h"

namespace skynnet {

struct MpiMessage {
    int source = -1, tag = -1;
    std::string bytes;
};

class MpiSession {
public:
    // Whether this process was started by an MPI launcher (mpirun, srun, ...): MPI_Init outside
    // one would start a singleton job, which is never what a user meant.
    static bool launchedByMpi();
    // The rank the launcher gave this process, read from its environment before MPI_Init (-1 when
    // it names none), so that rank 0 can start preparing its data while MPI_Init waits.
    static int launcherRank();
    // MPI_Init (threads: funnelled, only the main thread calls MPI). Throws Error when the
    // process was not started by a launcher.
    MpiSession();
    // MPI_Finalize unless finish() ran.
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    const std::string& host() const { return host_; }
    // The ranks on this rank's host (MPI_Comm_split_type SHARED), this one included.
    int ranksOnHost() const { return ranksOnHost_; }
    // How many of them are workers (every rank but 0).
    int workersOnHost() const { return workersOnHost_; }
    // The ranks that share one prepared copy of the data (distributed/host_rows.h): those of this
    // host, or with SKYNNET_MPI_TEST_HOSTS=K in the environment (for tests: one machine acting as
    // K hosts) those of this host whose rank is this one's modulo K. The first of them, the lowest
    // rank, prepares the copy: rank 0 on its own host.
    int dataLeader() const { return dataLeader_; }
    // The world ranks of the others in that group, in order.
    const std::vector<int>& dataPeers() const { return dataPeers_; }
    // Collective over that group (MPI_Win_allocate_shared): this rank gives `bytes` (the leader
    // the copy's size, the others 0) and every rank gets the leader's block, which the leader
    // writes and the others only read. One block per session, until freeSharedBlock() (collective
    // too; nothing when there is none) or MPI_Finalize. Throws Error naming the host.
    std::span<std::byte> allocateSharedBlock(std::size_t bytes);
    void freeSharedBlock();
    // The leader's block once allocated (empty before, and after freeSharedBlock()).
    std::span<std::byte> sharedBlock() const { return block_; }
    // Bytes this rank has sent so far, message contents only.
    std::int64_t bytesSent() const { return bytesSent_; }

    void send(int dest, int tag, const std::string& bytes);
    void send(int dest, int tag, std::span<const float> values);
    // The next message from `source` (-1: any) with `tag` (-1: any). Between probes it sleeps
    // (1 ms, doubling up to 8 ms while nothing comes; up to 64 ms, ended by a ring, when every
    // rank it may come from rings this one's doorbell) and calls idle(), which may throw to give
    // up the wait (a cancelled run).
    MpiMessage receive(int source = -1, int tag = -1, const std::function<void()>& idle = {});
    // A message already waiting, without sleeping; false when there is none.
    bool poll(MpiMessage& out, int source = -1, int tag = -1);
    // Ends the whole job at once (every rank), e.g. when a rank cannot go on.
    [[noreturn]] void abort(int code);
    // MPI_Finalize now (it waits for every rank to get there); later calls do nothing.
    void finish();

    // With SKYNNET_MPI_TRACE=1 in the environment, trace() writes "mpi-trace HH:MM:SS.mmm rank R
    // (cpu C s): what" on stderr (C: the process's CPU seconds so far): where an MPI run spends its
    // time, told by each rank (the ranks of one host share its clock). Callers test tracing()
    // first where building the text costs.
    bool tracing() const { return tracing_; }
    void trace(const std::string& what) const;

private:
    // The doorbell of a rank of this data group while the block is there (else null).
    const Doorbell* doorbellOf(int rank) const;
    // Whether every rank a message from `source` (-1: any) may come from rings this one's doorbell.
    bool everySenderRings(int source) const;

    int rank_ = 0, size_ = 1, ranksOnHost_ = 1, workersOnHost_ = 0, dataLeader_ = 0;
    std::vector<int> group_;  // the data group's world ranks, this one's included, in order
    std::vector<int> dataPeers_;
    std::vector<Doorbell> doorbells_;  // one per rank of group_, at the end of the block
    std::span<std::byte> block_;
    // MPI_Comm and MPI_Win handles (ints in Open MPI, pointers elsewhere), kept opaque so that
    // mpi.h stays in the .cpp: the data group's communicator and the shared block's window.
    struct Handles;
    std::unique_ptr<Handles> handles_;
    std::string host_;
    std::int64_t bytesSent_ = 0;
    bool finished_ = false;
    bool tracing_ = false;
};

// Raw float blocks (weights, shipped rows) as the bytes of a message and back.
std::vector<float> floatsFromBytes(const std::string& bytes);

}  // namespace skynnet
