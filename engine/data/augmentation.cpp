#include "data/augmentation.h"

#include <cstdlib>
#include <vector>

#include "core/error.h"

namespace skynnet {
namespace {

// "augment" in ASCII: keeps augmentation's draws apart from the shuffling and the initial weights
// that the same seed drives.
constexpr std::uint64_t augmentationSalt = 0x6175676d656e74ULL;

}  // namespace

Augmentation parseAugmentation(const std::string& text) {
    Augmentation a;
    if (text.empty() || text == "none") return a;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find(',', at);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(at, end - at);
        if (item == "flip") {
            a.flip = true;
        } else if (item.rfind("shift:", 0) == 0) {
            const std::string n = item.substr(6);
            if (n.empty() || n.size() > 3 || n.find_first_not_of("0123456789") != std::string::npos ||
                std::atoi(n.c_str()) < 1)
                throw Error("shift expects a number of pixels from 1 to 999 (shift:2), got '" + item + "'");
            a.shift = std::atoi(n.c_str());
        } else {
            throw Error("unknown augmentation '" + item + "' (expected flip and/or shift:PIXELS, e.g. flip,shift:2)");
        }
        at = end + 1;
    }
    return a;
}

std::string augmentationText(const Augmentation& a) {
    std::string s = a.flip ? "flip" : "";
    if (a.shift > 0) s += (s.empty() ? "" : ",") + std::string("shift:") + std::to_string(a.shift);
    return s.empty() ? "none" : s;
}

void checkAugmentable(const Augmentation& a, const Shape& input) {
    if (a.enabled() && (input.height < 2 || input.width < 2))
        throw Error("augmentation (" + augmentationText(a) +
                    ") needs image input (channels, height, width), the network's input is " + input.toString());
}

Rng augmentationStream(std::uint64_t seed, std::uint64_t step) { return Rng(seed ^ augmentationSalt).split(step); }

void transformSample(const Scalar* in, Scalar* out, const Shape& shape, bool flip, int dy, int dx) {
    const int h = shape.height, w = shape.width;
    for (int c = 0; c < shape.channels; ++c) {
        const Scalar* src = in + Index(c) * h * w;
        Scalar* dst = out + Index(c) * h * w;
        for (int y = 0; y < h; ++y) {
            const int sy = y - dy;
            for (int x = 0; x < w; ++x) {
                const int sx0 = x - dx;  // in the flipped image
                const int sx = flip ? w - 1 - sx0 : sx0;
                dst[y * w + x] = sy >= 0 && sy < h && sx0 >= 0 && sx0 < w ? src[sy * w + sx] : Scalar(0);
            }
        }
    }
}

void augmentRows(Matrix& rows, const Shape& shape, const Augmentation& a, const Rng& stepStream, Index firstRow) {
    if (!a.enabled()) return;
    if (rows.cols() != shape.size())
        throw Error("augmentation: rows of " + std::to_string(rows.cols()) + " values, samples of " + shape.toString());
    std::vector<Scalar> sample(std::size_t(shape.size()));
    const auto span = std::uint64_t(2 * a.shift + 1);
    for (Index r = 0; r < rows.rows(); ++r) {
        Rng draw = stepStream.split(std::uint64_t(firstRow + r));
        const bool flip = a.flip && draw.below(2) == 1;
        const int dy = a.shift > 0 ? int(draw.below(span)) - a.shift : 0;
        const int dx = a.shift > 0 ? int(draw.below(span)) - a.shift : 0;
        if (!flip && dy == 0 && dx == 0) continue;
        Scalar* row = rows.row(r).data();
        std::copy(row, row + shape.size(), sample.begin());
        transformSample(sample.data(), row, shape, flip, dy, dx);
    }
}

}  // namespace skynnet
