#include "io/checksum.h"

#include <zlib.h>

#include <algorithm>

namespace skynnet {

void Crc32::update(const void* data, std::size_t size) {
    // zlib takes 32-bit lengths, so feed very large buffers in slices.
    const auto* p = static_cast<const Bytef*>(data);
    while (size > 0) {
        const std::size_t n = std::min<std::size_t>(size, std::size_t(1) << 30);
        crc_ = std::uint32_t(::crc32(uLong(crc_), p, uInt(n)));
        p += n;
        size -= n;
    }
}

std::uint32_t crc32(std::string_view bytes) {
    Crc32 c;
    c.update(bytes);
    return c.value();
}

}  // namespace skynnet
