#pragma once
// CRC-32 (the zlib / PNG polynomial) to detect damaged files. Not a defence against tampering.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace skynnet {

// Running CRC-32 over data that arrives in pieces.
class Crc32 {
public:
    void update(const void* data, std::size_t size);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
    std::uint32_t value() const { return crc_; }

private:
    std::uint32_t crc_ = 0;
};

std::uint32_t crc32(std::string_view bytes);

}  // namespace skynnet
