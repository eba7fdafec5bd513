#include "io/container.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/checksum.h"

namespace skynnet {
namespace {

constexpr char magic[8] = {'S', 'K', 'Y', 'N', 'N', 'E', 'T', 'M'};
constexpr bool littleEndianHost = std::endian::native == std::endian::little;

template <typename T>
void toLittleEndian(T v, unsigned char* out) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

template <typename T>
T fromLittleEndian(const unsigned char* in) {
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= T(in[i]) << (8 * i);
    return v;
}

// Writes through the atomic writer while keeping the running checksum.
class Writer {
public:
    explicit Writer(const std::string& path) : out_(path) {}
    void bytes(const void* data, std::size_t size) {
        crc_.update(data, size);
        out_.write(data, size);
    }
    template <typename T>
    void integer(T v) {
        unsigned char b[sizeof(T)];
        toLittleEndian(v, b);
        bytes(b, sizeof b);
    }
    void floats(std::span<const float> v) {
        if constexpr (littleEndianHost) {
            bytes(v.data(), v.size() * sizeof(float));
        } else {
            for (float f : v) integer(std::bit_cast<std::uint32_t>(f));
        }
    }
    void finish() {
        unsigned char b[4];
        toLittleEndian(crc_.value(), b);
        out_.write(b, sizeof b);  // the checksum does not cover itself
        out_.commit();
    }

private:
    AtomicFileWriter out_;
    Crc32 crc_;
};

// Reads with the checksum running, refusing any length the rest of the file cannot hold.
class Reader {
public:
    explicit Reader(const std::string& path) : in_(path) {}
    const std::string& path() const { return in_.path(); }
    std::uint64_t size() const { return in_.size(); }
    std::size_t readRaw(void* data, std::size_t size) { return in_.read(data, size); }

    [[noreturn]] void truncated() const { throw Error(path() + " is truncated"); }

    // Bytes still available before the 4-byte checksum at the end.
    std::uint64_t available() const { return in_.size() >= offset_ + 4 ? in_.size() - offset_ - 4 : 0; }
    void bytes(void* data, std::size_t size) {
        if (size > available() || in_.read(data, size) != size) truncated();
        crc_.update(data, size);
        offset_ += size;
    }
    template <typename T>
    T integer() {
        unsigned char b[sizeof(T)];
        bytes(b, sizeof b);
        return fromLittleEndian<T>(b);
    }
    void countMagic() {
        offset_ += sizeof magic;
        crc_.update(magic, sizeof magic);
    }
    std::uint32_t crc() const { return crc_.value(); }

private:
    InputFile in_;
    Crc32 crc_;
    std::uint64_t offset_ = 0;
};

}  // namespace

void saveModelFile(const std::string& path, const Json& header, const std::vector<std::span<const float>>& blocks) {
    const std::string text = dumpJson(header);
    Writer w(path);
    w.bytes(magic, sizeof magic);
    w.integer(modelFileFormatVersion);
    w.integer(std::uint64_t(text.size()));
    w.bytes(text.data(), text.size());
    w.integer(std::uint64_t(blocks.size()));
    for (const auto& block : blocks) {
        w.integer(std::uint64_t(block.size()));
        w.floats(block);
    }
    w.finish();
}

void saveModelFile(const std::string& path, const ModelFileContents& contents) {
    saveModelFile(path, contents.header, {contents.blocks.begin(), contents.blocks.end()});
}

ModelFileContents loadModelFile(const std::string& path) {
    Reader r(path);
    char head[sizeof magic];
    const std::size_t got = r.readRaw(head, sizeof head);
    if (got == 0) throw Error(path + " is empty, not a Skynnet model file");
    if (std::memcmp(head, magic, got) != 0) throw Error(path + " is not a Skynnet model file");
    if (got < sizeof magic) r.truncated();
    r.countMagic();

    // The version comes before the checksum: a newer format may lay out (or check) data otherwise.
    const auto version = r.integer<std::uint32_t>();
    if (version == 0) throw Error(path + " is damaged (format version 0)");
    if (version > modelFileFormatVersion)
        throw Error(path + " was written by a newer Skynnet (format " + std::to_string(version) +
                    ", this build reads up to " + std::to_string(modelFileFormatVersion) + ")");

    const auto headerSize = r.integer<std::uint64_t>();
    if (headerSize > r.available()) r.truncated();
    std::string header(std::size_t(headerSize), '\0');
    r.bytes(header.data(), header.size());

    ModelFileContents contents;
    const auto blockCount = r.integer<std::uint64_t>();
    if (blockCount > r.available() / sizeof(std::uint64_t)) r.truncated();  // each needs a count
    contents.blocks.reserve(std::size_t(std::min<std::uint64_t>(blockCount, 1024)));
    for (std::uint64_t b = 0; b < blockCount; ++b) {
        const auto count = r.integer<std::uint64_t>();
        if (count > r.available() / sizeof(float)) r.truncated();
        std::vector<float> block(static_cast<std::size_t>(count));
        r.bytes(block.data(), block.size() * sizeof(float));
        if constexpr (!littleEndianHost) {
            for (float& f : block) {
                const auto* p = reinterpret_cast<const unsigned char*>(&f);
                f = std::bit_cast<float>(fromLittleEndian<std::uint32_t>(p));
            }
        }
        contents.blocks.push_back(std::move(block));
    }

    unsigned char stored[4];
    if (r.readRaw(stored, sizeof stored) != sizeof stored) r.truncated();
    if (fromLittleEndian<std::uint32_t>(stored) != r.crc()) throw Error(path + " is damaged (checksum mismatch)");
    char extra;
    if (r.readRaw(&extra, 1) != 0) throw Error(path + " is damaged (unexpected data after the end)");

    // Parsed only now, so a damaged header is reported as damage rather than as a JSON error.
    contents.header = parseJson(header, path);
    contents.sourceName = path;
    return contents;
}

}  // namespace skynnet
