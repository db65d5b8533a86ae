#include "geometry/triangle_bvh.h"

#include <algorithm>
#include <stdexcept>

namespace vksim {
namespace {

constexpr uint32_t kLeafSize = 4;

double boxDistanceSquared(const glm::dvec3& p, const glm::dvec3& lo, const glm::dvec3& hi) {
    const glm::dvec3 d = glm::max(glm::max(lo - p, p - hi), glm::dvec3(0.0));
    return glm::dot(d, d);
}

}  // namespace

glm::dvec3 closestPointOnTriangle(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b,
                                  const glm::dvec3& c) {
    const glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return a;  // vertex region a
    const glm::dvec3 bp = p - b;
    const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return b;  // vertex region b
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + ab * (d1 / (d1 - d3));  // edge ab
    const glm::dvec3 cp = p - c;
    const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return c;  // vertex region c
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + ac * (d2 / (d2 - d6));  // edge ac
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));  // edge bc
    const double denominator = 1.0 / (va + vb + vc);  // face region
    return a + ab * (vb * denominator) + ac * (vc * denominator);
}

TriangleBvh::TriangleBvh(std::span<const glm::dvec3> positions, std::span<const uint32_t> triangles)
    : positions_(positions), triangles_(triangles) {
    if (triangles.empty() || triangles.size() % 3 != 0)
        throw std::invalid_argument("TriangleBvh: needs a non-empty list of triangles");
    const auto count = static_cast<uint32_t>(triangles.size() / 3);
    for (uint32_t t = 0; t < count; ++t) {
        order_.push_back(t);
        centroids_.push_back((positions[triangles[3 * t]] + positions[triangles[3 * t + 1]] +
                              positions[triangles[3 * t + 2]]) /
                             3.0);
    }
    nodes_.reserve(2 * (count / kLeafSize + 1));
    build(0, count);  // the root is node 0
}

// Appends the node for order_[begin, end), then its subtrees; returns its index.
uint32_t TriangleBvh::build(uint32_t begin, uint32_t end) {
    const auto self = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back({});
    glm::dvec3 lo(std::numeric_limits<double>::infinity()), hi(-lo);
    glm::dvec3 centroidLo = lo, centroidHi = hi;
    for (uint32_t i = begin; i < end; ++i) {
        const uint32_t t = order_[i];
        for (int c = 0; c < 3; ++c) {
            lo = glm::min(lo, positions_[triangles_[3 * t + c]]);
            hi = glm::max(hi, positions_[triangles_[3 * t + c]]);
        }
        centroidLo = glm::min(centroidLo, centroids_[t]);
        centroidHi = glm::max(centroidHi, centroids_[t]);
    }
    nodes_[self].lo = lo;
    nodes_[self].hi = hi;
    if (end - begin <= kLeafSize) {
        nodes_[self].leaf = true;
        nodes_[self].first = begin;
        nodes_[self].second = end - begin;
        return self;
    }
    const glm::dvec3 extent = centroidHi - centroidLo;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    const uint32_t middle = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                     [&](uint32_t a, uint32_t b) { return centroids_[a][axis] < centroids_[b][axis]; });
    const uint32_t left = build(begin, middle);
    const uint32_t right = build(middle, end);
    nodes_[self].first = left;
    nodes_[self].second = right;
    return self;
}

TriangleBvh::Nearest TriangleBvh::nearest(const glm::dvec3& p, uint32_t start) const {
    Nearest best;
    if (start != UINT32_MAX) best = {distanceSquaredTo(p, start), start};
    // Depth-first, nearer child first; a subtree whose box is no nearer than
    // the best triangle so far cannot hold a nearer one.
    uint32_t stack[64];
    uint32_t depth = 0;
    stack[depth++] = 0;
    while (depth > 0) {
        const Node& node = nodes_[stack[--depth]];
        if (boxDistanceSquared(p, node.lo, node.hi) >= best.distanceSquared) continue;
        if (node.leaf) {
            for (uint32_t i = node.first; i < node.first + node.second; ++i) {
                const double d = distanceSquaredTo(p, order_[i]);
                if (d < best.distanceSquared || (d == best.distanceSquared && order_[i] < best.triangle))
                    best = {d, order_[i]};
            }
            continue;
        }
        const double dl = boxDistanceSquared(p, nodes_[node.first].lo, nodes_[node.first].hi);
        const double dr = boxDistanceSquared(p, nodes_[node.second].lo, nodes_[node.second].hi);
        // Push the farther child first so the nearer one is visited next.
        if (dl <= dr) {
            stack[depth++] = node.second;
            stack[depth++] = node.first;
        } else {
            stack[depth++] = node.first;
            stack[depth++] = node.second;
        }
    }
    return best;
}

double TriangleBvh::distanceSquaredTo(const glm::dvec3& p, uint32_t t) const {
    const glm::dvec3 q = closestPointOnTriangle(p, positions_[triangles_[3 * t]], positions_[triangles_[3 * t + 1]],
                                                positions_[triangles_[3 * t + 2]]);
    return glm::dot(q - p, q - p);
}

}  // namespace vksim
