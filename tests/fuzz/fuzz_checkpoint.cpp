// The checkpoint reader (project/checkpoint_file.h), as resuming a run reads each submodel's file:
// the input is a checkpoint file of the run in checkpoint_setup.h (its CRC-32 recomputed, see
// fuzz_support.h). What loads must save and load again.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "checkpoint_setup.h"
#include "core/error.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace skynnet;
    static Network network(fuzz::checkpointSpec(), 1);
    const std::string path = fuzz::writeInput("submodel-1.ckpt", fuzz::withValidChecksum(fuzz::asText(data, size)));
    SubmodelResume resume;
    try {
        resume = loadCheckpointFile(path, fuzz::checkpointKey, fuzz::checkpointIndex, network);
    } catch (const Error& e) {
        fuzz::rejected(e);
        return 0;
    }
    if (resume.weights.size() != std::size_t(network.weightCount())) {
        std::fprintf(stderr, "loaded %zu weights for a network of %lld\n", resume.weights.size(),
                     static_cast<long long>(network.weightCount()));
        std::abort();
    }
    const std::string copy = fuzz::tempPath("resaved.ckpt");
    saveCheckpointFile(copy, fuzz::checkpointKey, fuzz::checkpointIndex, resume);
    try {
        loadCheckpointFile(copy, fuzz::checkpointKey, fuzz::checkpointIndex, network);
    } catch (const Error& e) {
        std::fprintf(stderr, "a checkpoint that loaded, saved again, does not load: %s\n", e.what());
        std::abort();
    }
    return 0;
}
