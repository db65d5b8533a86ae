#include "io/obj_loader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <tiny_obj_loader.h>

#include "io/asset_error.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

// One `f` line: where it is and its vertex indices, resolved to 0-based.
struct FaceLine {
    uint32_t line;
    std::vector<uint32_t> vertices;
};

// What the line scan finds: the line of every vertex and every face, in the
// order tinyobjloader will return them.
struct ObjLineIndex {
    std::vector<uint32_t> vertexLines;
    std::vector<FaceLine> faces;
};

// Coordinates beyond this are junk (and their squares would overflow the
// area and volume computations long before a float could hold them).
constexpr double kMaxCoordinate = 1e12;

class ObjScanner {
public:
    ObjScanner(std::string_view text, const std::string& source) : text_(text), source_(source) {}

    ObjLineIndex scan() {
        if (const auto nul = text_.find('\0'); nul != std::string_view::npos)
            fail(fmt::format("byte {} is NUL: not a text OBJ file", nul));
        // Lines end at "\n", "\r\n" or a lone "\r", as tinyobjloader splits them.
        uint32_t line = 0;
        for (std::size_t start = 0; start < text_.size();) {
            std::size_t end = text_.find_first_of("\r\n", start);
            if (end == std::string_view::npos) end = text_.size();
            ++line;
            scanLine(text_.substr(start, end - start), line);
            start = end;
            if (start < text_.size() && text_[start] == '\r') ++start;
            if (start < text_.size() && text_[start] == '\n') ++start;
        }
        resolveFaces();
        return std::move(index_);
    }

private:
    [[noreturn]] void fail(std::string_view problem) const {
        throw AssetError(fmt::format("{}: {}", source_, problem));
    }
    [[noreturn]] void fail(uint32_t line, std::string_view problem) const {
        throw AssetError(fmt::format("{}: line {}: {}", source_, line, problem));
    }

    static std::vector<std::string_view> tokens(std::string_view rest) {
        std::vector<std::string_view> result;
        std::size_t i = 0;
        while (i < rest.size()) {
            while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
            std::size_t end = i;
            while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t') ++end;
            if (end > i) result.push_back(rest.substr(i, end - i));
            i = end;
        }
        return result;
    }

    // A token as both tinyobjloader and strtod read it the same way:
    // [+-] digits [. digits] [e [+-] digits], with digits on at least one
    // side of the point. (strtod alone would also take "nan", "inf" and hex
    // floats, which tinyobjloader reads as 0.)
    static bool isDecimalNumber(std::string_view s) {
        std::size_t i = 0;
        auto digits = [&] {
            std::size_t from = i;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
            return i - from;
        };
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        std::size_t mantissa = digits();
        if (i < s.size() && s[i] == '.') {
            ++i;
            mantissa += digits();
        }
        if (mantissa == 0) return false;
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
            ++i;
            if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
            if (digits() == 0) return false;
        }
        return i == s.size();
    }

    static bool isInteger(std::string_view s) {
        std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
        if (i == s.size()) return false;
        for (; i < s.size(); ++i)
            if (s[i] < '0' || s[i] > '9') return false;
        return true;
    }

    // v, v/vt, v//vn or v/vt/vn with non-zero integers. Texture and normal
    // indices are ignored, but tinyobjloader parses them, so they must be
    // well formed.
    static bool isVertexReference(std::string_view corner) {
        std::vector<std::string_view> parts;
        for (std::size_t from = 0;;) {
            const std::size_t slash = corner.find('/', from);
            parts.push_back(corner.substr(from, slash == std::string_view::npos ? slash : slash - from));
            if (slash == std::string_view::npos) break;
            from = slash + 1;
        }
        auto nonZero = [](std::string_view s) {
            return isInteger(s) && s.find_first_not_of("+-0") != std::string_view::npos;
        };
        if (parts.size() > 3 || !nonZero(parts[0])) return false;
        if (parts.size() == 2) return nonZero(parts[1]);
        if (parts.size() == 3) return (parts[1].empty() || nonZero(parts[1])) && nonZero(parts[2]);
        return true;
    }

    void scanLine(std::string_view text, uint32_t line) {
        std::size_t first = text.find_first_not_of(" \t");
        if (first == std::string_view::npos) return;
        text.remove_prefix(first);
        // "v" or "f" alone on its line is an element with nothing in it, which
        // tinyobjloader would drop without a word: scan it, to be refused.
        const bool keywordAlone = text.size() == 1;
        if (!keywordAlone && text[1] != ' ' && text[1] != '\t') return;  // not "v " or "f "
        const std::string_view rest = keywordAlone ? std::string_view() : text.substr(2);
        if (text[0] == 'v') scanVertex(rest, line);
        else if (text[0] == 'f') scanFace(rest, line);
    }

    void scanVertex(std::string_view rest, uint32_t line) {
        const auto vertex = index_.vertexLines.size() + 1;
        const std::vector<std::string_view> values = tokens(rest);
        if (values.size() < 3)
            fail(line, fmt::format("vertex {} has {} coordinate{}; expected x y z", vertex, values.size(),
                                   values.size() == 1 ? "" : "s"));
        for (std::string_view value : values) {
            if (!isDecimalNumber(value))
                fail(line, fmt::format("vertex {}: '{}' is not a decimal number", vertex, clip(value)));
            // Numbers beyond the double range (1e999) come back as infinity;
            // beyond kMaxCoordinate they are no simulation mesh either.
            const double number = std::strtod(std::string(value).c_str(), nullptr);
            if (!std::isfinite(number))
                fail(line, fmt::format("vertex {}: '{}' is not a finite number", vertex, clip(value)));
            if (std::abs(number) > kMaxCoordinate)
                fail(line, fmt::format("vertex {}: '{}' is beyond +-{:g}", vertex, clip(value), kMaxCoordinate));
        }
        index_.vertexLines.push_back(line);
    }

    // Indices are checked now against the vertices so far (relative ones) and
    // later against all of them (absolute ones, which may point forward).
    void scanFace(std::string_view rest, uint32_t line) {
        const auto face = index_.faces.size() + 1;
        const std::vector<std::string_view> corners = tokens(rest);
        if (corners.size() < 3)
            fail(line, fmt::format("face {} has {} {}; a face needs at least 3", face, corners.size(),
                                   corners.size() == 1 ? "vertex" : "vertices"));
        // tinyobjloader counts a face's vertices in a byte.
        if (corners.size() > 255)
            fail(line, fmt::format("face {} has {} vertices; at most 255 are supported", face, corners.size()));
        FaceLine result{line, {}};
        for (std::string_view corner : corners) {
            const std::string_view vertexPart = corner.substr(0, corner.find('/'));
            errno = 0;
            const long long index = std::strtoll(std::string(vertexPart).c_str(), nullptr, 10);
            if (isInteger(vertexPart) && index == 0)
                fail(line, fmt::format("face {} uses vertex index 0; OBJ indices start at 1", face));
            if (!isVertexReference(corner))
                fail(line, fmt::format("face {}: '{}' is not a vertex reference (v, v/vt, v//vn or v/vt/vn)", face,
                                       clip(corner)));
            const auto known = static_cast<long long>(index_.vertexLines.size());
            if (index < 0 && known + index < 0)
                fail(line, fmt::format("face {} uses relative vertex index {}, but only {} vertices precede it", face,
                                       index, known));
            if (index > std::numeric_limits<int>::max() || errno == ERANGE)
                fail(line, fmt::format("face {} uses vertex {}, which is out of range", face, clip(vertexPart)));
            // Absolute indices are 1-based; resolved later when the count is known.
            result.vertices.push_back(index > 0 ? static_cast<uint32_t>(index - 1)
                                                : static_cast<uint32_t>(known + index));
        }
        index_.faces.push_back(std::move(result));
    }

    void resolveFaces() const {
        const std::size_t count = index_.vertexLines.size();
        for (std::size_t f = 0; f < index_.faces.size(); ++f)
            for (uint32_t v : index_.faces[f].vertices)
                if (v >= count)
                    fail(index_.faces[f].line, fmt::format("face {} uses vertex {}, but the file has {} vertices",
                                                           f + 1, v + 1, count));
    }

    // Quoted tokens stay short and printable in a one-line message.
    static std::string clip(std::string_view token) { return clipInput(token, 32); }

    std::string_view text_;
    const std::string& source_;
    ObjLineIndex index_;
};

// Why the fan (0, k, k+1) around a polygon's first corner would not be a
// triangulation of it, or "" when it is. Against the polygon's Newell normal
// n (its area vector), every fan triangle must turn the same way as the
// polygon (positive area along n) and their angles at the first corner must
// add up to less than a full turn: then the triangles are disjoint sectors
// around that corner and cover the polygon exactly. That holds for every
// convex polygon, and for non-convex ones seen whole from their first
// corner (star-shaped from it); any other polygon would fold over itself.
// A fan triangle of zero area is left to the degenerate-triangle check.
//
// Why not tinyobjloader's triangulation: Debian 12 ships 2.0.0rc10, which
// splits every quad along its shorter diagonal whatever its shape (wrong for
// a concave quad whose inner diagonal is the longer one), and clips ears of larger polygons with a
// convexity test that compares a corner's turn with the sign of the area of
// the triangle (origin, v0, v1), which depends on where the polygon lies, not
// on its orientation; its robust path needs mapbox's earcut.hpp, which Debian
// does not package. Refusing a fan that folds is simpler and never wrong.
std::string fanProblem(const std::vector<glm::dvec3>& positions, const std::vector<uint32_t>& corners) {
    const std::size_t n = corners.size();
    glm::dvec3 normal(0.0);
    double diameter2 = 0.0;
    const glm::dvec3 origin = positions[corners[0]];
    for (std::size_t k = 0; k < n; ++k) {
        const glm::dvec3 a = positions[corners[k]] - origin, b = positions[corners[(k + 1) % n]] - origin;
        normal += glm::cross(a, b);
        diameter2 = std::max(diameter2, glm::dot(a, a));
    }
    if (!(glm::length(normal) > 1e-12 * diameter2)) return "has no area (its edges cross or it is flat)";
    normal = glm::normalize(normal);
    double angle = 0.0;
    for (std::size_t k = 1; k + 1 < n; ++k) {
        const glm::dvec3 a = positions[corners[k]] - origin, b = positions[corners[k + 1]] - origin;
        const double turn = glm::dot(glm::cross(a, b), normal);
        if (turn < -1e-12 * glm::length(a) * glm::length(b))
            return fmt::format("is not convex, and its fan around vertex {} folds over: the triangle of vertices {}, "
                               "{}, {} is turned the other way",
                               corners[0] + 1, corners[0] + 1, corners[k] + 1, corners[k + 1] + 1);
        angle += std::atan2(turn, glm::dot(a, b));
    }
    constexpr double kFullTurn = 6.283185307179586;
    if (angle >= kFullTurn * (1.0 - 1e-9))
        return fmt::format("winds around vertex {} more than once ({:.0f} degrees)", corners[0] + 1,
                           angle * 360.0 / kFullTurn);
    return {};
}

}  // namespace

ObjMesh parseObj(std::string_view text, const std::string& sourceName) {
    const ObjLineIndex lines = ObjScanner(text, sourceName).scan();
    auto fail = [&](std::string_view problem) { throw AssetError(fmt::format("{}: {}", sourceName, problem)); };

    // tinyobjloader reads the numbers (its parser, its rounding). No material
    // reader: .mtl files are never opened. No triangulation: faces keep their
    // polygons, so each triangle can be traced to its line.
    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warnings, errors;
    std::istringstream stream{std::string(text)};
    if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warnings, &errors, &stream, nullptr, false, false)) {
        std::string first = errors.substr(0, errors.find('\n'));
        fail(fmt::format("tinyobjloader: {}", first.empty() ? "cannot parse the file" : first));
    }

    ObjMesh mesh;
    mesh.vertexLines = lines.vertexLines;
    if (attrib.vertices.size() != 3 * lines.vertexLines.size())
        fail(fmt::format("tinyobjloader read {} vertices, the file has {} `v` lines", attrib.vertices.size() / 3,
                         lines.vertexLines.size()));
    for (std::size_t v = 0; v < lines.vertexLines.size(); ++v) {
        const glm::dvec3 p(attrib.vertices[3 * v], attrib.vertices[3 * v + 1], attrib.vertices[3 * v + 2]);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            fail(fmt::format("line {}: vertex {} is not finite", lines.vertexLines[v], v + 1));
        mesh.positions.push_back(p);
    }

    // tinyobjloader's faces, shape after shape, are the `f` lines in order;
    // the scan resolved the same indices, so they must agree.
    std::size_t face = 0;
    for (const tinyobj::shape_t& shape : shapes) {
        std::size_t corner = 0;
        for (unsigned char count : shape.mesh.num_face_vertices) {
            if (face >= lines.faces.size() || lines.faces[face].vertices.size() != count)
                fail(fmt::format("tinyobjloader disagrees with the line scan at face {}", face + 1));
            const std::vector<uint32_t>& expected = lines.faces[face].vertices;
            for (std::size_t k = 0; k < count; ++k)
                if (shape.mesh.indices[corner + k].vertex_index != static_cast<int>(expected[k]))
                    fail(fmt::format("line {}: tinyobjloader read a different index for face {}",
                                     lines.faces[face].line, face + 1));
            if (count > 3)
                if (const std::string problem = fanProblem(mesh.positions, expected); !problem.empty())
                    fail(fmt::format("line {}: face {} {}; split it into triangles or convex polygons",
                                     lines.faces[face].line, face + 1, problem));
            for (std::size_t k = 1; k + 1 < count; ++k) {
                mesh.triangles.insert(mesh.triangles.end(), {expected[0], expected[k], expected[k + 1]});
                mesh.triangleFaces.push_back(static_cast<uint32_t>(face));
            }
            mesh.faceLines.push_back(lines.faces[face].line);
            corner += count;
            ++face;
        }
    }
    if (face != lines.faces.size())
        fail(fmt::format("tinyobjloader read {} faces, the file has {} `f` lines", face, lines.faces.size()));
    if (mesh.triangles.empty()) fail(lines.vertexLines.empty() ? "no vertices and no faces: not an OBJ mesh"
                                                               : "no faces (`f` lines): not a surface mesh");
    return mesh;
}

ObjMesh loadObj(const std::filesystem::path& file) {
    AssetFile contents = readAssetFile(file);
    ObjMesh mesh = parseObj(contents.bytes, clipInput(file.string()));
    mesh.source = contents.fingerprint;
    return mesh;
}

}  // namespace vksim
