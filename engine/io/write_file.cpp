#include "io/write_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "io/temporary_files.h"

namespace vksim {
namespace {

// A NUL in a message would cut the line short; show it as \0. A long path
// is shown in brief (io/quoted_input.h).
std::string printable(const std::filesystem::path& path) {
    std::string text = path.string();
    for (size_t at = text.find('\0'); at != std::string::npos; at = text.find('\0', at + 2)) text.replace(at, 1, "\\0");
    return clipInput(text);
}

// Unique within the process (several files of one frame) and across
// processes (tests running side by side in one folder).
std::filesystem::path temporaryName(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    return target.string() + fmt::format(".tmp{}-{}", ::getpid(), counter++);
}

}  // namespace

WriteError::WriteError(const std::filesystem::path& path, const std::string& reason)
    : std::runtime_error(fmt::format("cannot write {}: {}", printable(path), reason)), reason_(reason) {}

OutputFile::OutputFile(std::filesystem::path target) : target_(std::move(target)) {
    // The C calls below would stop at a NUL and write somewhere else: onto the
    // input a cache was made from, for one.
    if (target_.native().find('\0') != std::string::npos)
        throw WriteError(target_, "the file name contains a NUL character");
    struct stat info {};
    if (::stat(target_.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
        // A device, FIFO or directory: written in place (see write_file.h); a
        // directory fails here with "Is a directory".
        file_ = std::fopen(target_.c_str(), "wb");
        if (!file_) throw WriteError(target_, std::strerror(errno));
        return;
    }
    final_ = target_;
    std::error_code ignored;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(target_, ignored))) {
        // Replace the file the link names and keep the link; one that cannot
        // be resolved (a loop) is itself replaced.
        std::filesystem::path resolved = std::filesystem::weakly_canonical(target_, ignored);
        if (!resolved.empty()) final_ = std::move(resolved);
    }
    temporary_ = temporaryName(final_);
    const int fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw WriteError(target_, std::strerror(errno));
    registered_ = registerTemporaryFile(temporary_.c_str());
    // A replaced file keeps its permissions.
    if (::stat(final_.c_str(), &info) == 0) (void)::fchmod(fd, info.st_mode & 07777);
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
        const int error = errno;
        ::close(fd);
        discard();
        throw WriteError(target_, std::strerror(error));
    }
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::write(std::string_view bytes) { write(std::as_bytes(std::span(bytes.data(), bytes.size()))); }

void OutputFile::write(std::span<const std::byte> bytes) {
    if (!file_ || error_ != 0 || bytes.empty()) return;
    errno = 0;
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) error_ = errno != 0 ? errno : EIO;
}

void OutputFile::commit() {
    if (!file_) throw WriteError(target_, "already closed");
    if (error_ == 0 && std::fflush(file_) != 0) error_ = errno;
    if (error_ == 0 && std::ferror(file_)) error_ = EIO;
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (error_ == 0 && closed != 0) error_ = errno;
    if (error_ == 0 && !temporary_.empty() && ::rename(temporary_.c_str(), final_.c_str()) != 0) error_ = errno;
    if (error_ != 0) {
        const int error = error_;
        discard();
        throw WriteError(target_, std::strerror(error));
    }
    temporary_.clear();  // it is the target now
    unregisterTemporaryFile(registered_);
    registered_ = -1;
}

void OutputFile::discard() noexcept {
    if (file_) std::fclose(file_);
    file_ = nullptr;
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
    temporary_.clear();
    unregisterTemporaryFile(registered_);
    registered_ = -1;
}

void writeWholeFile(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    OutputFile file(path);
    file.write(bytes);
    file.commit();
}

void writeWholeFile(const std::filesystem::path& path, std::string_view bytes) {
    writeWholeFile(path, std::as_bytes(std::span(bytes.data(), bytes.size())));
}

}  // namespace vksim
