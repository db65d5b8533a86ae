#include "io/asset_file.h"

#include <chrono>

#include <fmt/format.h>

#include "io/asset_error.h"
#include "io/fnv1a.h"
#include "io/quoted_input.h"
#include "io/read_file.h"

namespace vksim {

AssetFile readAssetFile(const std::filesystem::path& file) {
    AssetFile result;
    try {
        result.bytes = readWholeFile(file, kMaxAssetFileBytes);
    } catch (const FileReadError& error) {
        throw AssetError(fmt::format("{}: {}", clipInput(file.string()), error.what()));
    }
    std::error_code error;
    result.fingerprint.size = result.bytes.size();
    result.fingerprint.hash = fnv1a64(result.bytes);
    const auto modified = std::filesystem::last_write_time(file, error);
    if (!error)
        result.fingerprint.modifiedNs =
            std::chrono::duration_cast<std::chrono::nanoseconds>(modified.time_since_epoch()).count();
    return result;
}

}  // namespace vksim
