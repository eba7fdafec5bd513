#include "distributed/host_rows.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "core/error.h"
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

// The next message from the leader; nullopt for rank 0's Stop (rank 0 leads its own host).
std::optional<MpiMessage> fromLeader(MpiSession& s, int tag) {
    MpiMessage m = s.receive(s.dataLeader(), -1);
    if (m.tag == TagStop) return std::nullopt;
    if (m.tag != tag) throw Error("MPI: expected message " + std::to_string(tag) + " from rank " + std::to_string(s.dataLeader()) +
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
    // Where the kernel can, in one call; else by touching each page.
    bool populated = false;
#ifdef MADV_POPULATE_WRITE
    populated = madvise(block.data(), block.size(), MADV_POPULATE_WRITE) == 0;
#endif
    if (!populated) {
        const long page = sysconf(_SC_PAGESIZE);
        for (std::size_t at = 0; at < block.size(); at += std::size_t(page > 0 ? page : 4096)) block[at] = std::byte{0};
    }
    s.trace("shared block of " + std::to_string(bytes >> 20) + " MiB allocated");
}

void acceptHostBlock(MpiSession& s) { s.allocateSharedBlock(0); }

HostRows shareRowsOnHost(MpiSession& s, const Dataset& train, const Dataset* validation) {
    Json description = Json::object({{"train", describeRows(train)}});
    std::size_t floats = rowFloatCount(train);
    if (validation) {
        description["validation"] = describeRows(*validation);
        floats += rowFloatCount(*validation);
    }
    const std::string text = dumpJson(description);
    for (const int peer : s.dataPeers()) s.send(peer, TagHostRows, text);
    // The block rank 0 allocated early (reserveRowsOnHost), or one allocated now.
    const std::span<std::byte> block = s.sharedBlock().empty() ? s.allocateSharedBlock(floats * sizeof(float)) : s.sharedBlock();
    if (block.size() < floats * sizeof(float))
        throw Error("MPI: the shared block of " + std::to_string(block.size()) + " bytes is too small for the rows' " +
                    std::to_string(floats * sizeof(float)));
    float* at = reinterpret_cast<float*>(block.data());
    // Most of this is the block's first touch (the kernel zeroes and maps each page, about as
    // long as the copy of a fresh matrix would take), while the other ranks here wait.
    copyRowFloats(train, at);
    if (validation) copyRowFloats(*validation, at + rowFloatCount(train));
    for (const int peer : s.dataPeers()) s.send(peer, TagHostRowsReady, std::string("{}"));
    if (s.tracing()) s.trace("rows shared with " + std::to_string(s.dataPeers().size()) + " ranks on this host (" +
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
        throw Error("rank " + std::to_string(s.dataLeader()) + ", which prepares this host's rows, could not: " + error->asString());
    const std::span<std::byte> block = s.sharedBlock().empty() ? s.allocateSharedBlock(0) : s.sharedBlock();
    if (!fromLeader(s, TagHostRowsReady)) return std::nullopt;
    HostRows h = readBlock(j, block, s.dataLeader());
    s.trace("rows read from rank " + std::to_string(s.dataLeader()) + "'s shared block");
    return h;
}

}  // namespace skynnet
