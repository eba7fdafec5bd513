// The image reader of image folders (data/image_folder.h, data/image_decode.h): the first byte
// picks the options (file name extension, channels, target size, strict), the rest is the file,
// read by loadImageFiles as a single image to predict on. stb_image decides the format by the
// content, not the name; the seeds hold PNG, JPEG and BMP files, and four other formats stb reads,
// which the reader must refuse. What decodes must be one row of shape.size() values in 0..255;
// what does not must end in an Error whose message is UTF-8.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "data/image_folder.h"
#include "data/text_vocabulary.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    using namespace skynnet;
    const std::uint8_t pick = data[0];
    static const char* const names[] = {"image.png", "image.jpg", "image.jpeg", "image.bmp"};
    static constexpr int channels[] = {0, 1, 3, 0};
    static constexpr int sides[] = {0, 1, 7, 28};  // 0: the image's own size
    ImageOptions options;
    options.channels = channels[(pick >> 2) & 3];
    options.height = sides[(pick >> 4) & 3];
    options.width = (pick & 0x40) ? options.height : sides[((pick >> 4) + 1) & 3];
    options.strict = (pick & 0x80) != 0;
    // The decoded rows' memory check, with a small machine's figure: an image announcing a huge
    // size at its own size must be refused before its rows are allocated.
    options.memoryLimitBytes = std::uint64_t(256) << 20;

    const std::string path = fuzz::writeInput(names[pick & 3], fuzz::asText(data + 1, size - 1));
    try {
        const ImageFiles images = loadImageFiles(path, options);
        const Dataset& d = images.data;
        const Shape& s = d.sampleShape;
        if (d.features.rows() != 1 || d.features.cols() != s.size() || images.paths.size() != 1 ||
            (s.channels != 1 && s.channels != 3) || s.height < 1 || s.width < 1 ||
            d.featureNames.size() != std::size_t(s.size())) {
            std::fprintf(stderr, "decoded image has %td x %td values for shape %s\n", std::ptrdiff_t(d.features.rows()),
                         std::ptrdiff_t(d.features.cols()), s.toString().c_str());
            std::abort();
        }
        for (Index j = 0; j < d.features.cols(); ++j) {
            const Scalar v = d.features(0, j);
            if (!(v >= 0 && v <= 255)) {
                std::fprintf(stderr, "pixel value %g outside 0..255\n", double(v));
                std::abort();
            }
        }
    } catch (const Error& e) {
        fuzz::rejected(e);
        // The message reaches logs, the UI and JSON reports: it must be text.
        try {
            checkUtf8(e.what(), "");
        } catch (const Error&) {
            std::fprintf(stderr, "error message is not UTF-8: %s\n", e.what());
            std::abort();
        }
    }
    return 0;
}
