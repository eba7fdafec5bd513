#pragma once
// Image augmentation for training only: each training row of a batch, a sample of shape (C,H,W),
// is mirrored left-right and/or moved by a few pixels (padded with zeros, then cropped back to
// H x W). Off by default. It works on the network's inputs (after Preprocessing), so the padding
// is 0 there: black under min-max scaling, the mean under standardisation.
//
// The draws of a row come from its own stream, split from the step's stream by the row's place in
// the batch (as Dropout's masks are, Layer::setBatchOrigin), so a seed gives the same augmented
// batch whatever the number of threads.
#include <string>

#include "core/rng.h"
#include "core/tensor.h"

namespace skynnet {

struct Augmentation {
    bool flip = false;  // mirror left-right with probability 1/2
    int shift = 0;      // move by -shift..shift pixels along each axis, each offset equally likely
    bool enabled() const { return flip || shift > 0; }
    bool operator==(const Augmentation&) const = default;
};

// "flip", "shift:2", "flip,shift:2"; "" or "none": off. Throws Error naming the bad item.
Augmentation parseAugmentation(const std::string& text);
// The inverse: "flip,shift:2", "none".
std::string augmentationText(const Augmentation& a);

// Throws Error when `a` is enabled but `input` is not an image (a flat row has no left and right).
void checkAugmentable(const Augmentation& a, const Shape& input);

// The stream of training step `step` for a run seeded with `seed`.
Rng augmentationStream(std::uint64_t seed, std::uint64_t step);

// Augments every row of `rows` (samples of `shape`) in place; row r draws from
// stepStream.split(firstRow + r).
void augmentRows(Matrix& rows, const Shape& shape, const Augmentation& a, const Rng& stepStream, Index firstRow = 0);

// One sample mirrored and moved by (dy, dx) pixels, zeros where it moved in from outside; the
// deterministic core of augmentRows, for tests.
void transformSample(const Scalar* in, Scalar* out, const Shape& shape, bool flip, int dy, int dx);

}  // namespace skynnet
