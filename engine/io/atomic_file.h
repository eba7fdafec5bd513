#pragma once
// File I/O with clear errors. Saving goes through a temporary file in the target's directory that
// is flushed to disk and then renamed over the target, so a failed or killed save never leaves a
// half-written file: readers see either the old content or the new, whole.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace skynnet {

// Writes a file in pieces, atomically. Nothing replaces the target until commit(); destroying the
// writer without commit() (an exception on the way) removes the temporary file. Every failure
// throws Error("cannot save <path>: <reason>") and leaves the target as it was.
class AtomicFileWriter {
public:
    explicit AtomicFileWriter(const std::string& path);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    void write(const void* data, std::size_t size);
    void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
    void commit();

private:
    [[noreturn]] void fail(int err);
    void discard() noexcept;

    std::string path_;    // as given, for messages
    std::string target_;  // the file replaced (a symlink's destination, so the link survives)
    std::string temp_;
    int fd_ = -1;
};

void writeFileAtomically(const std::string& path, std::string_view bytes);

// A file opened for reading. Errors: "<path> does not exist", "<path> is a directory, not a
// file", "cannot read <path>: <reason>".
class InputFile {
public:
    explicit InputFile(const std::string& path);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    const std::string& path() const { return path_; }
    std::uint64_t size() const { return size_; }  // at opening; 0 for pipes and devices
    // Reads up to size bytes and returns how many were read: fewer only at the end of the file.
    std::size_t read(void* data, std::size_t size);

private:
    std::string path_;
    std::uint64_t size_ = 0;
    int fd_ = -1;
};

std::string readFile(const std::string& path);

}  // namespace skynnet
