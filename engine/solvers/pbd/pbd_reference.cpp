#include "solvers/pbd/pbd_reference.h"

#include <cmath>
#include <stdexcept>

#include "geometry/shared_math.h"
#include "shaders/pbd/pbd_types.h"

namespace vksim {

PbdReference::PbdReference(const PbdModelView& model, std::optional<uint32_t> clusterParticles,
                           bool workgroupContacts)
    : ReferenceSimulation(model.shared, {model.pbd.firstParticle, model.pbd.particleCount}),
      distanceGroups_(model.pbd.distanceGroups),
      bendingGroups_(model.pbd.bendingGroups),
      attachmentGroups_(model.pbd.attachmentGroups),
      tetrahedronGroups_(model.pbd.tetrahedronGroups),
      steps_(colourSteps(model)) {
    if (clusterParticles) {
        const ClusterPlan plan = buildClusterPlan(model, *clusterParticles);
        distanceSweep_ = plan.distance.sweepOf;
        bendingSweep_ = plan.bending.sweepOf;
        attachmentSweep_ = plan.attachment.sweepOf;
        tetrahedronSweep_ = plan.tetrahedron.sweepOf;
        clustered_ = true;
    }
    workgroupContacts_ = workgroupContacts;
    for (const gpu::ConstraintMaterial& m : model.pbd.materials)
        materials_.push_back({m.mode, m.stiffness, m.compliance});
    for (const gpu::DistanceConstraint& c : model.pbd.distance)
        distance_.push_back({c.p0, c.p1, c.restLength, c.material});
    for (const gpu::BendingConstraint& c : model.pbd.bending)
        bending_.push_back({c.particles, glm::dvec4(c.K), c.scale, c.material});
    for (const gpu::AttachmentConstraint& c : model.pbd.attachments)
        attachments_.push_back({glm::dvec3(glm::vec3(c.target)), c.particle, c.material, c.maxDistance});
    for (const gpu::TetrahedronConstraint& c : model.pbd.tetrahedra) {
        const gpu::ElasticMaterialRow& row = model.pbd.elasticMaterials.at(c.elasticRow);
        tetrahedra_.push_back({c.particles, glm::dvec3(glm::vec3(c.g1)), glm::dvec3(glm::vec3(c.g2)),
                               glm::dvec3(glm::vec3(c.g3)), c.g1.w, row.model, row.mu, row.lambda, c.volumeMaterial});
    }
    for (const gpu::ShapeMatchGroup& g : model.pbd.shapeMatchGroups) {
        ShapeMatch match{g, glm::dmat3(glm::dvec3(glm::vec3(g.restInverse0)), glm::dvec3(glm::vec3(g.restInverse1)),
                                       glm::dvec3(glm::vec3(g.restInverse2))),
                         {}, 0.0};
        double total = 0.0;
        for (uint32_t l = 0; l < g.particleCount; ++l) {
            match.rest.emplace_back(model.pbd.shapeMatchRest[g.firstRest + l]);
            total += match.rest.back().w;
        }
        match.inverseMass = 1.0 / total;
        shapeMatches_.push_back(std::move(match));
    }
    distanceLambdas_.resize(distance_.size());
    bendingLambdas_.resize(bending_.size());
    attachmentLambdas_.resize(attachments_.size());
    tetrahedronLambdas_.resize(tetrahedra_.size());
}

void PbdReference::checkSettings(const SolverSettings& settings) const {
    if (settings.pbd.iterations == 0) throw std::invalid_argument("PbdReference::step: needs iterations > 0");
}

// docs/physics.md §1 step 4, pass by pass as the GPU records it.
void PbdReference::solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                const SolverSettings& settings) {
    const uint32_t iterations = settings.pbd.iterations;
    for (uint32_t iteration = 0; iteration < iterations; ++iteration) {
        // The colour steps in order; on the cluster path once per sweep.
        for (uint32_t s = 0; s < (clustered_ ? kClusterSweeps : 1); ++s) {
            const std::optional<ClusterSweep> sweep =
                clustered_ ? std::optional(static_cast<ClusterSweep>(s)) : std::nullopt;
            for (const ColourStep& step : steps_) {
                projectDistance(world, params, iterations, iteration,
                                step.range(distanceGroups_, gpu::kPbdFamilyDistance), sweep);
                projectBending(world, params, iterations, iteration, step.range(bendingGroups_, gpu::kPbdFamilyBending),
                               sweep);
                projectAttachments(world, params, iterations, iteration,
                                   step.range(attachmentGroups_, gpu::kPbdFamilyAttachment), sweep);
                projectTetrahedra(world, params, iterations, iteration,
                                  step.range(tetrahedronGroups_, gpu::kPbdFamilyTetrahedron), sweep);
            }
        }
        projectShapeMatches(world, iterations);
        if (const ContactReferenceSolve* contacts = world.objectContacts())
            contacts->project(world.predicted(), world.positions(), world.inverseMasses(), settings.contactSolve,
                              workgroupContacts_ ? gpu::kContactPairsWithinObjects : gpu::kContactPairsInIterations);
        world.projectCollisions(range, params);
        world.projectFrameAttachments(range);
        world.exchangeWithBodies(range, true, params.h);
    }
    if (workgroupContacts_) world.projectContactsAfterSolve(settings);
}

// project_distance.comp: a colour, or one thread over the overflow group in
// array order. So are the other families. A cluster sweep's constraints
// are disjoint between clusters and coloured within each, so any order of
// them that keeps the colour steps' is the GPU's: the model's is one.
void PbdReference::projectDistance(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations,
                                   uint32_t iteration, ColourRange range, std::optional<ClusterSweep> sweep) {
    const std::span<glm::dvec3> p = world.predicted();
    const std::span<const double> w = world.inverseMasses();
    for (size_t j = range.first; j < range.first + range.count; ++j) {
        if (sweep && distanceSweep_[j] != *sweep) continue;
        const Distance& c = distance_[j];
        const Material& m = materials_[c.material];
        const double lambda = iteration == 0 ? 0.0 : distanceLambdas_[j];
        const ref::PairCorrection r =
            ref::solveDistance(p[c.p0], w[c.p0], p[c.p1], w[c.p1], c.restLength, m.mode,
                               ref::pbdIterationStiffness(m.stiffness, iterations), m.compliance, params.h, lambda);
        p[c.p0] += r.dp0;
        p[c.p1] += r.dp1;
        distanceLambdas_[j] = lambda + r.dLambda;
    }
}

// project_bending.comp.
void PbdReference::projectBending(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations,
                                  uint32_t iteration, ColourRange range, std::optional<ClusterSweep> sweep) {
    const std::span<glm::dvec3> x = world.predicted();
    const std::span<const double> w = world.inverseMasses();
    for (size_t j = range.first; j < range.first + range.count; ++j) {
        if (sweep && bendingSweep_[j] != *sweep) continue;
        const Bending& c = bending_[j];
        const Material& m = materials_[c.material];
        const glm::uvec4 p = c.particles;
        const double lambda = iteration == 0 ? 0.0 : bendingLambdas_[j];
        const ref::QuadCorrection r = ref::solveIsometricBending(
            x[p.x], w[p.x], x[p.y], w[p.y], x[p.z], w[p.z], x[p.w], w[p.w], c.K, c.scale, m.mode,
            ref::pbdIterationStiffness(m.stiffness, iterations), m.compliance, params.h, lambda);
        x[p.x] += r.dp0;
        x[p.y] += r.dp1;
        x[p.z] += r.dp2;
        x[p.w] += r.dp3;
        bendingLambdas_[j] = lambda + r.dLambda;
    }
}

// project_attachment.comp.
void PbdReference::projectAttachments(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations,
                                      uint32_t iteration, ColourRange range, std::optional<ClusterSweep> sweep) {
    const std::span<glm::dvec3> p = world.predicted();
    const std::span<const double> w = world.inverseMasses();
    for (size_t j = range.first; j < range.first + range.count; ++j) {
        if (sweep && attachmentSweep_[j] != *sweep) continue;
        const Attachment& c = attachments_[j];
        const Material& m = materials_[c.material];
        const double lambda = iteration == 0 ? 0.0 : attachmentLambdas_[j];
        const ref::PointCorrection r =
            ref::solveAttachment(p[c.particle], w[c.particle], c.target, c.length, m.mode,
                                 ref::pbdIterationStiffness(m.stiffness, iterations), m.compliance, params.h, lambda);
        p[c.particle] += r.dp;
        attachmentLambdas_[j] = lambda + r.dLambda;
    }
}

// project_tetrahedron.comp (pbd/project_tetrahedron.glsl).
void PbdReference::projectTetrahedra(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations,
                                     uint32_t iteration, ColourRange range, std::optional<ClusterSweep> sweep) {
    const std::span<glm::dvec3> x = world.predicted();
    const std::span<const double> w = world.inverseMasses();
    for (size_t j = range.first; j < range.first + range.count; ++j) {
        if (sweep && tetrahedronSweep_[j] != *sweep) continue;
        const Tetrahedron& c = tetrahedra_[j];
        const glm::uvec4 p = c.particles;
        const glm::dvec2 lambda = iteration == 0 ? glm::dvec2(0.0) : tetrahedronLambdas_[j];
        const double volumeStiffness =
            c.volumeMaterial == gpu::kNoVolumeConstraint
                ? -1.0
                : ref::pbdIterationStiffness(materials_[c.volumeMaterial].stiffness, iterations);
        const ref::TetProjection r = ref::solveTetrahedron(x[p.x], w[p.x], x[p.y], w[p.y], x[p.z], w[p.z], x[p.w],
                                                           w[p.w], c.g1, c.g2, c.g3, c.volume, c.model, c.mu,
                                                           c.lambda, volumeStiffness, params.h, lambda.x, lambda.y);
        x[p.x] = r.x0;
        x[p.y] = r.x1;
        x[p.z] = r.x2;
        x[p.w] = r.x3;
        tetrahedronLambdas_[j] = glm::dvec2(r.lambdaDeviatoric, r.lambdaHydrostatic);
    }
}

// project_shape_match.glsl, group by group: the sums in double, in
// particle order (the GPU adds them by a fixed tree in float).
void PbdReference::projectShapeMatches(ReferenceWorld& world, uint32_t iterations) {
    const std::span<glm::dvec3> p = world.predicted();
    const std::span<const double> w = world.inverseMasses();
    for (const ShapeMatch& match : shapeMatches_) {
        const uint32_t first = match.group.firstParticle;
        glm::dvec3 c(0.0);
        for (size_t l = 0; l < match.rest.size(); ++l) c += match.rest[l].w * p[first + l];
        c *= match.inverseMass;
        glm::dmat3 Apq(0.0);
        for (size_t l = 0; l < match.rest.size(); ++l)
            Apq += glm::outerProduct(match.rest[l].w * (p[first + l] - c), glm::dvec3(match.rest[l]));
        const glm::dmat3 T = ref::shapeMatchTransform(Apq, match.restInverse, match.group.mode, match.group.beta);
        const double k = ref::pbdIterationStiffness(match.group.stiffness, iterations);
        for (size_t l = 0; l < match.rest.size(); ++l)
            if (w[first + l] != 0.0)
                p[first + l] += ref::shapeMatchCorrection(p[first + l], c, T, glm::dvec3(match.rest[l]), k);
    }
}

std::vector<glm::dvec3> PbdReference::predictedPositions(const SolverSettings& settings) const {
    return world_.predictedPositions(range(world_), settings);
}

std::optional<double> PbdReference::xpbdObjective(std::span<const glm::dvec3> predicted, double h) const {
    if ((distance_.empty() && bending_.empty() && attachments_.empty() && tetrahedra_.empty()) ||
        !shapeMatches_.empty())
        return std::nullopt;
    const std::span<const glm::dvec3> x = world_.positions();
    const std::span<const double> w = world_.inverseMasses();
    bool defined = true;
    auto energy = [&](double C, uint32_t material) {
        const Material& m = materials_[material];
        defined = defined && m.mode == gpu::kModeXpbd && m.compliance > 0.0;
        return defined ? C * C / (2.0 * m.compliance) : 0.0;
    };
    double sum = 0.0;
    for (size_t i = 0; i < x.size(); ++i)
        if (w[i] > 0.0) {
            const glm::dvec3 d = x[i] - predicted[i];
            sum += glm::dot(d, d) / (2.0 * w[i] * h * h);
        }
    for (const Distance& c : distance_) sum += energy(glm::length(x[c.p0] - x[c.p1]) - c.restLength, c.material);
    for (const Bending& c : bending_) {
        const glm::dvec3 e = ref::isometricBendingVector(x[c.particles.x], x[c.particles.y], x[c.particles.z],
                                                         x[c.particles.w], c.K);
        sum += energy(0.5 * c.scale * glm::dot(e, e), c.material);
    }
    for (const Attachment& c : attachments_)
        sum += energy(std::max(glm::length(x[c.particle] - c.target) - c.length, 0.0), c.material);
    for (const Tetrahedron& c : tetrahedra_) {
        defined = defined && c.volumeMaterial == gpu::kNoVolumeConstraint;
        const glm::uvec4 p = c.particles;
        sum += ref::tetElasticEnergy(x[p.x], x[p.y], x[p.z], x[p.w], c.g1, c.g2, c.g3, c.volume, c.model, c.mu,
                                     c.lambda);
    }
    if (!defined) return std::nullopt;
    return sum;
}

double PbdReference::distanceResidual() const {
    if (distance_.empty()) return 0.0;
    const std::span<const glm::dvec3> x = world_.positions();
    double sum = 0.0;
    for (const Distance& c : distance_) sum += std::abs(glm::length(x[c.p0] - x[c.p1]) - c.restLength);
    return sum / double(distance_.size());
}

glm::dvec3 PbdReference::linearMomentum() const {
    const std::span<const glm::dvec3> v = world_.velocities();
    const std::span<const double> w = world_.inverseMasses();
    glm::dvec3 momentum(0.0);
    for (size_t i = 0; i < v.size(); ++i)
        if (w[i] > 0.0) momentum += v[i] / w[i];
    return momentum;
}

}  // namespace vksim
