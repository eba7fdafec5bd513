// The IDX loader: the input holds the images file, the separator below, then the labels file.
// Built twice: fuzz_idx with plain seeds, fuzz_idx_gzip (SKYNNET_FUZZ_GZIP) with gzip seeds and
// ".gz" names; the loader decides by content, the names only pick the labels file beside.
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "data/idx_loader.h"
#include "fuzz_support.h"

#ifdef SKYNNET_FUZZ_GZIP
#define IDX_SUFFIX ".gz"
#else
#define IDX_SUFFIX ""
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace skynnet;
    const auto [images, labels] = fuzz::splitAt(fuzz::asText(data, size), "SKYNNET-IDX-LABELS");
    const std::string imagesPath = fuzz::writeInput("train-images-idx3-ubyte" IDX_SUFFIX, images);
    fuzz::writeInput("train-labels-idx1-ubyte" IDX_SUFFIX, labels);
    try {
        loadIdx(imagesPath);  // the labels file found beside it by name
    } catch (const Error& e) {
        fuzz::rejected(e);
    }
    return 0;
}
