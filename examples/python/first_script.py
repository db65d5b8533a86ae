"""A first vksim script: load the default scene, step it, and plot the
cloth's lowest point against time (docs/python.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/first_script.py --out lowest.png
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")  # no display needed: the plot goes to a file
import matplotlib.pyplot as plt

import vksim

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCENE = os.path.join(HERE, "..", "..", "scenes", "cloth_sphere.json")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default=DEFAULT_SCENE)
    parser.add_argument("--frames", type=int, default=180)
    parser.add_argument("--out", default="lowest_point.png")
    args = parser.parse_args()

    world = vksim.World(args.scene)
    cloth = world.objects["cloth"]
    first, count = cloth["first"], cloth["count"]
    times, lowest = [], []
    for _ in range(args.frames):
        world.step()
        times.append(world.time)
        lowest.append(float(world.positions()[first:first + count, 1].min()))

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(times, lowest)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("lowest point of the cloth [m]")
    ax.set_title(f"{os.path.basename(args.scene)}: {args.frames} frames")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"frames {world.frame}, t = {world.time:.3f} s, lowest point {min(lowest):.4f} m, "
          f"state-hash {world.state_hash()}, plot {args.out}")


if __name__ == "__main__":
    main()
