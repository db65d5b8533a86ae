#include "io/write_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace vksim {

void writeWholeFile(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    // stdio rather than iostreams: errno says why an open or write failed.
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file)
        throw std::runtime_error(fmt::format("{}: cannot open for writing: {}", path.string(), std::strerror(errno)));
    const size_t written = std::fwrite(bytes.data(), 1, bytes.size(), file);
    const int writeErrno = errno;
    const bool closed = std::fclose(file) == 0;
    if (written != bytes.size() || !closed)
        throw std::runtime_error(fmt::format("{}: write failed: {}", path.string(),
                                             std::strerror(written != bytes.size() ? writeErrno : errno)));
}

}  // namespace vksim
