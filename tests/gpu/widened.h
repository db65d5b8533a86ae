#pragma once
// GPU positions (float, w the inverse mass) widened to double precision,
// as the tests compare them with the double-precision references.
#include <vector>

#include <glm/glm.hpp>

namespace vksim::test {

inline glm::dvec3 xyz(const glm::vec4& v) { return glm::dvec3(glm::vec3(v)); }

inline std::vector<glm::dvec3> widened(const std::vector<glm::vec4>& x) {
    std::vector<glm::dvec3> out;
    out.reserve(x.size());
    for (const glm::vec4& p : x) out.push_back(xyz(p));
    return out;
}

}  // namespace vksim::test
