// The combined-model reader (loadAnyModel: kind "combined", or "single" read as a one-submodel
// combined model), then what `predict` does with the model; the checksum is made to match.
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "fuzz_support.h"
#include "model_use.h"
#include "split/combined_model_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace skynnet;
    const std::string path = fuzz::writeInput("combined.skynnet", fuzz::withValidChecksum(fuzz::asText(data, size)));
    try {
        fuzz::useModel(loadAnyModel(path));
    } catch (const Error& e) {
        fuzz::rejected(e);
    }
    return 0;
}
