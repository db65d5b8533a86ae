#include "io/cache_file.h"

#include "io/write_file.h"

namespace vksim {

std::optional<std::string> writeCacheFile(const std::filesystem::path& file, std::string_view bytes) {
    try {
        writeWholeFile(file, bytes);
    } catch (const WriteError& e) {
        return e.reason();
    }
    return std::nullopt;
}

}  // namespace vksim
