#include "data/image_folder.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/error.h"
#include "core/parallel.h"
#include "core/system_memory.h"
#include "data/image_decode.h"
#include "data/shape_text.h"

namespace skynnet {
namespace fs = std::filesystem;
namespace {

bool hidden(const fs::path& p) { return p.filename().string().rfind('.', 0) == 0; }

bool isDirectory(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool isRegularFile(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

// The entries of `dir` that pass `keep`, sorted by name so that rows come in the same order on
// every machine.
template <class Keep>
std::vector<fs::path> sortedEntries(const fs::path& dir, Keep keep) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (!hidden(it->path()) && keep(it->path())) out.push_back(it->path());
    if (ec) throw Error(dir.string() + ": cannot list the folder (" + ec.message() + ")");
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> imagesIn(const fs::path& dir) {
    return sortedEntries(dir, [](const fs::path& p) { return isImageFileName(p.string()) && isRegularFile(p); });
}

// The options' shape, with what they leave open taken from the first readable image.
Shape resolveShape(const std::vector<std::string>& files, const ImageOptions& o, const std::string& where) {
    if (o.channels != 0 && o.channels != 1 && o.channels != 3)
        throw Error(where + ": images have 1 (gray) or 3 (RGB) channels, not " + std::to_string(o.channels));
    Shape shape{o.channels, o.height, o.width};
    if (o.channels != 0 && o.height > 0 && o.width > 0) return shape;
    std::string firstProblem;
    for (const std::string& f : files) {
        std::string why;
        const auto info = readImageInfo(f, &why);
        if (!info) {
            if (firstProblem.empty()) firstProblem = f + ": " + why;
            continue;
        }
        if (shape.channels == 0) shape.channels = info->channels <= 2 ? 1 : 3;
        if (shape.height <= 0 || shape.width <= 0) {
            shape.height = info->height;
            shape.width = info->width;
        }
        return shape;
    }
    throw Error(where + ": none of its " + std::to_string(files.size()) + " image files can be read (" + firstProblem +
                ")");
}

// Refuses a set whose decoded rows would not fit, with a size that would.
void checkMemory(std::size_t files, const Shape& shape, const ImageOptions& o, const std::string& where) {
    const std::uint64_t limit = o.memoryLimitBytes ? o.memoryLimitBytes : availableMemoryBytes();
    const std::uint64_t need = decodedImageBytes(files, shape);
    if (limit == 0 || need <= limit) return;
    std::string hint = "a smaller --image-size";
    for (Shape smaller = shape; smaller.height > 1 || smaller.width > 1;) {
        smaller.height = std::max(1, smaller.height / 2);
        smaller.width = std::max(1, smaller.width / 2);
        if (decodedImageBytes(files, smaller) <= limit) {
            hint += ", e.g. " + std::to_string(smaller.height) + "x" + std::to_string(smaller.width) + " (" +
                    memoryText(double(decodedImageBytes(files, smaller))) + ")";
            break;
        }
    }
    throw Error(where + ": " + std::to_string(files) + " images of " + sampleShapeText(shape) + " need about " +
                memoryText(double(need)) + " of memory decoded (float32 per value), more than the " +
                memoryText(double(limit)) + " available; choose " + hint);
}

struct Decoded {
    Matrix rows;
    std::vector<std::size_t> kept;  // index into the files of each row
    std::vector<SkippedFile> skipped;
};

// Decodes every file (in parallel: each file its own row, so the result does not depend on the
// number of threads), then drops the unreadable ones.
Decoded decodeAll(const std::vector<std::string>& files, const Shape& shape, bool strict) {
    Matrix all(Index(files.size()), shape.size());
    std::vector<std::string> errors(files.size());
    parallelFor(0, std::int64_t(files.size()), [&](std::int64_t i) {
        errors[std::size_t(i)] = decodeImageInto(files[std::size_t(i)], shape, all.row(Index(i)).data());
    });
    Decoded d;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (errors[i].empty()) {
            d.kept.push_back(i);
            continue;
        }
        if (strict) throw Error(files[i] + ": cannot read the image (" + errors[i] + ")");
        d.skipped.push_back({files[i], errors[i]});
    }
    if (d.skipped.empty()) {
        d.rows = std::move(all);
        return d;
    }
    d.rows.resize(Index(d.kept.size()), shape.size());
    for (std::size_t r = 0; r < d.kept.size(); ++r) d.rows.row(Index(r)) = all.row(Index(d.kept[r]));
    return d;
}

Dataset imageDataset(const std::string& source, Decoded& decoded, const Shape& shape) {
    if (decoded.rows.rows() == 0)
        throw Error(source + ": none of its " + std::to_string(decoded.skipped.size()) + " image files can be read (" +
                    decoded.skipped.front().path + ": " + decoded.skipped.front().reason + ")");
    Dataset d;
    d.source = source;
    d.task = Task::Classification;
    d.sampleShape = shape;
    d.features = std::move(decoded.rows);
    d.featureNames = imageFeatureNames(shape);
    d.skipped = std::move(decoded.skipped);
    return d;
}

}  // namespace

bool isImageFolder(const std::string& path) { return isDirectory(path); }

std::uint64_t decodedImageBytes(std::size_t files, const Shape& shape) {
    return std::uint64_t(files) * std::uint64_t(shape.size()) * sizeof(float);
}

std::vector<std::string> imageFeatureNames(const Shape& shape) {
    std::vector<std::string> names;
    names.reserve(std::size_t(shape.size()));
    for (int c = 0; c < shape.channels; ++c)
        for (int h = 0; h < shape.height; ++h)
            for (int w = 0; w < shape.width; ++w)
                names.push_back("pixel_" + (shape.channels > 1 ? std::to_string(c) + "_" : std::string()) +
                                std::to_string(h) + "_" + std::to_string(w));
    return names;
}

Dataset loadImageFolder(const std::string& dir, const ImageOptions& options) {
    if (!isDirectory(dir)) throw Error(dir + ": not a folder");
    const std::vector<fs::path> classDirs = sortedEntries(dir, isDirectory);
    if (classDirs.empty())
        throw Error(dir + ": no class subfolders (an image folder holds one subfolder of images per class)");
    std::vector<std::string> files, classNames;
    std::vector<int> classOf;
    for (const fs::path& c : classDirs) {
        classNames.push_back(c.filename().string());
        for (const fs::path& f : imagesIn(c)) {
            files.push_back(f.string());
            classOf.push_back(int(classNames.size()) - 1);
        }
    }
    if (files.empty())
        throw Error(dir + ": no PNG, JPEG or BMP files in its " + std::to_string(classDirs.size()) + " class folders");
    const Shape shape = resolveShape(files, options, dir);
    checkMemory(files.size(), shape, options, dir);
    Decoded decoded = decodeAll(files, shape, options.strict);
    std::vector<int> labels;
    labels.reserve(decoded.kept.size());
    for (std::size_t i : decoded.kept) labels.push_back(classOf[i]);
    Dataset d = imageDataset(dir, decoded, shape);
    d.classNames = std::move(classNames);
    d.labels = std::move(labels);
    return d;
}

ImageFiles loadImageFiles(const std::string& path, const ImageOptions& options) {
    std::vector<std::string> files;
    if (isDirectory(path)) {
        for (const fs::path& f : imagesIn(path)) files.push_back(f.string());
        for (const fs::path& sub : sortedEntries(path, isDirectory))
            for (const fs::path& f : imagesIn(sub)) files.push_back(f.string());
        if (files.empty()) throw Error(path + ": no PNG, JPEG or BMP files in the folder or its subfolders");
    } else if (isRegularFile(path)) {
        files.push_back(path);
    } else {
        throw Error(path + ": no such file or folder");
    }
    const Shape shape = resolveShape(files, options, path);
    checkMemory(files.size(), shape, options, path);
    Decoded decoded = decodeAll(files, shape, options.strict);
    ImageFiles out;
    for (std::size_t i : decoded.kept) out.paths.push_back(files[i]);
    out.data = imageDataset(path, decoded, shape);
    return out;
}

}  // namespace skynnet
