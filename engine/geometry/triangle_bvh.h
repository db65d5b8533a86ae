#pragma once
// Nearest-triangle queries on a static triangle mesh: a bounding volume
// hierarchy (median split along the longest axis, a few triangles per leaf)
// and Ericson's closest point on a triangle. The mesh SDF baker asks it for
// the exact distance from every grid sample to the surface.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

// The point of triangle (a, b, c) closest to p (Ericson, "Real-Time Collision
// Detection", 5.1.5: by the Voronoi region of p among vertices, edges, face).
glm::dvec3 closestPointOnTriangle(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b,
                                  const glm::dvec3& c);

class TriangleBvh {
public:
    // Keeps views of `positions` and `triangles` (3 indices each): they must
    // outlive the hierarchy.
    TriangleBvh(std::span<const glm::dvec3> positions, std::span<const uint32_t> triangles);

    struct Nearest {
        double distanceSquared = std::numeric_limits<double>::infinity();
        uint32_t triangle = UINT32_MAX;
    };

    // The triangle nearest to p. `start` may carry a triangle already known
    // to be near (its exact distance is the first bound), which prunes most of
    // the tree when queries come in spatial order.
    Nearest nearest(const glm::dvec3& p, uint32_t start = UINT32_MAX) const;

    double distanceSquaredTo(const glm::dvec3& p, uint32_t triangle) const;

private:
    struct Node {
        glm::dvec3 lo, hi;
        uint32_t first = 0;  // leaf: first entry of order_; inner: left child
        uint32_t second = 0;  // leaf: number of triangles; inner: right child
        bool leaf = false;
    };
    uint32_t build(uint32_t begin, uint32_t end);

    std::span<const glm::dvec3> positions_;
    std::span<const uint32_t> triangles_;
    std::vector<uint32_t> order_;  // triangle indices, grouped by leaf
    std::vector<glm::dvec3> centroids_;
    std::vector<Node> nodes_;      // nodes_[0] is the root
};

}  // namespace vksim
