// Shape matching (docs/physics.md §13; Müller, Heidelberger, Teschner and
// Gross 2005, "Meshless Deformations Based on Shape Matching"): the goal
// transform of a group from its sums, and the move of one particle towards
// its goal. Stateless; shared math: see math/real_glsl.h for the rules. Uses
// svd3 (math/svd3.glsl) and pbdIterationStiffness (pbd/pbd_constraints.glsl),
// which the includer includes first.
#ifndef VKSIM_SHAPE_MATCHING_GLSL
#define VKSIM_SHAPE_MATCHING_GLSL

// The matrix T that carries rest offsets to goal offsets, g_i = c + T r_i,
// from Apq = sum m_i (p_i - c) r_i^T and restInverse = Aqq^-1:
//   rigid:  T = R, the rotation of the polar decomposition Apq = R S. With
//           the signed SVD Apq = U S V^T (U, V rotations) R = U V^T: a
//           proper rotation even for an inverted shape (det Apq < 0) or a
//           flat one (rank 2: the third axis follows from the other two);
//   linear: T = beta A~ + (1 - beta) R, A~ = Apq Aqq^-1 / det(Apq Aqq^-1)^(1/3),
//           the best linear map scaled to keep the volume (the paper's
//           section 4.1); R alone when that map is inverted or flat.
real3x3 shapeMatchTransform(real3x3 Apq, real3x3 restInverse, uint mode, real beta) {
    Svd3 d = svd3(Apq);
    real3x3 R = d.U * transpose(d.V);
    if (mode != kShapeMatchLinear) return R;
    real3x3 A = Apq * restInverse;
    real det = determinant(A);
    if (!(det > real(1e-12))) return R;
    real3x3 Avolume = A * (real(1) / pow(det, real(1) / real(3)));
    return Avolume * beta + R * (real(1) - beta);
}

// The move of a particle at p with rest offset r towards its goal
// c + T r: the fraction k of the way (k from pbdIterationStiffness, so that
// n_s iterations leave (1 - stiffness) of the distance to a fixed goal).
real3 shapeMatchCorrection(real3 p, real3 c, real3x3 T, real3 r, real k) {
    return (c + T * r - p) * k;
}

#endif
