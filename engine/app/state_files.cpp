#include "app/state_files.h"

#include <stdexcept>

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "io/read_file.h"
#include "io/write_file.h"
#include "world/world.h"

namespace vksim {

void loadStateFile(World& world, const std::string& path) {
    std::string bytes;
    try {
        bytes = readWholeFile(path, world.stateBytesBound());
    } catch (const FileReadError& e) {
        throw std::invalid_argument(fmt::format("{}: {} (--load-state)", clipInput(path), e.what()));
    }
    world.loadState(bytes, clipInput(path));
}

void saveStateFile(const World& world, const std::string& path) { writeWholeFile(path, world.saveState()); }

}  // namespace vksim
