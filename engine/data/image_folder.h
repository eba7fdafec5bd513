#pragma once
// Image datasets read from folders: DIR/<class>/<image> for training and test data (one
// subfolder per class, its name the class name; PNG, JPEG or BMP), and a single image or a flat
// folder of images for prediction. Every image becomes one row of shape.size() raw values (see
// data/image_decode.h), resized to one H x W and converted to 1 or 3 channels.
//
// A file that cannot be decoded is left out and listed in Dataset::skipped (skippedFilesWarning
// words the warning), or, with strict, is an Error naming it. Before anything is decoded the memory
// the rows need (float32 per value) is compared with what the machine has, and a set that does not
// fit is refused with the figure and a smaller size that would fit.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace skynnet {

struct ImageOptions {
    int height = 0, width = 0;  // 0: the first readable image's size
    int channels = 0;           // 1 or 3; 0: 1 when the first readable image is gray, else 3
    bool strict = false;        // an unreadable image is an Error instead of skipped
    // What the decoded rows may take; 0: availableMemoryBytes(). Tests inject a small limit.
    std::uint64_t memoryLimitBytes = 0;
    bool operator==(const ImageOptions&) const = default;
};

// An image folder: a directory that is not an IDX/CSV file (checked by data_source's dataKind).
bool isImageFolder(const std::string& path);

// The memory `files` images of `shape` take decoded: float32 per value.
std::uint64_t decodedImageBytes(std::size_t files, const Shape& shape);

// DIR/<class>/<image>. Classes are the subfolders (hidden ones excepted), sorted by name; files
// in a class folder are read in name order, those without an image extension ignored. Throws
// Error naming the folder when it has no class subfolders or no readable image, or when the
// decoded set would not fit in memory.
Dataset loadImageFolder(const std::string& dir, const ImageOptions& options);

// Unlabelled images for prediction: `path` is one image file, or a folder whose images (and those
// of its subfolders, one level down) are read in name order. `paths` holds the file of each row.
struct ImageFiles {
    Dataset data;  // features, sampleShape, featureNames and skipped only
    std::vector<std::string> paths;
};
ImageFiles loadImageFiles(const std::string& path, const ImageOptions& options);

// The names of an image's feature columns: pixel_<row>_<column> for one channel (as IDX images
// are named), pixel_<channel>_<row>_<column> for more.
std::vector<std::string> imageFeatureNames(const Shape& shape);

}  // namespace skynnet
