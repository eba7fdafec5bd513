#include "distributed/host_rows.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "core/parallel.h"
#include "distributed/mpi_session.h"
#include "distributed/protocol.h"
#include "distributed/row_description.h"

namespace skynnet {
namespace {

// One dataset of the block: its labels and targets copied out, its features viewed in place.
Dataset readPart(const JsonField& j, std::span<const float>& floats, MatrixView& features, int leader) {
    DescribedRows r = readRowDescription(j);
    features = MatrixView(takeFloats(floats, r.featureFloats(), j.at("rows")).data(), r.rows, r.columns);
    r.data.targets = r.targets(takeFloats(floats, r.targetFloats(), j.at("targetColumns")));
    r.data.source = "rows prepared by rank " + std::to_string(leader) + " on this host";
    return std::move(r.data);
}

HostRows readBlock(const JsonField& j, std::span<const std::byte> block, int leader) {
    if (reinterpret_cast<std::uintptr_t>(block.data()) % alignof(float) != 0) j.fail("lies in a misaligned block");
    std::span<const float> floats(reinterpret_cast<const float*>(block.data()), block.size() / sizeof(float));
    HostRows h;
    h.train = readPart(j.at("train"), floats, h.trainFeatures, leader);
    if (const auto v = j.find("validation")) h.validation = readPart(*v, floats, h.validationFeatures, leader);
    return h;
}

// Rank 0 never reads the rows it shares (it trains nothing), so it maps the block's pages only while
// it writes them: chunk by chunk, each dropped from its own mapping once written (MADV_DONTNEED;
// the pages stay in the shared segment, where its host's workers read them). Its memory is then
// what a thread-backend run's is, its own prepared rows, and not those plus the block. Another
// host's leader trains from the block: it keeps its pages.
class BlockWriter {
public:
    BlockWriter(std::span<std::byte> block, bool keepMapped) : block_(block), keep_(keepMapped) {}

    // Chunks of whole pages, on the calling thread's kernel threads: rank 0 copies while its
    // workers wait, their cores free.
    void write(std::span<const float> values) {
        const std::byte* from = reinterpret_cast<const std::byte*>(values.data());
        const std::size_t start = at_, end = at_ + values.size_bytes();
        if (end > block_.size()) throw Error("MPI: the rows overrun the shared block");
        // Chunk c covers [bound(c), bound(c + 1)): bounds on page addresses, inside [start, end).
        const std::uintptr_t first = pageDown(address(start));
        const auto bound = [&](std::int64_t c) {
            const std::uintptr_t a = first + std::uintptr_t(c) * chunkBytes;
            return std::clamp<std::size_t>(a < address(0) ? 0 : a - address(0), start, end);
        };
        const std::int64_t chunks = std::int64_t((address(end) - first + chunkBytes - 1) / chunkBytes);
        parallelFor(0, chunks, [&](std::int64_t c) {
            const std::size_t a = bound(c), b = bound(c + 1);
            if (b <= a) return;
            if (!keep_) populate(a, b);
            std::memcpy(block_.data() + a, from + (a - start), b - a);
            if (!keep_) drop(a, b);
        });
        at_ = end;
    }

    // Drops what is left of the written part: the pages chunks shared at their ends.
    void finish() {
        if (!keep_) drop(0, at_, true);
    }

    // Has the kernel allocate every page of the block, chunk by chunk (where it can in one call;
    // else by touching each page), for reserveRowsOnHost.
    void allocate() {
        for (std::size_t at = 0; at < block_.size(); at += chunkBytes) {
            const std::size_t end = std::min(block_.size(), at + chunkBytes);
            if (!populate(at, end))
                for (std::size_t p = at; p < end; p += page_) block_[p] = std::byte{0};
            if (!keep_) drop(at, end, true);
        }
    }

private:
    static constexpr std::size_t chunkBytes = std::size_t(8) << 20;

    // The block need not start on a page (the MPI window's segment has a header): madvise takes
    // whole pages, so offsets become page addresses here.
    std::uintptr_t address(std::size_t offset) const {
        return reinterpret_cast<std::uintptr_t>(block_.data()) + offset;
    }
    std::uintptr_t pageDown(std::uintptr_t a) const { return a / page_ * page_; }

    bool populate(std::size_t from, std::size_t to) const {
#ifdef MADV_POPULATE_WRITE
        const std::uintptr_t a = pageDown(address(from));
        return madvise(reinterpret_cast<void*>(a), address(to) - a, MADV_POPULATE_WRITE) == 0;
#else
        (void)from, (void)to;
        return false;
#endif
    }

    // Lets go of the pages wholly inside [from, to), or when `edges` of every page it touches.
    // Pages the block shares with what lies around it (the window's header before it, the
    // doorbells after it) are memory shared with the other ranks, which a dropped mapping does not
    // lose: the next touch maps them again.
    void drop(std::size_t from, std::size_t to, bool edges = false) const {
        const std::uintptr_t a = edges ? pageDown(address(from)) : pageDown(address(from) + page_ - 1);
        const std::uintptr_t b = edges ? pageDown(address(to) + page_ - 1) : pageDown(address(to));
        if (b > a) madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
    }

    std::span<std::byte> block_;
    bool keep_;
    std::size_t at_ = 0;
    const std::size_t page_ = std::size_t(sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096);
};

void writeRows(const Dataset& d, BlockWriter& w) {
    w.write({d.features.data(), std::size_t(d.features.size())});
    w.write({d.targets.data(), std::size_t(d.targets.size())});
}

void writeRows(MpiSession& s, const Dataset& train, const Dataset* validation) {
    const std::span<std::byte> block = s.sharedBlock();
    const std::size_t bytes = (rowFloatCount(train) + (validation ? rowFloatCount(*validation) : 0)) * sizeof(float);
    if (block.size() < bytes)
        throw Error("MPI: the shared block of " + std::to_string(block.size()) + " bytes is too small for the rows' " +
                    std::to_string(bytes));
    // Most of this is the block's first touch where it was not reserved early (the kernel zeroes
    // and maps each page, about as long as the copy of a fresh matrix would take).
    BlockWriter w(block, s.rank() != 0);
    writeRows(train, w);
    if (validation) writeRows(*validation, w);
    w.finish();
}

// The next message from the leader; nullopt for rank 0's Stop (rank 0 leads its own host).
std::optional<MpiMessage> fromLeader(MpiSession& s, int tag) {
    MpiMessage m = s.receive(s.dataLeader(), -1);
    if (m.tag == TagStop) return std::nullopt;
    if (m.tag != tag)
        throw Error("MPI: expected message " + std::to_string(tag) + " from rank " + std::to_string(s.dataLeader()) +
                    ", got " + std::to_string(m.tag));
    return m;
}

}  // namespace

bool shareRowsByDefault() {
    const char* v = std::getenv("SKYNNET_MPI_SHARE_DATA");
    return !(v && std::string(v) == "0");
}

bool preparesOwnRows(const MpiSession& s, bool shareData) {
    return !shareData || s.dataPeers().empty() || s.dataLeader() == s.rank();
}

SubmodelData HostRows::submodelData() const {
    SubmodelData d;
    d.train = &train;
    d.trainFeatures = trainFeatures;
    if (validation) {
        d.validation = &*validation;
        d.validationFeatures = validationFeatures;
    }
    return d;
}

std::size_t rowBytesOnHost(Index trainRows, Index validationRows, Index columns, Index targetColumns) {
    return std::size_t(trainRows + validationRows) * std::size_t(columns + targetColumns) * sizeof(float);
}

void reserveRowsOnHost(MpiSession& s, std::size_t bytes) {
    const std::string text = dumpJson(Json::object({{"bytes", bytes}}));
    for (const int peer : s.dataPeers()) s.send(peer, TagHostBlock, text);
    const std::span<std::byte> block = s.allocateSharedBlock(bytes);
    // Rank 0, the only caller, allocates the pages in the segment and lets go of its mapping of
    // them chunk by chunk (BlockWriter).
    BlockWriter(block, s.rank() != 0).allocate();
    s.trace("shared block of " + std::to_string(bytes >> 20) + " MiB allocated");
}

void acceptHostBlock(MpiSession& s) { s.allocateSharedBlock(0); }

bool writeRowsOnHost(MpiSession& s, const Dataset& train, const Dataset* validation) {
    if (s.sharedBlock().empty()) return false;
    writeRows(s, train, validation);
    s.trace("rows written into the shared block");
    return true;
}

HostRows shareRowsOnHost(MpiSession& s, const Dataset& train, const Dataset* validation, bool written) {
    Json description = Json::object({{"train", describeRows(train)}});
    std::size_t floats = rowFloatCount(train);
    if (validation) {
        description["validation"] = describeRows(*validation);
        floats += rowFloatCount(*validation);
    }
    const std::string text = dumpJson(description);
    for (const int peer : s.dataPeers()) s.send(peer, TagHostRows, text);
    // The block rank 0 allocated early (reserveRowsOnHost), or one allocated now, while the other
    // ranks here wait.
    if (s.sharedBlock().empty()) s.allocateSharedBlock(floats * sizeof(float));
    if (!written) writeRows(s, train, validation);
    const std::span<std::byte> block = s.sharedBlock();
    for (const int peer : s.dataPeers()) s.send(peer, TagHostRowsReady, std::string("{}"));
    if (s.tracing())
        s.trace("rows shared with " + std::to_string(s.dataPeers().size()) + " ranks on this host (" +
                std::to_string(block.size() >> 20) + " MiB)");
    return readBlock(JsonField(description, "MPI host rows"), block, s.rank());
}

void refuseRowsOnHost(MpiSession& s, const std::string& error) {
    const std::string text = dumpJson(Json::object({{"error", error}}));
    for (const int peer : s.dataPeers()) s.send(peer, TagHostRows, text);
}

std::optional<HostRows> rowsSharedOnHost(MpiSession& s) {
    const std::optional<MpiMessage> described = fromLeader(s, TagHostRows);
    if (!described) return std::nullopt;
    const Json doc = parseMessage(described->bytes, "MPI host rows");
    const JsonField j(doc, "MPI host rows from rank " + std::to_string(s.dataLeader()));
    if (const auto error = j.find("error"))
        throw Error("rank " + std::to_string(s.dataLeader()) +
                    ", which prepares this host's rows, could not: " + error->asString());
    const std::span<std::byte> block = s.sharedBlock().empty() ? s.allocateSharedBlock(0) : s.sharedBlock();
    if (!fromLeader(s, TagHostRowsReady)) return std::nullopt;
    HostRows h = readBlock(j, block, s.dataLeader());
    s.trace("rows read from rank " + std::to_string(s.dataLeader()) + "'s shared block");
    return h;
}

}  // namespace skynnet
