// The single-network model reader (kind "single", spec_json.h) and the container below it
// (model_file.h); the checksum is made to match so inputs reach the header and the blocks.
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "fuzz_support.h"
#include "model/saved_model.h"
#include "model_use.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace skynnet;
    const std::string path = fuzz::writeInput("model.skynnet", fuzz::withValidChecksum(fuzz::asText(data, size)));
    try {
        fuzz::useModel(asCombined(loadModel(path)));
    } catch (const Error& e) {
        fuzz::rejected(e);
    }
    return 0;
}
