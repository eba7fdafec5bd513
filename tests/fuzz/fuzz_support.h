#pragma once
// Shared by the fuzz targets: the engine's readers take paths, so each input goes to a file first.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "io/checksum.h"

namespace skynnet::fuzz {

// Removes the files a process wrote when it exits normally (after a crash they stay, for a look).
struct TempFiles {
    std::set<std::string> paths;
    ~TempFiles() {
        for (const std::string& p : paths) std::remove(p.c_str());
    }
};

// One file per process and name, under $TMPDIR (libFuzzer's -jobs and -workers run several
// processes side by side), reused for every input.
inline std::string tempPath(const std::string& name) {
    static TempFiles files;
    const char* tmp = std::getenv("TMPDIR");
    const std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/skynnet-fuzz-" + std::to_string(getpid()) +
                             "-" + name;
    files.paths.insert(path);
    return path;
}

inline std::string writeInput(const std::string& name, std::string_view bytes) {
    const std::string path = tempPath(name);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
        std::perror(path.c_str());
        std::abort();  // the harness, not the engine, failed: stop rather than fuzz nothing
    }
    return path;
}

// An expected rejection. SKYNNET_FUZZ_VERBOSE=1 prints it, to see how far an input gets.
inline void rejected(const Error& e) {
    static const bool verbose = std::getenv("SKYNNET_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "rejected: %s\n", e.what());
}

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// The model container ends with a CRC-32 of everything before it. A mutated input almost never
// matches it, which would stop every input at "checksum mismatch": the targets rewrite the last
// four bytes so the fuzzer reaches the header and blocks behind it.
inline std::string withValidChecksum(std::string_view bytes) {
    std::string out(bytes);
    if (out.size() < 4) return out;
    const std::uint32_t crc = crc32(std::string_view(out).substr(0, out.size() - 4));
    for (int i = 0; i < 4; ++i) out[out.size() - 4 + std::size_t(i)] = char((crc >> (8 * i)) & 0xFF);
    return out;
}

// Splits an input holding two files at the first occurrence of `separator`: {first, second}; the
// second is empty when the separator is missing.
inline std::pair<std::string_view, std::string_view> splitAt(std::string_view bytes, std::string_view separator) {
    const std::size_t at = bytes.find(separator);
    if (at == std::string_view::npos) return {bytes, {}};
    return {bytes.substr(0, at), bytes.substr(at + separator.size())};
}

}  // namespace skynnet::fuzz
