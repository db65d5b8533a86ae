// The exporters' file formats (io/obj_writer.h, io/ply_writer.h) and object
// names as file names (io/file_names.h): an OBJ parses back to the very same
// floats, normals and faces; a PLY has the header and the little-endian bytes
// its header declares.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "io/file_names.h"
#include "io/obj_writer.h"
#include "io/ply_writer.h"

namespace vksim {
namespace {

// Values that need all 9 significant digits, a tiny one, a negative zero and
// a large one: a writer that rounds would change them.
const std::vector<glm::vec4> kPositions{{0.1f, -0.0f, 1.0f / 3.0f, 1.0f},
                                        {123456.789f, 1e-7f, -2.5f, 0.0f},
                                        {-0.333333343f, 7.0f, 0.6f, 2.0f},
                                        {1.17549435e-38f, -1e30f, 3.14159274f, 1.0f}};
const std::vector<glm::vec4> kNormals{
    {0, 1, 0, 0}, {0.6f, 0.8f, 0, 0}, {0, 0, -1, 0}, {0.57735026f, 0.57735026f, 0.57735026f, 0}};
const std::vector<uint32_t> kTriangles{0, 1, 2, 2, 1, 3};

MeshView mesh() { return {kPositions, kNormals, kTriangles}; }

struct ParsedObj {
    std::string objectName;
    std::vector<glm::vec3> v, vn;
    std::vector<uint32_t> faceVertices, faceNormals;  // 0-based
};

ParsedObj parseObj(const std::string& text) {
    ParsedObj obj;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream in(line);
        std::string tag;
        in >> tag;
        if (tag == "o") {
            in >> obj.objectName;
        } else if (tag == "v" || tag == "vn") {
            glm::vec3 p;
            in >> p.x >> p.y >> p.z;
            (tag == "v" ? obj.v : obj.vn).push_back(p);
        } else if (tag == "f") {
            for (std::string corner; in >> corner;) {
                const size_t slashes = corner.find("//");
                EXPECT_NE(slashes, std::string::npos) << "face corner " << corner << " is not v//vn";
                obj.faceVertices.push_back(static_cast<uint32_t>(std::stoul(corner.substr(0, slashes))) - 1);
                obj.faceNormals.push_back(static_cast<uint32_t>(std::stoul(corner.substr(slashes + 2))) - 1);
            }
        } else {
            EXPECT_TRUE(tag.empty() || tag == "#") << "unexpected line: " << line;
        }
    }
    return obj;
}

bool sameBits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

TEST(ObjWriter, ReadsBackToTheSameFloatsNormalsAndFaces) {
    const std::string text = formatObj(mesh(), "cloth_1", "vksim: object \"cloth 1\", frame 7");
    EXPECT_TRUE(text.starts_with("# vksim: object \"cloth 1\", frame 7\n"));
    const ParsedObj obj = parseObj(text);
    EXPECT_EQ(obj.objectName, "cloth_1");
    ASSERT_EQ(obj.v.size(), kPositions.size());
    ASSERT_EQ(obj.vn.size(), kNormals.size());
    for (size_t i = 0; i < kPositions.size(); ++i)
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_TRUE(sameBits(obj.v[i][axis], kPositions[i][axis]))
                << "vertex " << i << " axis " << axis << ": " << obj.v[i][axis] << " vs " << kPositions[i][axis];
            EXPECT_TRUE(sameBits(obj.vn[i][axis], kNormals[i][axis])) << "normal " << i << " axis " << axis;
        }
    EXPECT_EQ(obj.faceVertices, kTriangles);
    EXPECT_EQ(obj.faceNormals, kTriangles) << "each vertex uses its own normal";
    std::cout << "OBJ of 4 vertices, 2 triangles: " << text.size() << " bytes, every float bit-exact\n";
}

uint32_t littleEndianWord(const std::vector<std::byte>& bytes, size_t at) {
    uint32_t value = 0;
    for (size_t k = 0; k < 4; ++k) value |= std::to_integer<uint32_t>(bytes.at(at + k)) << (8 * k);
    return value;
}

TEST(PlyWriter, HeaderDeclaresWhatTheLittleEndianBodyHolds) {
    const std::vector<std::byte> bytes = formatPly(mesh(), "vksim: object \"cloth\", frame 3");
    const std::string expectedHeader =
        "ply\n"
        "format binary_little_endian 1.0\n"
        "comment vksim: object \"cloth\", frame 3\n"
        "element vertex 4\n"
        "property float x\nproperty float y\nproperty float z\n"
        "property float nx\nproperty float ny\nproperty float nz\n"
        "element face 2\n"
        "property list uchar uint vertex_indices\n"
        "end_header\n";
    ASSERT_GE(bytes.size(), expectedHeader.size());
    const std::string header(reinterpret_cast<const char*>(bytes.data()), expectedHeader.size());
    EXPECT_EQ(header, expectedHeader);
    const size_t body = expectedHeader.size();
    ASSERT_EQ(bytes.size(), body + 4 * 24 + 2 * 13) << "24 bytes per vertex, 13 per triangle";
    for (size_t v = 0; v < kPositions.size(); ++v)
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_EQ(littleEndianWord(bytes, body + 24 * v + 4 * axis), std::bit_cast<uint32_t>(kPositions[v][axis]))
                << "vertex " << v << " axis " << axis;
            EXPECT_EQ(littleEndianWord(bytes, body + 24 * v + 12 + 4 * axis),
                      std::bit_cast<uint32_t>(kNormals[v][axis]))
                << "normal " << v << " axis " << axis;
        }
    const size_t faces = body + 4 * 24;
    for (size_t t = 0; t < 2; ++t) {
        EXPECT_EQ(std::to_integer<int>(bytes[faces + 13 * t]), 3);
        for (size_t k = 0; k < 3; ++k)
            EXPECT_EQ(littleEndianWord(bytes, faces + 13 * t + 1 + 4 * k), kTriangles[3 * t + k]);
    }
    // The first float's bytes spelled out: 0.1f = 0x3dcccccd, least significant first.
    EXPECT_EQ(std::to_integer<int>(bytes[body]), 0xcd);
    EXPECT_EQ(std::to_integer<int>(bytes[body + 3]), 0x3d);
}

TEST(FileNames, SanitizedAndUnique) {
    EXPECT_EQ(sanitizeFileName("cloth"), "cloth");
    EXPECT_EQ(sanitizeFileName("falling cloth"), "falling_cloth");
    EXPECT_EQ(sanitizeFileName("flag/left:1"), "flag_left_1");
    EXPECT_EQ(sanitizeFileName("v1.2-final_B"), "v1.2-final_B");
    EXPECT_EQ(sanitizeFileName("tissu \xc3\xa9t\xc3\xa9"), "tissu___t__");  // UTF-8 bytes each become '_'
    EXPECT_EQ(sanitizeFileName(""), "object");
    EXPECT_EQ(sanitizeFileName(".."), "object");
    const std::vector<std::string> stems = uniqueFileStems({"a b", "a_b", "A_B", "c", "a_b_1"});
    EXPECT_EQ(stems, (std::vector<std::string>{"a_b", "a_b_1", "A_B_2", "c", "a_b_1_4"}));
}

}  // namespace
}  // namespace vksim
