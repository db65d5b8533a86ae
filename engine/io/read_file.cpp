#include "io/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace vksim {
namespace {

[[noreturn]] void fail(const std::string& problem) { throw FileReadError(problem); }

// Closes on scope exit.
struct Descriptor {
    int fd = -1;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::string readWholeFile(const std::filesystem::path& file, std::size_t maxBytes) {
    // O_NONBLOCK: open() of a FIFO without a writer would otherwise wait
    // for one forever. Cleared again below, so that reads wait for data.
    Descriptor in{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (in.fd < 0) fail(fmt::format("cannot open file: {}", std::strerror(errno)));
    struct stat info {};
    if (::fstat(in.fd, &info) != 0) fail(fmt::format("cannot open file: {}", std::strerror(errno)));
    if (S_ISDIR(info.st_mode)) fail(fmt::format("cannot open file: {}", std::strerror(EISDIR)));
    if (!S_ISREG(info.st_mode) && !S_ISFIFO(info.st_mode))
        fail("cannot open file: not a regular file (a device or a socket)");
    const int flags = ::fcntl(in.fd, F_GETFL);
    if (flags < 0 || ::fcntl(in.fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        fail(fmt::format("cannot open file: {}", std::strerror(errno)));

    std::string bytes;
    if (S_ISREG(info.st_mode)) {
        if (static_cast<std::size_t>(info.st_size) > maxBytes)
            fail(fmt::format("file is larger than {} MiB", maxBytes >> 20));
        bytes.reserve(static_cast<std::size_t>(info.st_size));
    }
    char buffer[1 << 16];
    for (;;) {
        const ssize_t got = ::read(in.fd, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) continue;
            fail(fmt::format("cannot read file: {}", std::strerror(errno)));
        }
        if (got == 0) break;
        bytes.append(buffer, static_cast<std::size_t>(got));
        if (bytes.size() > maxBytes) fail(fmt::format("file is larger than {} MiB", maxBytes >> 20));
    }
    return bytes;
}

}  // namespace vksim
