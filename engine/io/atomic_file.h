#pragma once
// File I/O with clear errors. Saving goes through a temporary file in the target's directory that
// is flushed to disk and then renamed over the target, so a failed or killed save never leaves a
// half-written file: readers see either the old content or the new, whole. Temporary files are
// named ".<name>.tmp-<pid>-<n>"; one left by a killed save is removed by the next save of that
// file (or by removeStaleTempFiles), once its process is gone.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace skynnet {

// Writes a file in pieces, atomically. Nothing replaces the target until commit(); destroying the
// writer without commit() (an exception on the way) removes the temporary file. Every failure
// throws Error("cannot save <path>: <reason>") and leaves the target as it was, byte for byte.
// The one exception is the last step: once the rename is done the new file is complete and in
// place, so a directory that cannot be synced is not an error (see commit()).
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
    int writes_ = 0;  // write calls so far, for the test seam (io/file_faults.h)
};

void writeFileAtomically(const std::string& path, std::string_view bytes);

// A fresh name for a temporary file beside `path` (a hidden ".<name>.tmp-<pid>-<n>"), for a file
// that must be cleaned up like the writer's own if the process is killed.
std::string temporaryPathFor(const std::string& path);

// Removes the temporary files in `directory` that saves killed before their rename left behind:
// those whose process no longer exists and that no process holds locked (a save locks its own). For a
// folder the app owns (the recovery folder), at the start; elsewhere each save cleans up after
// earlier saves of its own file. Best effort: never throws.
void removeStaleTempFiles(const std::string& directory);

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
