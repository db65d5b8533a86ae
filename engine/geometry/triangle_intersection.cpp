#include "geometry/triangle_intersection.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace vksim {

namespace {

// The signed distances (scaled by |n|) of a's vertices to the plane n.x + d = 0.
glm::dvec3 planeDistances(const Triangle& a, const glm::dvec3& n, double d) {
    return {glm::dot(n, a[0]) + d, glm::dot(n, a[1]) + d, glm::dot(n, a[2]) + d};
}

bool oneSide(const glm::dvec3& s) { return (s.x > 0 && s.y > 0 && s.z > 0) || (s.x < 0 && s.y < 0 && s.z < 0); }

// The interval of the triangle on the planes' common line (coordinates p,
// distances s to the other plane, not all zero, not all on one side):
// where its two edges from the vertex alone on its side cross the plane.
glm::dvec2 interval(const glm::dvec3& p, const glm::dvec3& s) {
    auto cut = [&](int alone, int a, int b) {
        const double t0 = p[alone] + (p[a] - p[alone]) * s[alone] / (s[alone] - s[a]);
        const double t1 = p[alone] + (p[b] - p[alone]) * s[alone] / (s[alone] - s[b]);
        return glm::dvec2(std::min(t0, t1), std::max(t0, t1));
    };
    if (s.x * s.y > 0) return cut(2, 0, 1);
    if (s.x * s.z > 0) return cut(1, 0, 2);
    if (s.y * s.z > 0 || s.x != 0) return cut(0, 1, 2);
    if (s.y != 0) return cut(1, 0, 2);
    return cut(2, 0, 1);
}

double orient2d(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

bool onSegment(glm::dvec2 a, glm::dvec2 b, glm::dvec2 p) {
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

bool segmentsMeet(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c, glm::dvec2 d) {
    const double o1 = orient2d(a, b, c), o2 = orient2d(a, b, d), o3 = orient2d(c, d, a), o4 = orient2d(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) || (o3 == 0 && onSegment(c, d, a)) ||
           (o4 == 0 && onSegment(c, d, b));
}

bool inside(const std::array<glm::dvec2, 3>& t, glm::dvec2 p) {
    const double a = orient2d(t[0], t[1], p), b = orient2d(t[1], t[2], p), c = orient2d(t[2], t[0], p);
    return (a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0);
}

// Both in the plane with normal n: project away n's largest axis.
bool coplanarIntersect(const glm::dvec3& n, const Triangle& a, const Triangle& b) {
    const glm::dvec3 m = glm::abs(n);
    const int drop = m.x >= m.y && m.x >= m.z ? 0 : m.y >= m.z ? 1 : 2;
    auto flat = [&](const glm::dvec3& v) {
        return drop == 0 ? glm::dvec2(v.y, v.z) : drop == 1 ? glm::dvec2(v.x, v.z) : glm::dvec2(v.x, v.y);
    };
    const std::array<glm::dvec2, 3> pa{flat(a[0]), flat(a[1]), flat(a[2])}, pb{flat(b[0]), flat(b[1]), flat(b[2])};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            if (segmentsMeet(pa[i], pa[(i + 1) % 3], pb[j], pb[(j + 1) % 3])) return true;
    return inside(pb, pa[0]) || inside(pa, pb[0]);
}

glm::dvec3 normalOf(const Triangle& t) { return glm::cross(t[1] - t[0], t[2] - t[0]); }

}  // namespace

bool trianglesIntersect(const Triangle& a, const Triangle& b) {
    const glm::dvec3 nb = normalOf(b), na = normalOf(a);
    if (nb == glm::dvec3(0.0) || na == glm::dvec3(0.0)) return false;
    const glm::dvec3 sa = planeDistances(a, nb, -glm::dot(nb, b[0]));
    if (oneSide(sa)) return false;
    const glm::dvec3 sb = planeDistances(b, na, -glm::dot(na, a[0]));
    if (oneSide(sb)) return false;
    if (sa == glm::dvec3(0.0)) return coplanarIntersect(na, a, b);
    // The planes' common line; each triangle's interval on it, in the
    // coordinate of its largest axis.
    const glm::dvec3 line = glm::cross(na, nb);
    const glm::dvec3 m = glm::abs(line);
    const int axis = m.x >= m.y && m.x >= m.z ? 0 : m.y >= m.z ? 1 : 2;
    const glm::dvec2 ia = interval({a[0][axis], a[1][axis], a[2][axis]}, sa);
    const glm::dvec2 ib = interval({b[0][axis], b[1][axis], b[2][axis]}, sb);
    return ia.x <= ib.y && ib.x <= ia.y;
}

SurfaceIntersections countSurfaceIntersections(std::span<const glm::dvec3> positions,
                                               std::span<const glm::uvec3> triangles,
                                               std::span<const uint32_t> groups) {
    struct Box {
        glm::dvec3 low, high;
    };
    std::vector<Box> boxes;
    boxes.reserve(triangles.size());
    for (const glm::uvec3& t : triangles) {
        const glm::dvec3 &a = positions[t.x], &b = positions[t.y], &c = positions[t.z];
        boxes.push_back({glm::min(a, glm::min(b, c)), glm::max(a, glm::max(b, c))});
    }
    std::vector<uint32_t> order(triangles.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t i, uint32_t j) { return boxes[i].low.x < boxes[j].low.x; });
    SurfaceIntersections found;
    for (size_t i = 0; i < order.size(); ++i) {
        const uint32_t p = order[i];
        for (size_t j = i + 1; j < order.size() && boxes[order[j]].low.x <= boxes[p].high.x; ++j) {
            const uint32_t q = order[j];
            if (!groups.empty() && groups[p] == groups[q] && groups[p] != kEveryPair) continue;
            if (boxes[q].low.y > boxes[p].high.y || boxes[p].low.y > boxes[q].high.y ||
                boxes[q].low.z > boxes[p].high.z || boxes[p].low.z > boxes[q].high.z)
                continue;
            const glm::uvec3 &s = triangles[p], &t = triangles[q];
            bool shared = false;
            for (int u = 0; u < 3; ++u)
                for (int v = 0; v < 3; ++v) shared = shared || s[u] == t[v];
            if (shared) continue;
            ++found.tested;
            if (trianglesIntersect({positions[s.x], positions[s.y], positions[s.z]},
                                   {positions[t.x], positions[t.y], positions[t.z]})) {
                ++found.intersecting;
                if (found.first.size() < 16) found.first.emplace_back(std::min(p, q), std::max(p, q));
            }
        }
    }
    return found;
}

}  // namespace vksim
