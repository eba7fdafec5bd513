#include "data/idx_loader.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "core/error.h"

namespace skynnet {
namespace {

std::string hex(std::uint32_t v, int digits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%0*X", digits, v);
    return buf;
}
std::string hex32(std::uint32_t v) { return hex(v, 8); }

// Deflate expands at most about 1032-fold (a 258-byte match in two bits is its densest code), so
// a gzip file of n bytes holds at most 1032 n bytes: a header announcing more is a damaged file.
constexpr std::uint64_t maxDeflateRatio = 1032;

std::string gigabytes(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
    return buf;
}

std::uint64_t physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) : UINT64_MAX;
}

// gzread reads plain files unchanged too, so one reader serves .gz and uncompressed files.
class GzReader {
public:
    explicit GzReader(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb")) {
        if (!file_) throw Error(path + ": cannot open file (" + std::strerror(errno) + ")");
        // Fewer, larger reads: Fashion-MNIST loads in a fraction of a second. No larger than the
        // file, so opening many small files stays cheap.
        gzbuffer(file_, unsigned(std::clamp<std::uint64_t>(sizeOnDisk(), 8192, 1 << 20)));
    }
    ~GzReader() { gzclose(file_); }
    GzReader(const GzReader&) = delete;
    GzReader& operator=(const GzReader&) = delete;

    // Appends up to n bytes to out; returns how many were read (fewer only at the end of the file).
    std::size_t append(std::vector<unsigned char>& out, std::size_t n) {
        std::size_t total = 0;
        while (total < n) {
            const unsigned chunk = unsigned(std::min<std::size_t>(n - total, std::size_t(1) << 24));
            const std::size_t at = out.size();
            out.resize(at + chunk);
            const int got = gzread(file_, out.data() + at, chunk);
            if (got < 0) {
                int code = 0;
                const char* message = gzerror(file_, &code);
                throw Error(path_ + ": read error (" + (message ? message : "unknown") + ")");
            }
            out.resize(at + std::size_t(got));
            total += std::size_t(got);
            if (got == 0) break;
        }
        return total;
    }

    gzFile file() const { return file_; }
    // The bytes on disk (compressed or not), 0 when unknown.
    std::uint64_t sizeOnDisk() const {
        std::error_code ec;
        const std::uintmax_t n = std::filesystem::file_size(path_, ec);
        return ec ? 0 : std::uint64_t(n);
    }

private:
    std::string path_;
    gzFile file_;
};

struct IdxArray {
    std::vector<std::uint32_t> dims;
    std::vector<unsigned char> data;
};

// Reads an unsigned-byte IDX array with the given number of dimensions, checking every size.
IdxArray readIdx(const std::string& path, int expectedDims, const char* what) {
    GzReader in(path);
    std::vector<unsigned char> header;
    const std::uint32_t expectedMagic = 0x800u + std::uint32_t(expectedDims);
    if (in.append(header, 4) < 4)
        throw Error(path + ": truncated: expected at least 4 bytes (the IDX magic number), found " +
                    std::to_string(header.size()));
    const std::uint32_t magic = std::uint32_t(header[0]) << 24 | std::uint32_t(header[1]) << 16 |
                                std::uint32_t(header[2]) << 8 | header[3];
    if (header[0] != 0 || header[1] != 0)
        throw Error(path + ": not an IDX file (magic number " + hex32(magic) + ", expected " + hex32(expectedMagic) +
                    " for " + what + ")");
    if (header[2] != 0x08)
        throw Error(path + ": unsupported IDX data type " + hex(header[2], 2) +
                    "; only unsigned bytes (0x08) are supported");
    if (header[3] != expectedDims)
        throw Error(path + ": IDX " + what + " need " + std::to_string(expectedDims) + " dimension(s) (magic " +
                    hex32(expectedMagic) + "), found " + std::to_string(header[3]) + " (magic " + hex32(magic) + ")");

    const std::size_t headerBytes = 4 + 4 * std::size_t(expectedDims);
    if (in.append(header, headerBytes - 4) < headerBytes - 4)
        throw Error(path + ": truncated: expected at least " + std::to_string(headerBytes) +
                    " bytes (the IDX header), found " + std::to_string(header.size()));
    IdxArray a;
    std::uint64_t count = 1;
    for (int i = 0; i < expectedDims; ++i) {
        const unsigned char* p = header.data() + 4 + 4 * i;
        a.dims.push_back(std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3]);
        // Saturating: three 32-bit dimensions can overflow 64 bits, and a wrapped product would
        // pass the size checks below while the dimensions describe far more data.
        count = a.dims.back() != 0 && count > UINT64_MAX / a.dims.back() ? UINT64_MAX : count * a.dims.back();
    }
    const std::uint64_t expectedBytes = count > UINT64_MAX - headerBytes ? UINT64_MAX : headerBytes + count;
    if (expectedDims == 3 && std::uint64_t(a.dims[1]) * a.dims[2] > std::uint64_t(INT32_MAX))
        throw Error(path + ": images of " + std::to_string(a.dims[1]) + " x " + std::to_string(a.dims[2]) +
                    " pixels are too large (at most " + std::to_string(INT32_MAX) + " pixels per image)");
    // Checked before anything is read or allocated: a header can announce far more than the file
    // holds, and a gzip bomb can hold more than the machine's memory.
    const bool plain = gzdirect(in.file()) != 0;
    const std::uint64_t onDisk = in.sizeOnDisk();
    if (onDisk > 0 && plain && expectedBytes > onDisk)
        throw Error(path + ": truncated: expected " + std::to_string(expectedBytes) + " bytes, found " +
                    std::to_string(onDisk));
    if (onDisk > 0 && !plain && count / maxDeflateRatio > onDisk)
        throw Error(path + ": truncated: its IDX header announces " + std::to_string(expectedBytes) +
                    " bytes, more than a gzip file of " + std::to_string(onDisk) + " bytes can hold");
    // Loading holds the bytes and their float copy (or one int per label) at once, and a feature
    // name per pixel column (a std::string and its characters, 64 bytes at most).
    const std::uint64_t memory = physicalMemoryBytes();
    const std::uint64_t pixels = expectedDims == 3 ? std::uint64_t(a.dims[1]) * a.dims[2] : 0;
    if (count > memory / 5 || pixels > (memory - count * 5) / 64)
        throw Error(path + ": its IDX header announces " + std::to_string(count) + " values, which need about " +
                    gigabytes(double(count) * 5 + double(pixels) * 64) +
                    " of memory to load, more than this machine has (" + gigabytes(double(memory)) + ")");
    a.data.reserve(
        std::size_t(std::min<std::uint64_t>(count, plain || onDisk == 0 ? count : onDisk * maxDeflateRatio)));
    const std::size_t got = in.append(a.data, std::size_t(count));
    if (got < count)
        throw Error(path + ": truncated: expected " + std::to_string(expectedBytes) + " bytes, found " +
                    std::to_string(headerBytes + got) + (plain ? "" : " after decompression"));
    std::vector<unsigned char> extra;
    if (in.append(extra, 1) > 0)
        throw Error(path + ": longer than the " + std::to_string(expectedBytes) + " bytes its IDX header announces");
    return a;
}

const char* const kFashionNames[] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                     "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

bool containsFashion(std::string path) {
    std::transform(path.begin(), path.end(), path.begin(), [](char c) { return char(std::tolower((unsigned char)c)); });
    return path.find("fashion") != std::string::npos;
}

void replaceLast(std::string& s, const std::string& from, const std::string& to) {
    const std::size_t at = s.rfind(from);
    if (at != std::string::npos) s.replace(at, from.size(), to);
}

}  // namespace

std::string idxLabelsPathFor(const std::string& imagesPath) {
    namespace fs = std::filesystem;
    const fs::path images(imagesPath);
    std::string name = images.filename().string();
    const bool gz = name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0;
    if (gz) name.resize(name.size() - 3);
    std::string labels = name;
    replaceLast(labels, "images", "labels");  // train-images-idx3-ubyte, t10k-images.idx3-ubyte, ...
    replaceLast(labels, "idx3", "idx1");
    if (labels == name)
        throw Error(imagesPath +
                    ": cannot guess the labels file (the name has no 'images' or 'idx3'); give it explicitly");
    // Same compression as the images first.
    const std::string tried[] = {labels + (gz ? ".gz" : ""), labels + (gz ? "" : ".gz")};
    for (const std::string& candidate : tried) {
        const fs::path p = images.parent_path() / candidate;
        std::error_code ec;
        if (fs::is_regular_file(p, ec)) return p.string();
    }
    throw Error(imagesPath + ": no labels file beside it (tried " + tried[0] + " and " + tried[1] + ")");
}

Dataset loadIdxImages(const std::string& imagesPath) {
    const IdxArray images = readIdx(imagesPath, 3, "images");
    const std::uint32_t n = images.dims[0], rows = images.dims[1], cols = images.dims[2];
    if (n == 0 || rows == 0 || cols == 0)
        throw Error(imagesPath + ": holds no pixels (" + std::to_string(n) + " images)");

    Dataset d;
    d.source = imagesPath;
    d.task = Task::Reconstruction;
    d.sampleShape = Shape{1, int(rows), int(cols)};
    const Index pixels = Index(rows) * cols;
    d.features =
        Eigen::Map<const Eigen::Matrix<unsigned char, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(images.data
                                                                                                            .data(),
                                                                                                        Index(n),
                                                                                                        pixels)
            .cast<Scalar>();
    d.featureNames.reserve(std::size_t(pixels));
    for (std::uint32_t r = 0; r < rows; ++r)
        for (std::uint32_t c = 0; c < cols; ++c)
            d.featureNames.push_back("pixel_" + std::to_string(r) + "_" + std::to_string(c));
    return d;
}

Dataset loadIdx(const std::string& imagesPath, const std::string& labelsPath) {
    const std::string labelsFile = labelsPath.empty() ? idxLabelsPathFor(imagesPath) : labelsPath;
    Dataset d = loadIdxImages(imagesPath);
    const IdxArray labels = readIdx(labelsFile, 1, "labels");
    if (Index(labels.dims[0]) != d.size())
        throw Error(labelsFile + ": " + std::to_string(labels.dims[0]) + " labels for the " + std::to_string(d.size()) +
                    " images in " + imagesPath);
    d.task = Task::Classification;
    d.labels.assign(labels.data.begin(), labels.data.end());
    const int classes = std::max(10, *std::max_element(d.labels.begin(), d.labels.end()) + 1);
    const bool fashion = containsFashion(imagesPath);
    for (int k = 0; k < classes; ++k) d.classNames.push_back(fashion && k < 10 ? kFashionNames[k] : std::to_string(k));
    return d;
}

}  // namespace skynnet
