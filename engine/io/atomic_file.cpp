#include "io/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <utility>

#include "core/error.h"
#include "io/file_faults.h"

namespace skynnet {
namespace {

// Thread-safe, unlike strerror().
std::string reason(int err) { return std::generic_category().message(err); }

std::string directoryOf(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::atomic<SaveFaultHook> faultHook{nullptr};

// Runs a system call of a save, unless the test seam fails it first: then -1 with errno set, as
// the call itself would fail.
template <typename Call>
auto step(SaveStep s, int index, const std::string& target, Call call) -> decltype(call()) {
    if (const SaveFaultHook hook = faultHook.load(std::memory_order_relaxed)) {
        if (const int err = hook(s, index, target.c_str())) {
            errno = err;
            return -1;
        }
    }
    return call();
}

// Larger buffers go in several calls: nothing is lost, and each piece is a point where the seam
// can fail or stop a save, so a large file gives tests many distinct moments.
constexpr std::size_t defaultMaxWrite = std::size_t(1) << 20;
std::atomic<std::size_t> maxWrite{defaultMaxWrite};

const char tempMarker[] = ".tmp-";

// The pid in a temporary file's name ".<name>.tmp-<pid>-<n>", or 0 if `entry` is not one.
pid_t tempFileOwner(const std::string& entry) {
    const auto marker = entry.rfind(tempMarker);
    if (entry.size() < 2 || entry[0] != '.' || marker == std::string::npos || marker < 2) return 0;
    const std::string rest = entry.substr(marker + sizeof tempMarker - 1);
    const auto dash = rest.find('-');
    const auto isDigits = [](const std::string& s) {
        const auto digit = [](char c) { return c >= '0' && c <= '9'; };
        return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), digit);  // 9 digits fit a pid_t
    };
    if (dash == std::string::npos || !isDigits(rest.substr(0, dash)) || !isDigits(rest.substr(dash + 1))) return 0;
    return pid_t(std::stol(rest.substr(0, dash)));
}

bool processExists(pid_t pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

// Removes `dir`/`entry` if it is a temporary file nobody is writing. The lock guards a file whose
// writer lives in another pid namespace (a container sharing the folder), where its pid means
// nothing here.
void removeIfStale(const std::string& dir, const std::string& entry) {
    const pid_t owner = tempFileOwner(entry);
    if (owner <= 0 || processExists(owner)) return;
    const std::string path = dir + entry;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(path.c_str());
    ::close(fd);
}

// `dir` is empty or ends in '/'; `prefix` selects the entries considered ("" for all).
void removeStaleTemps(const std::string& dir, const std::string& prefix) {
    DIR* d = ::opendir(dir.empty() ? "." : dir.c_str());
    if (!d) return;
    while (const dirent* e = ::readdir(d)) {
        const std::string entry = e->d_name;
        if (entry.compare(0, prefix.size(), prefix) == 0) removeIfStale(dir, entry);
    }
    ::closedir(d);
}

std::atomic<unsigned> tempCounter{0};

// ".<name>.tmp-" of a path and its directory ("" or ending in '/').
std::pair<std::string, std::string> tempPrefixOf(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return {"", "." + path + tempMarker};
    return {path.substr(0, slash + 1), "." + path.substr(slash + 1) + tempMarker};
}

std::string nextTempName(const std::string& dir, const std::string& prefix) {
    return dir + prefix + std::to_string(::getpid()) + "-" + std::to_string(tempCounter++);
}

}  // namespace

std::string temporaryPathFor(const std::string& path) {
    const auto [dir, prefix] = tempPrefixOf(path);
    return nextTempName(dir, prefix);
}

const char* saveStepName(SaveStep s) {
    switch (s) {
    case SaveStep::CreateTemp: return "create the temporary file";
    case SaveStep::CopyPermissions: return "copy the permissions";
    case SaveStep::Write: return "write";
    case SaveStep::Sync: return "sync the file";
    case SaveStep::Close: return "close";
    case SaveStep::Rename: return "rename over the target";
    case SaveStep::OpenDirectory: return "open the directory";
    case SaveStep::SyncDirectory: return "sync the directory";
    }
    return "?";
}

void setSaveFaultHook(SaveFaultHook hook) { faultHook.store(hook, std::memory_order_relaxed); }

void setSaveWritePieceBytes(std::size_t bytes) {
    maxWrite.store(bytes > 0 ? bytes : defaultMaxWrite, std::memory_order_relaxed);
}

void removeStaleTempFiles(const std::string& directory) {
    if (directory.empty()) return;
    removeStaleTemps(directory.back() == '/' ? directory : directory + "/", "");
}

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path), target_(path) {
    if (path.empty()) throw Error("cannot save: no file name given");
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        if (char* real = ::realpath(path.c_str(), nullptr)) {
            target_ = real;
            std::free(real);
        }
    }
    // A hidden name next to the target: rename() is only atomic within one file system.
    const auto [dir, prefix] = tempPrefixOf(target_);
    removeStaleTemps(dir, prefix);  // what earlier saves of this file, killed half-way, left
    int err = 0;
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
        temp_ = nextTempName(dir, prefix);
        // 0666 lets the umask decide the permissions, as for any newly created file.
        fd_ = step(SaveStep::CreateTemp, 0, target_,
                   [&] { return ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666); });
        err = errno;
        if (fd_ < 0 && err != EEXIST) break;
    }
    if (fd_ < 0) {
        temp_.clear();
        throw Error("cannot save " + path_ + ": " + reason(err));
    }
    // Marks the file as in use for removeStaleTemps in other pid namespaces; where locks are not
    // supported, the pid alone must do.
    (void)::flock(fd_, LOCK_EX | LOCK_NB);
    // Replacing a file keeps its permissions (a private model stays private).
    if (::stat(target_.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        step(SaveStep::CopyPermissions, 0, target_, [&] { return ::fchmod(fd_, st.st_mode & 07777); }) != 0)
        fail(errno);
}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

void AtomicFileWriter::discard() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!temp_.empty()) ::unlink(temp_.c_str());
    temp_.clear();
}

void AtomicFileWriter::fail(int err) {
    discard();
    throw Error("cannot save " + path_ + ": " + reason(err));
}

void AtomicFileWriter::write(const void* data, std::size_t size) {
    if (fd_ < 0) throw Error("cannot save " + path_ + ": the file is already closed");
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = step(SaveStep::Write, writes_++, target_, [&] {
            return ::write(fd_, p, std::min(size, maxWrite.load(std::memory_order_relaxed)));
        });
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(errno);
        }
        p += n;
        size -= std::size_t(n);
    }
}

void AtomicFileWriter::commit() {
    if (fd_ < 0) throw Error("cannot save " + path_ + ": the file is already closed");
    // The data must be on disk before the rename, or a crash could leave an empty file in place.
    if (step(SaveStep::Sync, 0, target_, [&] { return ::fsync(fd_); }) != 0) fail(errno);
    // Even a failed close() releases the descriptor (Linux), so it is never closed twice; an
    // injected failure leaves it for fail() to close.
    const int fd = fd_;
    if (step(SaveStep::Close, 0, target_, [&] {
            fd_ = -1;
            return ::close(fd);
        }) != 0)
        fail(errno);
    if (step(SaveStep::Rename, 0, target_, [&] { return ::rename(temp_.c_str(), target_.c_str()); }) != 0) fail(errno);
    temp_.clear();
    // Makes the rename itself durable. Best effort, never an error: the new file is complete and
    // in place, and reading it now gives the new content. What a failure here risks is only that
    // a power cut soon after brings back the old file, also whole; reporting "cannot save" for a
    // file that was saved would be false, and some file systems cannot sync a directory at all.
    const std::string dir = directoryOf(target_);
    const int dirFd = step(SaveStep::OpenDirectory, 0, target_,
                           [&] { return ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); });
    if (dirFd >= 0) {
        (void)step(SaveStep::SyncDirectory, 0, target_, [&] { return ::fsync(dirFd); });
        ::close(dirFd);
    }
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    AtomicFileWriter w(path);
    w.write(bytes);
    w.commit();
}

InputFile::InputFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
        const int err = errno;
        if (err == ENOENT) throw Error(path + " does not exist");
        throw Error("cannot read " + path + ": " + reason(err));
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const int err = errno;
        ::close(fd_);
        throw Error("cannot read " + path + ": " + reason(err));
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd_);
        throw Error(path + " is a directory, not a file");
    }
    if (S_ISREG(st.st_mode)) size_ = std::uint64_t(st.st_size);
}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::size_t InputFile::read(void* data, std::size_t size) {
    char* p = static_cast<char*>(data);
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd_, p + done, size - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw Error("cannot read " + path_ + ": " + reason(errno));
        }
        if (n == 0) break;
        done += std::size_t(n);
    }
    return done;
}

std::string readFile(const std::string& path) {
    InputFile f(path);
    std::string bytes;
    // The size is only a hint: the file may grow meanwhile, and pipes report none.
    bytes.resize(std::size_t(f.size()) + 1);
    std::size_t used = 0;
    while (true) {
        used += f.read(bytes.data() + used, bytes.size() - used);
        if (used < bytes.size()) break;
        bytes.resize(bytes.size() * 2);
    }
    bytes.resize(used);
    return bytes;
}

}  // namespace skynnet
