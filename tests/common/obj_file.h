#pragma once
// What a test reads back from the files vksim writes: the names in a folder,
// and an OBJ file's vertices, normals and faces (as --export writes them:
// "v x y z", "vn x y z", "f a//a b//b c//c").
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <gtest/gtest.h>

namespace vksim::test {

inline std::set<std::string> filesIn(const std::filesystem::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename().string());
    return names;
}

struct ObjMesh {
    std::vector<glm::dvec3> v, vn;
    std::vector<uint32_t> faces;  // the corners' vertex indices, 0-based (the v of v//vn)
};

inline ObjMesh readObj(const std::filesystem::path& path) {
    ObjMesh mesh;
    std::ifstream file(path);
    EXPECT_TRUE(file) << path;
    for (std::string line; std::getline(file, line);) {
        std::istringstream in(line);
        std::string tag;
        in >> tag;
        if (tag == "v" || tag == "vn") {
            glm::dvec3 p;
            in >> p.x >> p.y >> p.z;
            (tag == "v" ? mesh.v : mesh.vn).push_back(p);
        } else if (tag == "f") {
            for (std::string corner; in >> corner;)
                mesh.faces.push_back(static_cast<uint32_t>(std::stoul(corner.substr(0, corner.find("//")))) - 1);
        }
    }
    return mesh;
}

}  // namespace vksim::test
