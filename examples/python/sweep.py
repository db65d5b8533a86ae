"""Sweep a cloth's stiffness and a collider's friction over a Dask cluster
(docs/python.md, "Sweeps on a Dask cluster").

Each task is one friction value: a vksim.Batch of the scene with one copy
per stiffness value, stepped together. The tasks run on the cluster's
workers; the results come back as a table (CSV) and a plot.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/sweep.py            # a LocalCluster of 2 workers
    PYTHONPATH=build/python /usr/bin/python3 examples/python/sweep.py --scheduler tcp://host:8786
"""
import argparse
import csv

import numpy as np


def draped_cloth(friction):
    """A 0.8 m cloth dropped over a ball whose friction is `friction`."""
    return {
        "name": "drape",
        "solver": {"substeps": 4, "iterations": 8},
        "objects": [{"type": "cloth", "name": "cloth", "size": [0.8, 0.8], "resolution": [16, 16],
                     "position": [0.0, 0.65, 0.0], "mass": 0.2}],
        "colliders": [{"type": "sphere", "name": "ball", "position": [0, 0.3, 0], "radius": 0.3,
                       "friction": friction},
                      {"type": "plane", "name": "ground", "friction": 0.5}],
    }


def run_task(friction, stiffnesses, frames):
    """One task: every stiffness at this friction, in one Batch. Returns rows."""
    import vksim  # imported on the worker

    batch = vksim.Batch(draped_cloth(friction), len(stiffnesses),
                        vary={"/objects/0/stretch/stiffness": list(stiffnesses),
                              "/objects/0/bending/stiffness": list(stiffnesses)})
    batch.step(frames)
    heights = batch.positions()[:, :, 1].mean(axis=1)  # each copy's mean height [m]
    return [{"friction": friction, "stiffness": k, "mean_height": float(h), "state_hash": s}
            for k, h, s in zip(stiffnesses, heights, batch.state_hashes())]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scheduler", help="a running Dask scheduler's address; default: a LocalCluster")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers")
    parser.add_argument("--frictions", type=float, nargs="+", default=[0.0, 0.2, 0.5, 1.0])
    parser.add_argument("--stiffnesses", type=float, nargs="+", default=list(np.linspace(0.05, 1.0, 8)))
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--csv", default="sweep.csv")
    parser.add_argument("--plot", default="sweep.png")
    args = parser.parse_args()

    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        # Processes, one thread each: every worker has its own Vulkan device.
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                     dashboard_address=None))
    with client:
        futures = [client.submit(run_task, f, args.stiffnesses, args.frames, pure=False) for f in args.frictions]
        rows = [row for future in futures for row in future.result()]
        workers = len(client.scheduler_info()["workers"])

    with open(args.csv, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

    print(f"{len(rows)} worlds in {len(args.frictions)} tasks on {workers} workers; mean height [m] after "
          f"{args.frames} frames:")
    print("friction \\ stiffness " + " ".join(f"{k:7.3f}" for k in args.stiffnesses))
    for f in args.frictions:
        heights = [r["mean_height"] for r in rows if r["friction"] == f]
        print(f"{f:20.2f} " + " ".join(f"{h:7.4f}" for h in heights))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for f in args.frictions:
        ax.plot(args.stiffnesses, [r["mean_height"] for r in rows if r["friction"] == f], marker="o",
                label=f"friction {f:g}")
    ax.set_xlabel("stretch and bending stiffness (PBD)")
    ax.set_ylabel("mean height of the cloth [m]")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.plot, dpi=100)
    print(f"table {args.csv}, plot {args.plot}")


if __name__ == "__main__":
    main()
