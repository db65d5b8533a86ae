#pragma once
// --load-state and --save-state: a world's state (World::saveState) in a
// file, read before the first frame and written after the last.
#include <string>

namespace vksim {

class World;

// Restores the state saved in `path` into `world` (its frames then continue
// from the state's frame). Throws std::invalid_argument, one line naming the
// file: unreadable, larger than any state of this world, or refused by
// World::loadState.
void loadStateFile(World& world, const std::string& path);

// Writes world.saveState() to `path` (write_file.h: all or nothing); throws
// WriteError naming the file.
void saveStateFile(const World& world, const std::string& path);

}  // namespace vksim
