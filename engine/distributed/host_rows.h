#pragma once
// The prepared training and validation rows that the ranks of one host share, so that a host
// prepares and holds one copy of them however many ranks it runs. The first rank of the host's
// group (MpiSession::dataLeader(): rank 0 on its own host) prepares them, describes them to the
// others and copies their numbers into a block of memory the group shares
// (MpiSession::allocateSharedBlock); the others read the features there, in place, as the
// submodels of the thread backend read the one dataset of their process.
//
//   leader                                 each other rank of the group
//   HostRows {train, validation} ------->  (or {error}: no block, and they fail with it)
//   allocateSharedBlock(size)    -------   allocateSharedBlock(0)  (unless reserveRowsOnHost did)
//   copies the floats in
//   HostRowsReady                ------->  copies the labels and targets, views the features
//
// The peers wait by sleeping between probes (MpiSession::receive), never in a collective call
// that spins, so that they do not take the cores the leader prepares and copies with. The block
// also holds the group's doorbells (MpiSession), and lives until the job ends (releaseWorkers).
#include <optional>
#include <string>

#include "data/dataset.h"
#include "split/worker_pool.h"
#include "train/row_view.h"

namespace skynnet {

class MpiSession;

// SKYNNET_MPI_SHARE_DATA=0 in the environment: every worker prepares its own copy of the rows, as
// on a host of its own (for tests and comparisons; the results are the same). Rank 0 puts the
// choice into the job.
bool shareRowsByDefault();
// Whether this rank prepares the rows it trains on itself (it leads its host's group, or shares
// with none) rather than reading its host's copy, so that it may start before the job comes.
bool preparesOwnRows(const MpiSession& s, bool shareData);

struct HostRows {
    Dataset train;  // labels, targets and names: the features are in the shared block
    std::optional<Dataset> validation;
    MatrixView trainFeatures, validationFeatures;

    SubmodelData submodelData() const;
};

// Rank 0 on its own host may allocate the block before it sends the job, as soon as its data
// preparation knows the size (rowBytesOnHost of the parts, still raw, with the preprocessing's
// output columns), and fill its pages while the preparation goes on: most of the time the block
// takes is the kernel's first touch of each page. Sends HostBlock {bytes} to the group's other
// ranks, which take part in the allocation when they meet it before the job (acceptHostBlock).
std::size_t rowBytesOnHost(Index trainRows, Index validationRows, Index columns, Index targetColumns);
void reserveRowsOnHost(MpiSession& s, std::size_t bytes);
// A worker's side of reserveRowsOnHost, when it meets HostBlock instead of the job.
void acceptHostBlock(MpiSession& s);

// Rank 0, once it has sent the job: copies its rows into the block it reserved early, while the
// workers check the job, rather than after they have accepted it. false when it reserved none
// (shareRowsOnHost copies them then). Rank 0 keeps none of the block's pages mapped: it trains
// nothing, and its memory stays what a thread-backend run's is (the pages stay in the segment).
bool writeRowsOnHost(MpiSession& s, const Dataset& train, const Dataset* validation);
// The leader's side: shares the rows with the group's other ranks (there must be some) and returns
// them as those ranks see them, so that the leader may drop its own copy. written: by
// writeRowsOnHost already.
HostRows shareRowsOnHost(MpiSession& s, const Dataset& train, const Dataset* validation, bool written = false);
// The leader's side when it has no rows: the others fail with `error` instead of waiting.
void refuseRowsOnHost(MpiSession& s, const std::string& error);
// Any other rank's side. nullopt when rank 0, the leader on its own host, stopped the job instead;
// Error with the leader's message when it had no rows to share.
std::optional<HostRows> rowsSharedOnHost(MpiSession& s);

}  // namespace skynnet
