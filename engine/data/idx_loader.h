#pragma once
// Loading IDX image/label file pairs (the MNIST family), plain or gzip-compressed.
#include <string>

#include "data/dataset.h"

namespace skynnet {

// Images: magic 0x00000803 (unsigned bytes, 3 dimensions: count, rows, columns); labels: magic
// 0x00000801 (unsigned bytes, 1 dimension). Features are the raw pixel values 0..255 as floats
// (scaling is Preprocessing's job), sampleShape (1, rows, columns). Classes are "0".."9", or the
// Fashion-MNIST names when the images path contains "fashion"; the declared class count is
// max(10, largest label + 1).
// labelsPath empty: the labels file beside the images, see idxLabelsPathFor().
Dataset loadIdx(const std::string& imagesPath, const std::string& labelsPath = {});
// The images alone, without a labels file, as reconstruction data (an autoencoder's targets are
// its inputs): features, feature names and sample shape as loadIdx gives them, no labels.
Dataset loadIdxImages(const std::string& imagesPath);

// The labels file that goes with an images file: "images-idx3" -> "labels-idx1" (also the
// "images.idx3" spelling, and "images" -> "labels" otherwise), with or without ".gz", the first
// that exists. Throws Error naming the files tried when none does.
std::string idxLabelsPathFor(const std::string& imagesPath);

}  // namespace skynnet
