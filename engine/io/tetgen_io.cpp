#include "io/tetgen_io.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "io/asset_error.h"
#include "io/asset_file.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

// The non-blank, non-comment lines of a file as whitespace-separated tokens.
class TokenLines {
public:
    TokenLines(std::string_view text, const std::string& name) : text_(text), name_(name) {
        if (const auto nul = text.find('\0'); nul != std::string_view::npos)
            throw AssetError(fmt::format("{}: byte {} is NUL: not a text file", name, nul));
    }

    // The next line with tokens; false at the end of the file.
    bool next() {
        while (at_ < text_.size()) {
            std::size_t end = text_.find('\n', at_);
            if (end == std::string_view::npos) end = text_.size();
            std::string_view line = text_.substr(at_, end - at_);
            at_ = end + 1;
            ++lineNumber_;
            if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
            tokens_.clear();
            for (std::size_t i = 0; i < line.size();) {
                while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
                std::size_t j = i;
                while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
                if (j > i) tokens_.push_back(line.substr(i, j - i));
                i = j;
            }
            if (!tokens_.empty()) return true;
        }
        return false;
    }

    std::size_t count() const { return tokens_.size(); }
    uint32_t line() const { return lineNumber_; }

    [[noreturn]] void fail(std::string_view problem) const {
        throw AssetError(fmt::format("{}: line {}: {}", name_, lineNumber_, problem));
    }
    [[noreturn]] void failAtEnd(std::string_view problem) const {
        throw AssetError(fmt::format("{}: {}", name_, problem));
    }

    // Token k as an integer in [min, max]; `what` names it in messages.
    int64_t integer(std::size_t k, int64_t min, int64_t max, std::string_view what) const {
        const std::string token(tokens_.at(k));
        char* end = nullptr;
        errno = 0;
        const long long value = std::strtoll(token.c_str(), &end, 10);
        if (token.empty() || *end != '\0' || errno == ERANGE)
            fail(fmt::format("{} '{}' is not an integer", what, clip(token)));
        if (value < min || value > max)
            fail(min == max ? fmt::format("{} is {}; expected {}", what, value, min)
                            : fmt::format("{} is {}; expected {} to {}", what, value, min, max));
        return value;
    }

    double number(std::size_t k, std::string_view what) const {
        const std::string token(tokens_.at(k));
        char* end = nullptr;
        const double value = std::strtod(token.c_str(), &end);
        if (token.empty() || *end != '\0') fail(fmt::format("{} '{}' is not a number", what, clip(token)));
        if (!std::isfinite(value)) fail(fmt::format("{} '{}' is not finite", what, clip(token)));
        // Junk, and its cube (a volume) would overflow.
        if (std::abs(value) > 1e12) fail(fmt::format("{} '{}' is beyond +-1e+12", what, clip(token)));
        return value;
    }

private:
    // Quoted tokens stay short and printable in a one-line message.
    static std::string clip(std::string_view token) { return clipInput(token, 32); }

    std::string_view text_;
    const std::string& name_;
    std::size_t at_ = 0;
    uint32_t lineNumber_ = 0;
    std::vector<std::string_view> tokens_;
};

// A mesh needs far fewer than this; the bound keeps a garbage header from
// promising more elements than memory holds.
constexpr int64_t kMaxElements = int64_t(1) << 28;

struct NodeFile {
    std::vector<glm::dvec3> positions;
    int64_t firstIndex = 0;
};

NodeFile parseNodes(std::string_view text, const std::string& name) {
    TokenLines lines(text, name);
    if (!lines.next()) lines.failAtEnd("empty: expected the header '<points> 3 <attributes> <boundary markers>'");
    if (lines.count() < 2 || lines.count() > 4)
        lines.fail("expected the header '<points> 3 <attributes> <boundary markers>'");
    const int64_t points = lines.integer(0, 4, kMaxElements, "the number of points");
    lines.integer(1, 3, 3, "the dimension");
    const int64_t attributes = lines.count() > 2 ? lines.integer(2, 0, 1000, "the number of attributes") : 0;
    const int64_t markers = lines.count() > 3 ? lines.integer(3, 0, 1, "the boundary marker flag") : 0;
    const std::size_t fields = static_cast<std::size_t>(4 + attributes + markers);

    NodeFile nodes;
    for (int64_t p = 0; p < points; ++p) {
        if (!lines.next())
            lines.failAtEnd(fmt::format("the header promises {} points, the file ends after {}", points, p));
        if (lines.count() != fields)
            lines.fail(fmt::format("point {} has {} fields; expected {} (index, x, y, z{}{})", p, lines.count(),
                                   fields, attributes > 0 ? fmt::format(", {} attributes", attributes) : "",
                                   markers > 0 ? ", marker" : ""));
        const int64_t index = lines.integer(0, 0, std::numeric_limits<int64_t>::max(), "the point index");
        if (p == 0) {
            if (index > 1) lines.fail(fmt::format("the first point is numbered {}; expected 0 or 1", index));
            nodes.firstIndex = index;
        } else if (index != nodes.firstIndex + p) {
            lines.fail(fmt::format("point numbered {}; expected {} (points are numbered consecutively)", index,
                                   nodes.firstIndex + p));
        }
        const std::string what = fmt::format("point {}: coordinate", index);
        nodes.positions.emplace_back(lines.number(1, what), lines.number(2, what), lines.number(3, what));
    }
    if (lines.next()) lines.fail(fmt::format("more than the {} points the header promises", points));
    return nodes;
}

}  // namespace

TetMesh parseTetGen(std::string_view nodeText, const std::string& nodeName, std::string_view eleText,
                    const std::string& eleName) {
    const NodeFile nodes = parseNodes(nodeText, nodeName);
    const auto pointCount = static_cast<int64_t>(nodes.positions.size());

    TokenLines lines(eleText, eleName);
    if (!lines.next()) lines.failAtEnd("empty: expected the header '<tetrahedra> <4|10> <attributes>'");
    if (lines.count() < 2 || lines.count() > 3) lines.fail("expected the header '<tetrahedra> <4|10> <attributes>'");
    const int64_t tetCount = lines.integer(0, 1, kMaxElements, "the number of tetrahedra");
    const int64_t perTet = lines.integer(1, 4, 10, "the number of nodes per tetrahedron");
    if (perTet != 4 && perTet != 10) lines.fail(fmt::format("{} nodes per tetrahedron; expected 4 or 10", perTet));
    const int64_t attributes = lines.count() > 2 ? lines.integer(2, 0, 1000, "the number of attributes") : 0;
    const std::size_t fields = static_cast<std::size_t>(1 + perTet + attributes);

    TetMesh mesh;
    std::vector<uint32_t> lineOf;
    for (int64_t e = 0; e < tetCount; ++e) {
        if (!lines.next())
            lines.failAtEnd(fmt::format("the header promises {} tetrahedra, the file ends after {}", tetCount, e));
        if (lines.count() != fields)
            lines.fail(fmt::format("tetrahedron {} has {} fields; expected {} (index, {} nodes{})", e, lines.count(),
                                   fields, perTet, attributes > 0 ? fmt::format(", {} attributes", attributes) : ""));
        const int64_t index = lines.integer(0, 0, std::numeric_limits<int64_t>::max(), "the tetrahedron index");
        glm::uvec4 tet;
        for (int k = 0; k < 4; ++k) {
            const int64_t node = lines.integer(
                std::size_t(1 + k), std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), "node");
            if (node < nodes.firstIndex || node >= nodes.firstIndex + pointCount)
                lines.fail(fmt::format("tetrahedron {} uses node {}, but {} has points {} to {}", index, node,
                                       nodeName, nodes.firstIndex, nodes.firstIndex + pointCount - 1));
            tet[k] = static_cast<uint32_t>(node - nodes.firstIndex);
        }
        for (int k = 4; k < perTet; ++k)
            lines.integer(std::size_t(1 + k), std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max(), "node");
        const glm::dvec3 a = nodes.positions[tet.x], b = nodes.positions[tet.y], c = nodes.positions[tet.z],
                         d = nodes.positions[tet.w];
        double longest = 0.0;
        for (const glm::dvec3& edge : {b - a, c - a, d - a, c - b, d - b, d - c})
            longest = std::max(longest, glm::length(edge));
        const double volume = tetVolume(a, b, c, d);
        const auto first = nodes.firstIndex;
        if (!(std::abs(volume) > 1e-12 * longest * longest * longest))
            lines.fail(fmt::format("tetrahedron {} (nodes {}, {}, {}, {}) is degenerate (volume {:.3g})", index,
                                   tet.x + first, tet.y + first, tet.z + first, tet.w + first, volume));
        if (volume < 0.0)
            lines.fail(fmt::format("tetrahedron {} (nodes {}, {}, {}, {}) is inverted (volume {:.3g}; expected "
                                   "det[b-a, c-a, d-a] > 0)",
                                   index, tet.x + first, tet.y + first, tet.z + first, tet.w + first, volume));
        mesh.tets.push_back(tet);
    }
    if (lines.next()) lines.fail(fmt::format("more than the {} tetrahedra the header promises", tetCount));

    // Drop the points no tetrahedron uses; keep the others in order.
    std::vector<uint32_t> renumber(nodes.positions.size(), UINT32_MAX);
    for (const glm::uvec4& t : mesh.tets)
        for (int k = 0; k < 4; ++k) renumber[t[k]] = 0;
    for (std::size_t p = 0; p < renumber.size(); ++p)
        if (renumber[p] == 0) {
            renumber[p] = static_cast<uint32_t>(mesh.positions.size());
            mesh.positions.push_back(nodes.positions[p]);
        }
    for (glm::uvec4& t : mesh.tets)
        for (int k = 0; k < 4; ++k) t[k] = renumber[t[k]];
    try {
        mesh.surface = tetBoundary(mesh.positions, mesh.tets);
    } catch (const std::invalid_argument& error) {
        throw AssetError(fmt::format("{}: {}", eleName, error.what()));
    }
    return mesh;
}

TetMesh loadTetGen(const std::filesystem::path& nodeFile, const std::filesystem::path& eleFile) {
    const AssetFile node = readAssetFile(nodeFile);
    const AssetFile ele = readAssetFile(eleFile);
    return parseTetGen(node.bytes, clipInput(nodeFile.string()), ele.bytes, clipInput(eleFile.string()));
}

std::string formatTetGenNode(const TetMesh& mesh, std::string_view comment) {
    std::string text = fmt::format("# {}\n{} 3 0 0\n", comment, mesh.positions.size());
    for (std::size_t p = 0; p < mesh.positions.size(); ++p)
        text += fmt::format("{} {:.17g} {:.17g} {:.17g}\n", p, mesh.positions[p].x, mesh.positions[p].y,
                            mesh.positions[p].z);
    return text;
}

std::string formatTetGenEle(const TetMesh& mesh, std::string_view comment) {
    std::string text = fmt::format("# {}\n{} 4 0\n", comment, mesh.tets.size());
    for (std::size_t e = 0; e < mesh.tets.size(); ++e)
        text += fmt::format("{} {} {} {} {}\n", e, mesh.tets[e].x, mesh.tets[e].y, mesh.tets[e].z, mesh.tets[e].w);
    return text;
}

std::string describeTetMesh(const std::string& file, const TetMesh& mesh) {
    double total = 0.0, smallest = std::numeric_limits<double>::infinity(), largest = 0.0;
    for (const glm::uvec4& t : mesh.tets) {
        const double v = tetVolume(mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z], mesh.positions[t.w]);
        total += v;
        smallest = std::min(smallest, v);
        largest = std::max(largest, v);
    }
    return fmt::format("{}: {} points, {} tetrahedra, {} boundary triangles, volume {:.4g}, tetrahedron volumes "
                       "{:.3g} .. {:.3g}",
                       file, mesh.positions.size(), mesh.tets.size(), mesh.surface.size() / 3, total, smallest,
                       largest);
}

}  // namespace vksim
