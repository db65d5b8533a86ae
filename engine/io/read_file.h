#pragma once
// Reading a whole input file (scenes, meshes, caches): the one reader, so
// that every input gets the same checks. A directory or a device is refused
// before it is read; a FIFO is opened without blocking, so one that nobody
// writes to reads as empty at once instead of hanging in open() (a FIFO that
// is written to, as `vksim <(make_scene)` gives, reads as usual); and
// nothing larger than the caller's limit is slurped.
#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace vksim {

// What went wrong, without the file name: callers add it, with their own
// error type ("cannot open file: No such file or directory").
class FileReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string readWholeFile(const std::filesystem::path& file, std::size_t maxBytes);

}  // namespace vksim
