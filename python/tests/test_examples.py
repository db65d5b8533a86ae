"""The examples of examples/python run as a user runs them (docs/python.md)."""
import os
import re
import subprocess
import sys

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python")


def run(script, *args):
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_first_script_plots_the_lowest_point(tmp_path):
    png = tmp_path / "lowest.png"
    out = run("first_script.py", "--frames", "40", "--out", str(png))
    assert re.search(r"^frames 40, t = 0\.667 s, lowest point \S+ m, state-hash [0-9a-f]{16}, plot ", out), out
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") and png.stat().st_size > 10_000


def test_stiffness_fit_recovers_the_known_stiffness():
    out = run("fit_stiffness.py", "--true-stiffness", "60", "--guess", "200")
    print(out)
    error = float(re.search(r"relative error (\S+)\)", out).group(1))
    # The measurement is the model at k itself, so the sag's resolution
    # limits the recovery: heights near 0.95 m are floats 6e-8 m apart,
    # 1.2e-6 of a 5 cm sag, and the sag goes as k^(-1/3), so 3.6e-6 of k.
    assert error < 1e-4, out


def test_sweep_runs_on_a_local_cluster_of_two_workers(tmp_path):
    """Each task a Batch on a Dask worker process; the table's hashes are
    those the same Batch gives in this process."""
    import csv

    out = run("sweep.py", "--workers", "2", "--frictions", "0.0", "1.0", "--stiffnesses", "0.2", "1.0",
              "--frames", "40", "--csv", str(tmp_path / "sweep.csv"), "--plot", str(tmp_path / "sweep.png"))
    print(out)
    assert "4 worlds in 2 tasks on 2 workers" in out
    rows = list(csv.DictReader(open(tmp_path / "sweep.csv")))
    assert [(float(r["friction"]), float(r["stiffness"])) for r in rows] == [(0, 0.2), (0, 1), (1, 0.2), (1, 1)]
    assert (tmp_path / "sweep.png").read_bytes().startswith(b"\x89PNG")
    sys.path.insert(0, EXAMPLES)
    import sweep

    here = sweep.run_task(1.0, [0.2, 1.0], 40)
    assert [r["state_hash"] for r in here] == [r["state_hash"] for r in rows[2:]]
