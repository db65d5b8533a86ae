#pragma once
// Object names as parts of file names: scene names are free text ("Cloth 1",
// "flag/left"), file names must not hold separators or shell-hostile bytes.
#include <string>
#include <string_view>
#include <vector>

namespace vksim {

// Keeps ASCII letters, digits, '-', '_' and '.'; every other byte becomes
// '_'. A name that would be empty, "." or ".." becomes "object".
std::string sanitizeFileName(std::string_view name);

// sanitizeFileName() of each name; a result already taken by an earlier name
// gets "_<index>" appended (its index in `names`, counting up while that is
// taken too), so two objects never share a file. Compared case-insensitively,
// for file systems that are.
std::vector<std::string> uniqueFileStems(const std::vector<std::string>& names);

}  // namespace vksim
