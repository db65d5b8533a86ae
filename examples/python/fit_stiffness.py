"""Recover a cloth's stretch stiffness from a measured sag with SciPy's
least_squares (docs/python.md, "Examples").

A mass-spring cloth pinned along its whole border sags under gravity; the
sag at rest depends on the stiffness k of its stretch springs. The
"measurement" is the sag a world with a known k settles to; the fit then
finds the k whose sag matches it, stepping one world per evaluation from the
same saved initial state (load_state) with set_material.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/fit_stiffness.py
"""
import argparse

import numpy as np
from scipy.optimize import least_squares

import vksim

SIDE = 10  # particles per side


def trampoline():
    border = [[i, j] for i in range(SIDE) for j in range(SIDE) if i in (0, SIDE - 1) or j in (0, SIDE - 1)]
    return {
        "name": "trampoline",
        "solver": {"substeps": 8, "gravity": [0, -9.81, 0], "springs": {"integrator": "symplecticEuler"}},
        "objects": [{
            "type": "cloth", "name": "sheet", "method": "springs",
            "size": [0.5, 0.5], "resolution": [SIDE, SIDE], "position": [0, 1, 0], "mass": 0.2,
            "pinned": border,
            "springs": {"stretch": 100.0, "shear": 20.0, "bending": {"model": "springs", "stiffness": 1.0}},
            "drag": 0.01,
        }],
    }


class SagModel:
    """The sag [m] the sheet settles to, as a function of its stretch k [N/m]."""

    def __init__(self, frames):
        self.world = vksim.World(trampoline())
        self.start = self.world.save_state()
        self.frames = frames
        self.evaluations = 0

    def sag(self, k):
        self.world.load_state(self.start)  # every evaluation from the same initial state
        self.world.set_material("sheet", stretch=float(k))
        self.world.step(self.frames)
        self.evaluations += 1
        return 1.0 - float(self.world.positions()[:, 1].min())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--true-stiffness", type=float, default=60.0, help="k of the measurement [N/m]")
    parser.add_argument("--guess", type=float, default=200.0, help="where the fit starts [N/m]")
    parser.add_argument("--frames", type=int, default=150, help="frames to settle (2.5 s)")
    args = parser.parse_args()

    model = SagModel(args.frames)
    measured = model.sag(args.true_stiffness)
    # Fit log k: the sag falls like k^(-1/3), so log k is the better scaled unknown.
    fit = least_squares(lambda log_k: [model.sag(np.exp(log_k[0])) - measured], [np.log(args.guess)],
                        diff_step=1e-3, xtol=1e-10, ftol=1e-12)
    k = float(np.exp(fit.x[0]))
    error = abs(k - args.true_stiffness) / args.true_stiffness
    print(f"measured sag {measured * 1000:.3f} mm at k = {args.true_stiffness:g} N/m; "
          f"fitted k = {k:.4f} N/m from {args.guess:g} (relative error {error:.2e}) "
          f"in {model.evaluations - 1} simulations")
    return error


if __name__ == "__main__":
    main()
