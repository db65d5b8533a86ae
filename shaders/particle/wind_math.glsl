// The wind on cloth (docs/physics.md §15): the air's velocity, a mean wind
// plus seeded gusts, and the aerodynamic drag and lift on one triangle.
// Shared math (math/real_glsl.h): the CPU reference evaluates the same
// functions in double precision.
#ifndef VKSIM_WIND_MATH_GLSL
#define VKSIM_WIND_MATH_GLSL

// The "pcg" integer hash of Jarzynski & Olano 2020 ("Hash functions for GPU
// rendering"): every input bit reaches every output bit.
uint windHash(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// A lattice point's gust, three components in [-1, 1] from one hash (10 bits
// each); the primes spread neighbouring points over the hash's input.
real3 windLatticeGust(int x, int y, int z, int t, uint seed) {
    uint h = windHash(uint(x) * 73856093u + uint(y) * 19349663u + uint(z) * 83492791u + uint(t) * 2654435761u +
                      seed * 2246822519u);
    return real3(real(h & 1023u), real((h >> 10u) & 1023u), real((h >> 20u) & 1023u)) / real(511.5) - real(1);
}

// Value noise in space and time: the lattice gusts of the 16 corners of the
// cell around (p, t), blended by the smoothstep of the position within it
// (continuous, with a continuous first derivative within a cell).
real windFade(real f) { return f * f * (real(3) - real(2) * f); }

real3 windGustNoise(real3 p, real t, uint seed) {
    real3 c = floor(p);
    real ct = floor(t);
    real3 f = real3(windFade(p.x - c.x), windFade(p.y - c.y), windFade(p.z - c.z));
    real ft = windFade(t - ct);
    real3 sum = real3(0);
    for (int k = 0; k < 16; ++k) {
        int dx = k & 1, dy = (k >> 1) & 1, dz = (k >> 2) & 1, dt = (k >> 3) & 1;
        real weight = (dx == 1 ? f.x : real(1) - f.x) * (dy == 1 ? f.y : real(1) - f.y) *
                      (dz == 1 ? f.z : real(1) - f.z) * (dt == 1 ? ft : real(1) - ft);
        sum += weight * windLatticeGust(int(c.x) + dx, int(c.y) + dy, int(c.z) + dz, int(ct) + dt, seed);
    }
    return sum;
}

// The air's velocity at x and time t: the mean wind U plus the gusts, a
// field of noise carried along by U (Taylor's frozen turbulence) that also
// changes in place over `period` seconds. No gusts: U exactly.
real3 windAirVelocity(real3 x, real t, real3 wind, real strength, real scale, real period, uint seed) {
    if (strength <= real(0)) return wind;
    return wind + strength * windGustNoise((x - t * wind) / scale, t / period, seed);
}

// The aerodynamic force on a triangle of unnormalised normal N = (b - a) x
// (c - a) (|N| = 2A) in air of relative velocity r = u - v (the air's
// velocity at the triangle less the triangle's), n = N/|N|:
//   drag  F_d = 1/2 rho C_d A |n.r| r                     = 1/4 rho C_d |N.r| r
//   lift  F_l = 1/2 rho C_l A (n.r) (|r|^2 n - (n.r) r)/|r| = 1/4 rho C_l (N.r) (|r|^2 N - (N.r) r) / (|N| |r|)
// The drag is along r with the area A |cos theta| the wind sees; the lift
// is across r, in the plane of r and n, of size 1/2 rho C_l A |r|^2
// cos theta sin theta. Both are the same for N and -N (two-sided), and zero
// for r = 0 or a degenerate triangle (nothing is divided by zero).
real3 windTriangleForce(real3 N, real3 r, real density, real dragCoefficient, real liftCoefficient) {
    real nr = dot(N, r);
    real3 force = real(0.25) * density * dragCoefficient * abs(nr) * r;
    real scale = sqrt(dot(N, N) * dot(r, r));
    if (liftCoefficient != real(0) && scale > real(0))
        force += (real(0.25) * density * liftCoefficient * nr / scale) * (dot(r, r) * N - nr * r);
    return force;
}

#endif
