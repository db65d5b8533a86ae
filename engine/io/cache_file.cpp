#include "io/cache_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <unistd.h>

namespace vksim {

std::optional<std::string> writeCacheFile(const std::filesystem::path& file, std::string_view bytes) {
    // The C calls below would stop at a NUL and write somewhere else (the
    // input the cache was made from, for one).
    if (file.native().find('\0') != std::string::npos) return std::string("the file name contains a NUL character");
    const std::filesystem::path temporary = file.string() + fmt::format(".tmp{}", ::getpid());
    {
        const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(temporary.c_str(), "wb"),
                                                                     &std::fclose);
        if (!stream) return std::string(std::strerror(errno));
        if (std::fwrite(bytes.data(), 1, bytes.size(), stream.get()) != bytes.size() ||
            std::fflush(stream.get()) != 0) {
            const std::string reason = std::strerror(errno);
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            return reason;
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, file, error);
    if (error) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return error.message();
    }
    return std::nullopt;
}

}  // namespace vksim
