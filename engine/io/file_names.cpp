#include "io/file_names.h"

#include <cctype>
#include <climits>
#include <set>

#include <unistd.h>

#include <fmt/format.h>

#include "io/quoted_input.h"

namespace vksim {
namespace {

std::string lowerCase(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

}  // namespace

std::string sanitizeFileName(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (char c : name) {
        const auto u = static_cast<unsigned char>(c);
        const bool keep = u < 0x80 && (std::isalnum(u) || c == '-' || c == '_' || c == '.');
        out.push_back(keep ? c : '_');
    }
    if (out.empty() || out == "." || out == "..") return "object";
    return out;
}

std::vector<std::string> uniqueFileStems(const std::vector<std::string>& names) {
    std::vector<std::string> stems;
    std::set<std::string> taken;
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string base = sanitizeFileName(names[i]);
        std::string stem = base;
        for (size_t suffix = i; taken.contains(lowerCase(stem)); ++suffix) stem = base + "_" + std::to_string(suffix);
        taken.insert(lowerCase(stem));
        stems.push_back(std::move(stem));
    }
    return stems;
}

std::size_t maxFileNameBytes(const std::filesystem::path& directory) {
    const long max = ::pathconf(directory.c_str(), _PC_NAME_MAX);
    return max > 0 ? static_cast<std::size_t>(max) : NAME_MAX;
}

std::string fileNameLengthProblem(const std::filesystem::path& directory, std::string_view fileName) {
    const std::size_t max = maxFileNameBytes(directory);
    if (fileName.size() <= max) return {};
    return fmt::format("it makes the file name {}, longer than the {} bytes a file name may have in {}",
                       quoteInput(fileName), max, quoteArgument(directory.string()));
}

}  // namespace vksim
