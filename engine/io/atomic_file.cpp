#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <system_error>

#include "core/error.h"

namespace skynnet {
namespace {

// Thread-safe, unlike strerror().
std::string reason(int err) { return std::generic_category().message(err); }

std::string directoryOf(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

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
    static std::atomic<unsigned> counter{0};
    const auto slash = target_.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : target_.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? target_ : target_.substr(slash + 1);
    int err = 0;
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
        temp_ = dir + "." + name + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        // 0666 lets the umask decide the permissions, as for any newly created file.
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        err = errno;
        if (fd_ < 0 && err != EEXIST) break;
    }
    if (fd_ < 0) {
        temp_.clear();
        throw Error("cannot save " + path_ + ": " + reason(err));
    }
    // Replacing a file keeps its permissions (a private model stays private).
    if (::stat(target_.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::fchmod(fd_, st.st_mode & 07777) != 0)
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
        const ssize_t n = ::write(fd_, p, size);
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
    if (::fsync(fd_) != 0) fail(errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail(errno);
    if (::rename(temp_.c_str(), target_.c_str()) != 0) fail(errno);
    temp_.clear();
    // Make the rename itself durable. Best effort: some file systems cannot sync a directory,
    // and the new file is already complete and in place.
    const int dirFd = ::open(directoryOf(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
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
