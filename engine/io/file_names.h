#pragma once
// Object names as parts of file names: scene names are free text ("Cloth 1",
// "flag/left"), file names must not hold separators or shell-hostile bytes.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace vksim {

// Keeps ASCII letters, digits, '-', '_' and '.'; every other byte becomes
// '_'. A name that would be empty, "." or ".." becomes "object".
std::string sanitizeFileName(std::string_view name);

// The extension of `path`, dot included (".csv"), "" when it has none: what
// an output option's writer picks its format by.
inline std::string fileExtension(const std::string& path) { return std::filesystem::path(path).extension().string(); }

// sanitizeFileName() of each name; a result already taken by an earlier name
// gets "_<index>" appended (its index in `names`, counting up while that is
// taken too), so two objects never share a file. Compared case-insensitively,
// for file systems that are.
std::vector<std::string> uniqueFileStems(const std::vector<std::string>& names);

// The longest file name `directory` takes, in bytes: pathconf(3)'s
// _PC_NAME_MAX for it (255 on ext4, tmpfs, btrfs), NAME_MAX where it says
// nothing. `directory` must exist.
std::size_t maxFileNameBytes(const std::filesystem::path& directory);

// "" when a file `fileName` can be made in `directory`, else why not, for a
// message that starts with what named it ("scenes/x.json: /objects/3/name:
// "): "it makes the file name "aaaa…aaaa_00000.obj" (312 bytes), longer
// than the 255 bytes a file name may have in 'out'". Whoever names files after
// objects checks the longest one before the first is written: a long name
// is otherwise a "File name too long" in the middle of a run.
std::string fileNameLengthProblem(const std::filesystem::path& directory, std::string_view fileName);

}  // namespace vksim
