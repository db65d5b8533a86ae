#include "app/viewer_providers.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <glm/gtc/quaternion.hpp>

#include "app/viewer.h"
#include "solvers/pbd/pbd_materials.h"
#include "solvers/pd/pd_material_edit.h"
#include "solvers/springs/spring_params_edit.h"
#include "solvers/springs/spring_settings.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pd/pd_materials.h"
#include "contacts/contact_stats.h"
#include "world/world.h"

namespace vksim {
namespace {

const ConstraintParams& familyParams(const ClothObject& cloth, ConstraintFamily family) {
    switch (family) {
        case ConstraintFamily::Stretch: return cloth.stretch;
        case ConstraintFamily::Bending: return cloth.bending;
        case ConstraintFamily::Attachment: return cloth.attachment;
    }
    return cloth.stretch;
}

// PBD stiffness in [0, 1]; XPBD compliance over the decades a user tunes
// (1e-10 m/N is stiffer than float can resolve per substep, 1e-2 is rubber).
LiveParameter familyParameter(Viewer& viewer, uint32_t cloth, ConstraintFamily family) {
    const ClothObject& object = viewer.simulation().scene().cloths[cloth];
    ConstraintParams params = familyParams(object, family);
    LiveParameter p;
    p.group = fmt::format("{}: {}", object.name, familyName(family));
    const bool xpbd = params.model == ConstraintModel::Xpbd;
    p.name = xpbd ? "compliance" : "stiffness";
    p.value = xpbd ? params.compliance : params.stiffness;
    p.min = xpbd ? 1e-10f : 0.0f;
    p.max = xpbd ? 1e-2f : 1.0f;
    p.logarithmic = xpbd;
    p.set = [&viewer, cloth, family, params](float value) mutable {
        (params.model == ConstraintModel::Xpbd ? params.compliance : params.stiffness) = value;
        viewer.simulation().edit(PbdMaterialEdit{cloth, family, params});
    };
    return p;
}

// A tearing cloth's threshold strain (PbdTearEdit), over the range the
// scene format takes: logarithmic, since 0.01 and 1 are both in use.
LiveParameter tearParameter(Viewer& viewer, uint32_t cloth) {
    const ClothObject& object = viewer.simulation().scene().cloths[cloth];
    LiveParameter p{fmt::format("{}: tearing", object.name), "strain", object.tearing.strain, 0.01f, 10.0f, true, {}};
    p.set = [&viewer, cloth](float value) { viewer.simulation().edit(PbdTearEdit{cloth, value}); };
    return p;
}

// Projective dynamics stiffness, logarithmic over the decades each family's
// unit spans in practice (scene.h's defaults sit inside).
struct StiffnessScale {
    const char* name;
    float min, max;
};
StiffnessScale pdStiffnessScale(PdFamily family) {
    switch (family) {
        case PdFamily::Springs: return {"stiffness [N/m]", 1.0f, 1e6f};
        case PdFamily::Triangles: return {"stiffness [N/m]", 0.1f, 1e5f};
        case PdFamily::TetStrain:
        case PdFamily::TetVolume: return {"stiffness [Pa]", 1e2f, 1e8f};
        case PdFamily::Bending: return {"stiffness [N m]", 1e-6f, 1.0f};
        case PdFamily::Attachments: return {"stiffness [N/m]", 1.0f, 1e7f};
    }
    return {"stiffness", 1e-6f, 1e8f};
}

// Each edit rebuilds the system rows and re-estimates the Jacobi spectrum
// (a PdMaterialEdit through World::edit): milliseconds per slider move.
LiveParameter pdParameter(Viewer& viewer, PdOwner owner, PdFamily family) {
    const Scene& scene = viewer.simulation().scene();
    PdParams params = pdParams(scene, owner, family);
    const StiffnessScale scale = pdStiffnessScale(family);
    LiveParameter p{fmt::format("{}: {} (pd)", pdOwnerName(scene, owner), pdFamilyName(family)), scale.name,
                    params.stiffness, scale.min, scale.max, true, {}};
    p.set = [&viewer, owner, family, params](float value) mutable {
        params.stiffness = value;
        viewer.simulation().edit(PdMaterialEdit{owner, family, params});
    };
    return p;
}

LiveParameter colliderParameter(Viewer& viewer, uint32_t index, const char* name, float ColliderDesc::*field,
                                float min, float max) {
    const ColliderDesc& collider = viewer.simulation().scene().colliders[index];
    LiveParameter p{collider.name.empty() ? fmt::format("collider {}", index) : "collider " + collider.name,
                    name, collider.*field, min, max, false, {}};
    p.set = [&viewer, index, field](float value) {
        ColliderDesc desc = viewer.simulation().scene().colliders[index];
        desc.*field = value;
        viewer.simulation().setCollider(index, desc);
    };
    return p;
}

// The collider's static friction mu_s: while the scene gave none it is the
// friction's (and follows its slider); once moved, its own.
LiveParameter colliderStaticFriction(Viewer& viewer, uint32_t index) {
    const ColliderDesc& collider = viewer.simulation().scene().colliders[index];
    LiveParameter p = colliderParameter(viewer, index, "static friction", &ColliderDesc::friction, 0.0f, 1.0f);
    p.value = collider.staticFriction.value_or(collider.friction);
    p.set = [&viewer, index](float value) {
        ColliderDesc desc = viewer.simulation().scene().colliders[index];
        desc.staticFriction = value;
        viewer.simulation().setCollider(index, desc);
    };
    return p;
}

// One coordinate of a vector field of the collider (position, half extents).
LiveParameter colliderCoordinate(Viewer& viewer, uint32_t index, glm::vec3 ColliderDesc::*field, int axis,
                                 const char* name, float min, float max) {
    const ColliderDesc& collider = viewer.simulation().scene().colliders[index];
    LiveParameter p{collider.name.empty() ? fmt::format("collider {}", index) : "collider " + collider.name, name,
                    (collider.*field)[axis], min, max, false, {}};
    p.set = [&viewer, index, field, axis](float value) {
        ColliderDesc desc = viewer.simulation().scene().colliders[index];
        (desc.*field)[axis] = value;
        viewer.simulation().setCollider(index, desc);
    };
    return p;
}

// Slider ranges are fixed (a range that followed the value would run away
// under a held mouse button): +-kReach m around the origin for positions,
// up to kReach m for sizes, widened only to include a value beyond them.
constexpr float kReach = 5.0f;

LiveParameter colliderPosition(Viewer& viewer, uint32_t index, int axis) {
    static const char* const names[] = {"position x", "position y", "position z"};
    const float at = viewer.simulation().scene().colliders[index].position[axis];
    return colliderCoordinate(viewer, index, &ColliderDesc::position, axis, names[axis], std::min(-kReach, at),
                              std::max(kReach, at));
}

// The size sliders of the collider's shape (a plane has none; a mesh
// collider's scale is baked into its distance grid). Sizes stay positive.
void addColliderSize(std::vector<LiveParameter>& list, Viewer& viewer, uint32_t index) {
    const ColliderDesc& c = viewer.simulation().scene().colliders[index];
    auto upTo = [](float value) { return std::max(kReach, value); };
    if (c.shape == ColliderShape::Sphere || c.shape == ColliderShape::Capsule)
        list.push_back(colliderParameter(viewer, index, "radius", &ColliderDesc::radius, 0.01f, upTo(c.radius)));
    if (c.shape == ColliderShape::Capsule)
        list.push_back(colliderParameter(viewer, index, "half length", &ColliderDesc::halfLength, 0.0f,
                                         upTo(c.halfLength)));
    if (c.shape == ColliderShape::Box) {
        static const char* const names[] = {"half extent x", "half extent y", "half extent z"};
        for (int axis = 0; axis < 3; ++axis)
            list.push_back(colliderCoordinate(viewer, index, &ColliderDesc::halfExtents, axis, names[axis], 0.01f,
                                              upTo(c.halfExtents[axis])));
    }
}

// Rotation as Euler angles in degrees (glm's x, y, z order), turned back
// into the collider's quaternion on every change.
glm::quat colliderQuat(const ColliderDesc& c) {
    return glm::normalize(glm::quat(c.rotation.w, c.rotation.x, c.rotation.y, c.rotation.z));
}

LiveParameter colliderRotation(Viewer& viewer, uint32_t index, int axis) {
    const ColliderDesc& collider = viewer.simulation().scene().colliders[index];
    static const char* const names[] = {"rotation x (deg)", "rotation y (deg)", "rotation z (deg)"};
    const float degrees = glm::degrees(glm::eulerAngles(colliderQuat(collider))[axis]);
    LiveParameter p{collider.name.empty() ? fmt::format("collider {}", index) : "collider " + collider.name,
                    names[axis], degrees, -180.0f, 180.0f, false, {}};
    p.set = [&viewer, index, axis](float value) {
        ColliderDesc desc = viewer.simulation().scene().colliders[index];
        glm::vec3 euler = glm::eulerAngles(colliderQuat(desc));
        euler[axis] = glm::radians(value);
        const glm::quat q(euler);
        desc.rotation = glm::vec4(q.x, q.y, q.z, q.w);
        viewer.simulation().setCollider(index, desc);
    };
    return p;
}

// --- Mass-spring cloth (docs/physics.md §9). The integrator and its
// iteration counts are scene().solver.springs, read every frame; the cloth
// values go through World::edit (a SpringParamsEdit).

constexpr size_t kIntegratorCount = 7;  // SpringIntegrator's values, in order
constexpr std::array<const char*, 4> kBendingNames = {"none", "springs", "dihedral", "quadratic"};

// Dihedral forces have no energy, so implicit Euler and VBD have nothing to
// minimise: SpringSolver::checkSettings would throw at the next frame. The
// panel refuses the pair before it reaches the solver; this is the reason,
// "" when `integrator` can step a cloth with `params`. Like the solver, a
// dihedral model at stiffness 0 (no hinge force) is no conflict.
std::string dihedralConflict(SpringIntegrator integrator, const SpringClothParams& params) {
    if (!minimisesEnergy(integrator) || params.bending != SpringBending::Dihedral || params.bendingStiffness == 0.0f)
        return {};
    return kDihedralHasNoEnergy;
}

// The first mass-spring cloth `integrator` cannot step, as a reason ("" if none).
std::string integratorConflict(const Scene& scene, SpringIntegrator integrator) {
    for (const ClothObject& cloth : scene.cloths) {
        if (cloth.method != SolverMethod::Springs) continue;
        if (minimisesEnergy(integrator) && cloth.springs.integrator)
            return cloth.name + ": " + kObjectIntegratorNeedsExplicitSolver;
        const std::string conflict = dihedralConflict(integrator, cloth.springs);
        if (!conflict.empty()) return cloth.name + ": " + conflict;
    }
    return {};
}

// Why `springs` cannot replace the running solver's spring settings ("" if
// it can): dihedral bending under an implicit integrator, or, as for the
// Solver panel's edits, a frame with more timed passes than the GPU timer was
// sized for (4x the scene's at load): an implicit integrator records a pass
// per Jacobi iteration or VBD colour sweep, so a scene loaded with an
// explicit one and many substeps overflows it until substeps are lowered.
std::string springSettingsRefusal(const World& sim, const SpringSettings& springs) {
    std::string conflict = integratorConflict(sim.scene(), springs.integrator);
    if (!conflict.empty()) return conflict;
    SolverSettings edited = sim.scene().solver;
    edited.springs = springs;
    const uint32_t runs = sim.passRunsPerFrame(edited);
    if (runs <= sim.timerCapacity()) return {};
    return fmt::format("{} timed passes per frame: more than the {} the GPU timer holds (4x the scene's at load); "
                       "lower the substeps or iterations first",
                       runs, sim.timerCapacity());
}

// Applies from the next frame, as the Solver panel's edits.
void applySpringSettings(Viewer& viewer, const SpringSettings& springs) {
    World& sim = viewer.simulation();
    const std::string refusal = springSettingsRefusal(sim, springs);
    if (!refusal.empty()) throw std::invalid_argument(refusal);
    sim.scene().solver.springs = springs;
}

LiveParameter springIntegrator(Viewer& viewer) {
    const World& sim = viewer.simulation();
    const SpringSettings& current = sim.scene().solver.springs;
    LiveParameter p{"springs solver", "integrator", float(current.integrator), 0.0f,
                    float(kIntegratorCount - 1), false, {}};
    p.kind = LiveParameter::Kind::Choice;
    for (size_t i = 0; i < kIntegratorCount; ++i) {
        SpringSettings candidate = current;
        candidate.integrator = SpringIntegrator(i);
        p.choices.push_back({springIntegratorName(SpringIntegrator(i)), springSettingsRefusal(sim, candidate)});
    }
    p.set = [&viewer](float value) {
        SpringSettings springs = viewer.simulation().scene().solver.springs;
        springs.integrator = SpringIntegrator(std::lround(value));
        applySpringSettings(viewer, springs);
    };
    return p;
}

// An iteration count of the springs solver, at least 1 (checkSettings
// refuses 0).
LiveParameter springIterations(Viewer& viewer, const char* name, uint32_t SpringSettings::*field, uint32_t max) {
    const SpringSettings& springs = viewer.simulation().scene().solver.springs;
    LiveParameter p{"springs solver", name, float(springs.*field), 1.0f, float(std::max(max, springs.*field)),
                    false, {}};
    p.kind = LiveParameter::Kind::Integer;
    p.set = [&viewer, field](float value) {
        SpringSettings edited = viewer.simulation().scene().solver.springs;
        edited.*field = uint32_t(std::max(std::lround(value), 1l));
        applySpringSettings(viewer, edited);
    };
    return p;
}

// Newton and its Jacobi solves for implicit Euler, sweeps for VBD; the
// explicit integrators iterate nothing.
void addSpringSolver(std::vector<LiveParameter>& list, Viewer& viewer) {
    list.push_back(springIntegrator(viewer));
    const SpringIntegrator integrator = viewer.simulation().scene().solver.springs.integrator;
    if (integrator == SpringIntegrator::ImplicitEuler) {
        list.push_back(springIterations(viewer, "Newton iterations", &SpringSettings::newtonIterations, 20));
        list.push_back(springIterations(viewer, "Jacobi iterations", &SpringSettings::jacobiIterations, 200));
    }
    if (integrator == SpringIntegrator::Vbd)
        list.push_back(springIterations(viewer, "VBD iterations", &SpringSettings::vbdIterations, 100));
}

// Every cloth edit is checked against the running integrator first, so the
// frame after it cannot fail; the SpringParamsEdit checks the values.
void applySpringParams(Viewer& viewer, uint32_t cloth, const SpringClothParams& params) {
    World& sim = viewer.simulation();
    const std::string conflict = dihedralConflict(sim.scene().solver.springs.integrator, params);
    if (!conflict.empty()) throw std::invalid_argument(sim.scene().cloths[cloth].name + ": " + conflict);
    sim.edit(SpringParamsEdit{cloth, params});
}

// A number of the cloth's SpringClothParams. Fixed ranges, as the collider
// sliders' (kReach), widened only to include a scene value beyond them.
LiveParameter springValue(Viewer& viewer, uint32_t cloth, const char* name, float SpringClothParams::*field,
                          float min, float max, bool logarithmic) {
    const ClothObject& object = viewer.simulation().scene().cloths[cloth];
    const float value = object.springs.*field;
    LiveParameter p{object.name + ": springs", name, value, std::min(min, value), std::max(max, value), logarithmic,
                    {}};
    p.set = [&viewer, cloth, field](float edited) {
        SpringClothParams params = viewer.simulation().scene().cloths[cloth].springs;
        params.*field = edited;
        applySpringParams(viewer, cloth, params);
    };
    return p;
}

// The bending model combo; dihedral is greyed out under an implicit integrator.
LiveParameter springBending(Viewer& viewer, uint32_t cloth) {
    const Scene& scene = viewer.simulation().scene();
    const ClothObject& object = scene.cloths[cloth];
    LiveParameter p{object.name + ": springs", "bending model", float(object.springs.bending), 0.0f,
                    float(kBendingNames.size() - 1), false, {}};
    p.kind = LiveParameter::Kind::Choice;
    for (size_t i = 0; i < kBendingNames.size(); ++i) {
        SpringClothParams candidate = object.springs;
        candidate.bending = SpringBending(i);
        p.choices.push_back({kBendingNames[i], dihedralConflict(scene.solver.springs.integrator, candidate)});
    }
    p.set = [&viewer, cloth](float value) {
        SpringClothParams params = viewer.simulation().scene().cloths[cloth].springs;
        params.bending = SpringBending(std::lround(value));
        applySpringParams(viewer, cloth, params);
    };
    return p;
}

// The bending stiffness's unit and decades follow the model: springs and
// dihedral hinges in N/m (scene defaults 10 to 50), quadratic in N m (1e-2).
LiveParameter springBendingStiffness(Viewer& viewer, uint32_t cloth) {
    const bool quadratic = viewer.simulation().scene().cloths[cloth].springs.bending == SpringBending::Quadratic;
    return quadratic ? springValue(viewer, cloth, "bending [N m]", &SpringClothParams::bendingStiffness, 1e-6f, 1.0f,
                                   true)
                     : springValue(viewer, cloth, "bending [N/m]", &SpringClothParams::bendingStiffness, 1e-2f, 1e5f,
                                   true);
}

// The integrator of a cloth that names its own: one of the five explicit
// ones (kIntegratorCount's first five), live.
LiveParameter springObjectIntegrator(Viewer& viewer, uint32_t cloth) {
    const ClothObject& object = viewer.simulation().scene().cloths[cloth];
    constexpr size_t kExplicitCount = 5;
    LiveParameter p{object.name + ": springs",
                    "integrator",
                    float(*object.springs.integrator),
                    0.0f,
                    float(kExplicitCount - 1),
                    false,
                    {}};
    p.kind = LiveParameter::Kind::Choice;
    for (size_t i = 0; i < kExplicitCount; ++i) p.choices.push_back({springIntegratorName(SpringIntegrator(i)), {}});
    p.set = [&viewer, cloth](float value) {
        SpringClothParams params = viewer.simulation().scene().cloths[cloth].springs;
        params.integrator = SpringIntegrator(std::lround(value));
        applySpringParams(viewer, cloth, params);
    };
    return p;
}

// One cloth's sliders: its integrator where it names its own; stretch; shear
// where a grid has diagonals (a mesh cloth's springs are its edges); the
// bending model and, unless none, its stiffness; drag and the locking remedies.
void addSpringCloth(std::vector<LiveParameter>& list, Viewer& viewer, uint32_t cloth) {
    const ClothObject& object = viewer.simulation().scene().cloths[cloth];
    if (object.springs.integrator) list.push_back(springObjectIntegrator(viewer, cloth));
    list.push_back(springValue(viewer, cloth, "stretch [N/m]", &SpringClothParams::stretch, 1.0f, 1e6f, true));
    if (!object.mesh && object.springs.topology == SpringTopology::Grid && object.springs.shearDiagonals > 0)
        list.push_back(springValue(viewer, cloth, "shear [N/m]", &SpringClothParams::shear, 1.0f, 1e6f, true));
    list.push_back(springBending(viewer, cloth));
    if (object.springs.bending != SpringBending::None) list.push_back(springBendingStiffness(viewer, cloth));
    list.push_back(springValue(viewer, cloth, "drag [kg/s]", &SpringClothParams::drag, 0.0f, 0.1f, true));
    list.push_back(
        springValue(viewer, cloth, "compression scale", &SpringClothParams::compressionScale, 0.0f, 1.0f, false));
    // slack < 1 (validateSpringParams); half a rest length is already very loose.
    list.push_back(springValue(viewer, cloth, "slack", &SpringClothParams::slack, 0.0f, 0.5f, false));
}

// Each mass-spring object's total energy per frame, named with its
// integrator: explicit Euler's grows, the symplectic ones' oscillates,
// the midpoint rule's drifts slowly (docs/physics.md §9.2).
void addSpringEnergies(std::vector<ConvergenceSeries>& series, const World& sim) {
    const std::vector<std::vector<float>>& history = sim.springObjectEnergyHistory();
    const std::vector<SpringObject>& objects = sim.model().springs.objects;
    for (size_t k = 0; k < objects.size() && k < history.size(); ++k) {
        const ClothObject& cloth = sim.scene().cloths.at(objects[k].cloth);
        const std::string integrator =
            springIntegratorName(objectIntegrator(sim.scene().solver.springs, cloth.springs));
        const std::string label = cloth.name == integrator ? fmt::format("E {}", cloth.name)
                                                           : fmt::format("E {} ({})", cloth.name, integrator);
        series.push_back({label, "J", history[k], false, true});
    }
}

// --- Tetrahedral solids (docs/physics.md §16): the solver that steps each,
// switched live (the viewer rebuilds the simulation, every object carrying
// on from where it is), and a material's E and nu.

constexpr std::array<const char*, 3> kSolidMethodNames = {"projective dynamics", "XPBD", "vertex block descent"};

LiveParameter solidMethod(Viewer& viewer, uint32_t solid) {
    const SolidObject& object = viewer.simulation().scene().solids[solid];
    LiveParameter p{object.name + ": solid", "solver", float(object.method), 0.0f,
                    float(kSolidMethodNames.size() - 1), false, {}};
    p.kind = LiveParameter::Kind::Choice;
    for (size_t i = 0; i < kSolidMethodNames.size(); ++i)
        p.choices.push_back({kSolidMethodNames[i], SolidMethod(i) != SolidMethod::Pd && !object.material
                                                       ? "needs a \"material\" (E, nu, density) in the scene"
                                                       : ""});
    p.set = [&viewer, solid](float value) { viewer.requestSolidMethod(solid, SolidMethod(std::lround(value))); };
    return p;
}

// Young's modulus over the decades of soft rubber to stiff plastics, and
// Poisson's ratio up to 0.49 (0.5 has no finite lambda).
LiveParameter solidMaterialValue(Viewer& viewer, uint32_t solid, const char* name, float ElasticMaterial::*field,
                                 float min, float max, bool logarithmic) {
    const SolidObject& object = viewer.simulation().scene().solids[solid];
    const float value = (*object.material).*field;
    LiveParameter p{object.name + ": solid", name, value, std::min(min, value), std::max(max, value), logarithmic,
                    {}};
    p.set = [&viewer, solid, field](float edited) {
        ElasticMaterial material = *viewer.simulation().scene().solids[solid].material;
        material.*field = edited;
        viewer.simulation().setSolidMaterial(solid, material);
    };
    return p;
}

void addSolid(std::vector<LiveParameter>& list, Viewer& viewer, uint32_t solid) {
    list.push_back(solidMethod(viewer, solid));
    if (!viewer.simulation().scene().solids[solid].material) return;
    list.push_back(solidMaterialValue(viewer, solid, "Young's modulus [Pa]", &ElasticMaterial::youngsModulus, 1e3f,
                                      1e9f, true));
    list.push_back(solidMaterialValue(viewer, solid, "Poisson's ratio", &ElasticMaterial::poissonRatio, 0.0f, 0.49f,
                                      false));
}

}  // namespace

OverlayProviders ViewerProviders::providers() {
    OverlayProviders p;
    p.convergence = [this] {
        World& sim = viewer_.simulation();
        // A reset or a new scene starts untracked; the panel is open, so track.
        if (!sim.residualTracking()) sim.setResidualTracking(true);
        std::vector<ConvergenceSeries> series;
        if (sim.model().pbd.particleCount > 0)
            series.push_back({"PBD mean |C|", "m", sim.lastResidualPerIteration(), true});
        if (sim.solver<PbdSolver>().constraints().xpbdEnergyDefined())  // every PBD constraint XPBD with compliance > 0
            series.push_back({"XPBD energy g(p)", "J", sim.lastPbdEnergyPerIteration(), false});
        if (!sim.model().pd.empty()) {
            series.push_back({"PD |b - Aq|", "N", sim.lastPdResidualPerIteration(), true});
            series.push_back({"PD energy g(q)", "J", sim.lastPdEnergyPerIteration(), false});
        }
        if (!sim.model().springs.empty()) {
            series.push_back({"springs |grad F|", "N", sim.lastSpringGradientPerIteration(), true});
            series.push_back({"springs F(x)", "J", sim.lastSpringObjectivePerIteration(), false});
            addSpringEnergies(series, sim);
        }
        if (!sim.model().vbd.empty())
            series.push_back({"VBD solids G(x)", "J", sim.lastVbdObjectivePerIteration(), false});
        return series;
    };
    p.setResidualTracking = [this](bool on) { viewer_.simulation().setResidualTracking(on); };
    p.picker = this;
    p.parameters = [this] { return parameters(); };
    p.contacts = [this] {
        const World& sim = viewer_.simulation();
        if (!sim.contacts()) return std::vector<std::string>{"no object has a \"contacts\" block"};
        const std::optional<gpu::ContactStats> stats = sim.lastContactStats();
        if (!stats) return std::vector<std::string>{"no frame collected yet"};
        return describeContactStats(*stats);
    };
    return p;
}

std::vector<LiveParameter> ViewerProviders::parameters() {
    std::vector<LiveParameter> list;
    const Scene& scene = viewer_.simulation().scene();
    for (uint32_t c = 0; c < scene.cloths.size(); ++c) {
        if (scene.cloths[c].method != SolverMethod::Pbd) continue;
        for (ConstraintFamily family : {ConstraintFamily::Stretch, ConstraintFamily::Bending,
                                        ConstraintFamily::Attachment})
            if (familyParams(scene.cloths[c], family).enabled) list.push_back(familyParameter(viewer_, c, family));
        if (scene.cloths[c].tearing.enabled) list.push_back(tearParameter(viewer_, c));
    }
    // Mass-spring: the shared solver's integrator once, then each cloth.
    const auto isSpringCloth = [](const ClothObject& cloth) { return cloth.method == SolverMethod::Springs; };
    if (std::any_of(scene.cloths.begin(), scene.cloths.end(), isSpringCloth)) addSpringSolver(list, viewer_);
    for (uint32_t c = 0; c < scene.cloths.size(); ++c)
        if (isSpringCloth(scene.cloths[c])) addSpringCloth(list, viewer_, c);
    // Projective dynamics: one slider per object and family with elements
    // (a solid with a material: its E and nu below set them).
    for (const PdWeightGroup& group : viewer_.simulation().model().pd.weightGroups)
        if (group.owner.kind != PdOwner::Kind::Solid || !scene.solids[group.owner.index].material)
            list.push_back(pdParameter(viewer_, group.owner, group.family));
    for (uint32_t s = 0; s < scene.solids.size(); ++s) addSolid(list, viewer_, s);
    for (uint32_t i = 0; i < scene.colliders.size(); ++i) {
        list.push_back(colliderParameter(viewer_, i, "friction", &ColliderDesc::friction, 0.0f, 1.0f));
        list.push_back(colliderStaticFriction(viewer_, i));
        list.push_back(colliderParameter(viewer_, i, "restitution", &ColliderDesc::restitution, 0.0f, 1.0f));
        for (int axis = 0; axis < 3; ++axis) list.push_back(colliderPosition(viewer_, i, axis));
        for (int axis = 0; axis < 3; ++axis) list.push_back(colliderRotation(viewer_, i, axis));
        addColliderSize(list, viewer_, i);
    }
    return list;
}

// The nearer of the particle and the body under the ray is grabbed: a
// body hit wins over a particle that is only near the ray (not on a
// triangle it hits) and over a triangle hit farther along the ray.
bool ViewerProviders::beginPick(const Ray& ray) {
    World& sim = viewer_.simulation();
    const std::optional<PickHit> hit = sim.pick(ray);
    const std::optional<BodyPickHit> bodyHit = sim.pickBody(ray);
    const glm::vec3 direction = glm::normalize(ray.direction);
    if (bodyHit && (!hit || !hit->onTriangle || bodyHit->distance < hit->distance)) {
        particle_.reset();
        body_ = BodyDrag{bodyHit->body, bodyHit->bodyPoint, bodyHit->point};
        depth_ = bodyHit->distance;
        grabOffset_ = glm::vec3(0.0f);
        sim.dragBody(bodyHit->body, bodyHit->bodyPoint, bodyHit->point);
        return true;
    }
    if (!hit) return false;
    body_.reset();
    particle_ = hit->particle;
    depth_ = glm::dot(hit->point - ray.origin, direction);
    // A particle picked beside the ray keeps its offset, so it does not jump.
    grabOffset_ = hit->point - (ray.origin + depth_ * direction);
    sim.drag(hit->particle, hit->point);
    return true;
}

void ViewerProviders::dragTo(const Ray& ray) {
    World& sim = viewer_.simulation();
    // A reset or a scene change while the button was held ended the drag.
    const glm::vec3 target = ray.origin + depth_ * glm::normalize(ray.direction) + grabOffset_;
    if (body_ && sim.draggedBody()) sim.dragBody(body_->body, body_->bodyPoint, target);
    if (particle_ && sim.dragged()) sim.drag(*particle_, target);
}

void ViewerProviders::release() {
    if ((particle_ && viewer_.simulation().dragged()) || (body_ && viewer_.simulation().draggedBody()))
        viewer_.simulation().release();
    particle_.reset();
    body_.reset();
}

}  // namespace vksim
