#pragma once
// The PBD/XPBD solver's settings (scene keys "iterations", "pbdPath" and
// "pbdColouring" under "solver") and what a cloth sets for it: its constraint
// families' stiffness and its shape matching.
// A settings header: plain data that the scene (scene/scene.h) holds, so
// it includes nothing of the engine's (docs/architecture.md, "Layers").
#include <cmath>
#include <cstdint>

namespace vksim {

enum class ConstraintModel { Pbd, Xpbd };

// Stiffness of one constraint family: PBD stiffness k in [0,1] (corrected for
// the iteration count) or XPBD compliance alpha >= 0 (inverse stiffness, m/N).
struct ConstraintParams {
    ConstraintModel model = ConstraintModel::Pbd;
    float stiffness = 1.0f;
    float compliance = 0.0f;
    bool enabled = true;
};

// How the PBD objects are dispatched (docs/physics.md §1, "Small objects in
// one workgroup").
enum class PbdPath {
    Auto,       // Clusters where they cut an object (on a CPU device where its texel buffers
                // hold the arrays; on a GPU where the largest object is cut into 10 or more or
                // does not fit one workgroup); else Workgroup when every PBD object fits one
                // workgroup's shared memory, else PerColour (choosePbdPath)
    Workgroup,  // one dispatch per frame, one workgroup per object, positions in shared memory
    PerColour,  // one dispatch per colour per iteration
    Clusters,   // per iteration, two dispatches of shared-memory clusters and the colours they leave
};
// The scene format's name of each PbdPath, in its order.
inline constexpr const char* kPbdPathNames[] = {"auto", "workgroup", "perColour", "clusters"};

// How the PBD constraints are coloured for Gauss-Seidel (docs/physics.md §1,
// "One colouring across the families"). Fixed when a world is built: the
// constraint arrays are sorted by it.
enum class PbdColouring {
    PerFamily,       // each family its own colours: a grid cloth 8 stretch + 18 bending, one dispatch each
    AcrossFamilies,  // one colouring of every constraint, a colour's dispatch holding every family
};
// The scene format's name of each PbdColouring, in its order.
inline constexpr const char* kPbdColouringNames[] = {"perFamily", "acrossFamilies"};

// The settings of every PBD/XPBD object (scene keys "iterations", "pbdPath"
// and "pbdColouring" under "solver").
struct PbdSettings {
    uint32_t iterations = 8;  // n_s per substep
    PbdPath path = PbdPath::Auto;
    PbdColouring colouring = PbdColouring::PerFamily;  // read when the model is built, not live
    bool operator==(const PbdSettings&) const = default;
};

// Shape matching of a PBD object (docs/physics.md §13; Müller et al. 2005):
// its particles pulled towards the rest shape moved by the best rotation
// (rigid) or by a blend of it with the best volume-keeping linear map
// (linear), once per iteration after the object's constraints.
enum class ShapeMatchMode { Rigid, Linear };
struct ShapeMatchParams {
    bool enabled = false;
    ShapeMatchMode mode = ShapeMatchMode::Rigid;
    float stiffness = 1.0f;  // [0, 1]: fraction of the way to the goals per substep
    float beta = 0.5f;       // linear mode: goal transform beta A~ + (1 - beta) R
};

// Tearing of a PBD cloth (docs/physics.md §1, "Tearing"): a stretch
// constraint whose length passes (1 + strain) times its rest length at the
// end of a frame breaks for good, and the bending constraints hinged on its
// edge break with it. With a capacity, a vertex whose triangles the cracks
// separate splits into a particle per piece, taken from spare particles
// reserved at the end of the cloth's range (solvers/pbd/pbd_splitting.h).
struct TearingParams {
    bool enabled = false;
    float strain = 0.5f;  // > 0: the breaking strain (l - l0) / l0
    // The spare particles: below 1 a fraction of the cloth's vertices, from 1
    // on a count; 0 (the default) splits nothing and drops torn triangles.
    float capacity = 0.0f;
    // The spare particles of a cloth of `vertexCount` vertices.
    uint32_t spareParticles(uint32_t vertexCount) const {
        if (capacity >= 1.0f) return static_cast<uint32_t>(capacity);
        return static_cast<uint32_t>(std::ceil(double(capacity) * double(vertexCount)));
    }
};

}  // namespace vksim
