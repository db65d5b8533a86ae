"""The Python module (docs/python.md) on lavapipe, validation on: every world
a test builds must end with no validation message."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import vksim

SCENES = os.environ.get("VKSIM_SCENES", os.path.join(os.path.dirname(__file__), "..", "..", "scenes"))
FOLD = os.path.join(SCENES, "contacts_fold.json")

# A small cloth pinned at two corners over the ground, as a dict.
PINNED = {
    "solver": {"substeps": 2, "iterations": 4},
    "objects": [{"type": "cloth", "name": "flag", "size": [0.4, 0.4], "resolution": [8, 8],
                 "position": [0, 0.5, 0], "pinned": [[0, 0], [-1, 0]]}],
    "colliders": [{"type": "plane"}],
}


@pytest.fixture
def worlds():
    """Builds worlds with validation on, and checks that none reported a message."""
    built = []

    def build(scene, **kwargs):
        world = vksim.World(scene, validate=True, **kwargs)
        built.append(world)
        return world

    yield build
    for world in built:
        assert world.validation_messages == 0


def test_devices_lists_a_usable_device():
    devices = vksim.devices()
    assert any(d["usable"] for d in devices)
    assert {"index", "name", "type", "usable"} <= set(devices[0])


def test_shared_device_contexts_outlive_each_other_and_exit_cleanly():
    """A process whose worlds' shared contexts (docs/python.md) outlive the
    instance vksim.devices() makes, and one kept alive past the interpreter's
    exit handlers, exits with status 0 (it crashed in the context's
    teardown, calling a debug-utils function of the last instance loaded)."""
    script = (
        "import sys, vksim\n"
        f"scene = {PINNED!r}\n"
        "checked = vksim.World(scene, validate=True)\n"
        "plain = vksim.World(scene)\n"
        "vksim.devices()\n"
        "checked.step(2)\n"
        "sys.modules['__main__'].kept = [checked, plain]\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_steps_and_reads_the_state(worlds):
    w = worlds(FOLD)
    assert w.frame == 0 and w.time == 0.0
    x0 = w.positions()
    assert x0.shape == (w.particle_count, 3) and x0.dtype == np.float32
    w.step(5)
    assert w.frame == 5
    assert w.time == pytest.approx(5 / 60, rel=1e-5)
    x = w.positions()
    assert x[:, 1].mean() < x0[:, 1].mean()  # it falls
    assert np.isfinite(w.velocities()).all()
    assert "step total" in w.timings()


def test_state_hash_equals_the_command_line(worlds):
    w = worlds(FOLD)
    w.step(12)
    executable = os.environ.get("VKSIM_EXECUTABLE")
    if not executable:
        pytest.skip("VKSIM_EXECUTABLE not set (CTest sets it)")
    out = subprocess.run([executable, FOLD, "--frames", "12", "--headless", "--hash", "--quiet"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "state-hash: " + w.state_hash()


def test_a_dict_scene_and_two_worlds_agree(worlds):
    a, b = worlds(PINNED), worlds(PINNED)
    a.step(20)
    b.step(20)
    assert a.state_hash() == b.state_hash()
    assert list(a.objects) == ["flag"]
    flag = a.objects["flag"]
    assert flag["first"] == 0 and flag["count"] == 64
    assert flag["triangles"].shape == (2 * 7 * 7, 3)
    assert flag["triangles"].max() == 63
    assert flag["pinned"].dtype == bool and flag["pinned"].shape == (64,)
    assert list(np.flatnonzero(flag["pinned"])) == [0, 7]  # the two corners of row 0

def test_objects_that_start_inside_one_another_warn(worlds):
    """Two contact cloths 5 mm apart, inside their 2 cm contact distance: a
    UserWarning naming both, as the command line's model summary does; none
    at 5 cm."""
    def two_cloths(gap):
        cloth = {"type": "cloth", "size": [0.2, 0.2], "resolution": [4, 4],
                 "contacts": {"thickness": 0.01}}
        return {"objects": [dict(cloth, name="lower", position=[0, 0.5, 0]),
                            dict(cloth, name="upper", position=[0, 0.5 + gap, 0])]}

    with pytest.warns(UserWarning, match="16 pairs of contact particles start inside .* 'lower' and 'upper'"):
        worlds(two_cloths(0.005))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        worlds(two_cloths(0.05))


def test_worlds_on_one_device_step_on_several_threads(worlds):
    """Worlds on one device share its context (docs/python.md): four built
    on it step at once on four threads, the GIL released, and each ends in
    the state a world stepped alone gives."""
    import threading
    alone = worlds(PINNED)
    alone.step(30)
    together = [worlds(PINNED) for _ in range(4)]
    threads = [threading.Thread(target=w.step, args=(30,)) for w in together]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [w.state_hash() for w in together] == [alone.state_hash()] * 4


def test_bodies_fall_and_turn(worlds):
    w = worlds(os.path.join(SCENES, "rigid_pile.json"))
    start = w.bodies()
    k = len(start["names"])
    assert k > 0
    assert start["position"].shape == (k, 3) and start["rotation"].shape == (k, 4)
    assert start["position"].dtype == np.float32
    assert np.allclose(np.linalg.norm(start["rotation"], axis=1), 1.0, atol=1e-5)
    w.step(10)
    after = w.bodies()
    assert after["linear_velocity"][:, 1].min() < 0.0  # something falls
    assert not np.array_equal(after["position"], start["position"])


def test_set_positions_and_velocities(worlds):
    w = worlds(PINNED)
    x = w.positions()
    x[:, 1] += 0.25
    w.set_positions(x)
    assert np.array_equal(w.positions(), x)
    v = np.ones((w.particle_count, 3), np.float32)
    w.set_velocities(v)
    after = w.velocities()
    pinned = np.all(after == 0.0, axis=1)
    assert pinned.sum() == 2  # the two pinned corners stay at rest
    assert np.array_equal(after[~pinned], v[~pinned])
    w.step(1)
    assert np.isfinite(w.positions()).all()


@pytest.mark.parametrize("scene, error, message", [
    ({"objects": [{"type": "cloth", "resolution": [1, 4]}]}, ValueError,
     "<dict>: /objects/0/resolution/0: expected an integer in [2, 4096], got 1"),
    ("no_such_scene.json", ValueError, "no_such_scene.json: cannot open file: No such file or directory"),
    (3, TypeError, "vksim.World: scene must be a path or a dict in the scene format"),
])
def test_a_bad_scene_raises_one_clear_line(scene, error, message):
    with pytest.raises(error) as raised:
        vksim.World(scene)
    assert str(raised.value) == message


def test_wrong_arrays_raise_and_change_nothing(worlds):
    w = worlds(PINNED)
    before = w.positions()
    with pytest.raises(ValueError, match=r"expected shape \(64, 3\), got \(3, 3\)"):
        w.set_positions(np.zeros((3, 3), np.float32))
    with pytest.raises(TypeError, match="expected a float32 array, got float64"):
        w.set_positions(np.zeros((64, 3)))
    bad = before.copy()
    bad[5, 0] = np.nan
    with pytest.raises(ValueError, match="row 5 is not finite"):
        w.set_velocities(bad)
    assert np.array_equal(w.positions(), before)


def test_dropped_worlds_free_their_device_memory():
    """200 worlds built, stepped and dropped (deleted or collected): the
    process's live device allocations return to where they were."""
    import gc
    before = vksim.device_memory()
    for k in range(200):
        w = vksim.World(PINNED)
        w.step(1)
        if k == 0:
            held = vksim.device_memory()
            assert held["allocations"] > before["allocations"] and held["bytes"] > before["bytes"]
        if k % 2:
            del w  # freed at once
        else:
            cycle = [w]
            cycle.append(cycle)  # freed by the garbage collector
            del w, cycle
            gc.collect()
    assert vksim.device_memory() == before


def test_save_and_load_state_bit_for_bit(worlds):
    a = worlds(os.path.join(SCENES, "rigid_cloth_ride.json"))
    a.step(8)
    saved = a.save_state()
    assert isinstance(saved, bytes) and saved.startswith(b"VKSIMST")
    a.step(5)
    b = worlds(os.path.join(SCENES, "rigid_cloth_ride.json"))
    b.load_state(saved)
    assert b.frame == 8
    b.step(5)
    assert b.frame == a.frame == 13
    assert b.state_hash() == a.state_hash()
    assert np.array_equal(b.positions(), a.positions()) and np.array_equal(b.velocities(), a.velocities())
    for key in ("position", "rotation", "linear_velocity", "angular_velocity"):
        assert np.array_equal(b.bodies()[key], a.bodies()[key])
    assert b.save_state() == a.save_state()


def test_a_bad_state_raises_and_changes_nothing(worlds):
    w = worlds(PINNED)
    w.step(2)
    before = w.state_hash()
    other = vksim.World(FOLD).save_state()
    with pytest.raises(ValueError, match=r"^vksim.World.load_state: a state of another model \(1 object\(s\) \(folding cloth\), 2304 "):
        w.load_state(other)
    saved = w.save_state()
    for at in (9, 100, len(saved) // 2, len(saved) - 3):  # the version, a length, the positions, the checksum
        with pytest.raises(ValueError, match="(checksum does not match|of format version)"):
            w.load_state(saved[:at] + bytes([saved[at] ^ 1]) + saved[at + 1:])
    with pytest.raises(ValueError, match="damaged or truncated"):
        w.load_state(saved[:-1])
    with pytest.raises(ValueError, match="not a vksim state"):
        w.load_state(b"hello")
    assert w.state_hash() == before and w.frame == 2


def test_set_solver_takes_the_scene_keys(worlds):
    a, b = worlds(PINNED), worlds(PINNED)
    b.set_solver(substeps=4, iterations=8, pbdPath="perColour")
    a.step(10)
    b.step(10)
    assert a.state_hash() != b.state_hash()
    c = worlds(dict(PINNED, solver={"substeps": 4, "iterations": 8, "pbdPath": "perColour"}))
    c.step(10)
    assert c.state_hash() == b.state_hash()  # the same as a world loaded with those settings
    with pytest.raises(ValueError) as raised:
        b.set_solver(substeps=0)
    assert str(raised.value) == "vksim.World.set_solver: /solver/substeps: expected an integer in [1, 1000], got 0"
    with pytest.raises(ValueError, match=r"/solver/substep: unknown key \"substep\" \(did you mean \"substeps\"\?\)"):
        b.set_solver(substep=3)


def test_set_material_on_each_kind_of_object(worlds):
    pbd = worlds(PINNED)
    stiff = worlds(PINNED)
    pbd.set_material("flag", stretch=0.2, bending=0.5)
    pbd.step(20)
    stiff.step(20)

    def mean_edge(w):
        x, t = w.positions(), w.objects["flag"]["triangles"]
        return np.linalg.norm(x[t[:, [1, 2, 0]]] - x[t], axis=2).mean()

    assert mean_edge(pbd) > 1.01 * mean_edge(stiff)  # the softer cloth stretches more as it hangs
    springs = worlds(os.path.join(SCENES, "springs_cloth.json"))
    springs.set_material(list(springs.objects)[0], stretch=500.0, drag=0.1)
    springs.step(2)
    pd = worlds(os.path.join(SCENES, "pd_bar.json"))
    pd.set_material(list(pd.objects)[0], strain=2e4)
    pd.step(2)
    with pytest.raises(ValueError) as raised:
        pbd.set_material("flag", stiffness=0.5)
    assert str(raised.value) == ('vksim.World.set_material: PBD cloth "flag" has no material "stiffness" '
                                 '(it has attachment, bending, stretch)')
    with pytest.raises(ValueError, match=r'no cloth or solid is named "cape" \(the scene\'s: flag\)'):
        pbd.set_material("cape", stretch=0.5)
    with pytest.raises(ValueError, match="vksim.World.set_material: "):
        pbd.set_material("flag", stretch=-1.0)


def test_pick_and_drag(worlds):
    w = worlds(PINNED)
    particle = w.pick(np.array([0.2, 2.0, 0.2], np.float32), np.array([0, -1, 0], np.float32))
    assert particle is not None
    target = np.array([0.2, 1.0, 0.2], np.float32)
    w.drag(particle, target)
    w.step(30)
    assert np.linalg.norm(w.positions()[particle] - target) < 0.05
    w.release()
    with pytest.raises(ValueError, match="out of range"):
        w.drag(10_000, target)
    assert w.pick(np.array([5, 5, 5], np.float32), np.array([0, 1, 0], np.float32)) is None


def test_tracked_residuals_and_energies(worlds):
    w = worlds(dict(PINNED, solver={"substeps": 2, "iterations": 6}))
    with pytest.raises(ValueError, match="tracking is off"):
        w.residuals()
    w.tracking = True
    w.step(3)
    pbd = w.residuals()["pbd"]
    assert len(pbd) == 6 and pbd[-1] < pbd[0]  # the iterations reduce |C|
    pd = worlds(os.path.join(SCENES, "pd_bar.json"))
    pd.tracking = True
    pd.step(2)
    energy = pd.energies()["pd"]
    assert len(energy) > 1 and energy[-1] <= energy[0]  # each global step lowers the objective


def test_export_writes_the_surface(worlds, tmp_path):
    w = worlds(PINNED)
    w.step(3)
    path = tmp_path / "flag.obj"
    w.export(str(path))
    lines = path.read_text().splitlines()
    vertices = np.array([[float(c) for c in l.split()[1:]] for l in lines if l.startswith("v ")], np.float32)
    assert np.array_equal(vertices, w.positions())  # 9 significant digits read back to the same floats
    assert sum(l.startswith("f ") for l in lines) == 2 * 7 * 7
    w.export(str(tmp_path / "flag.ply"), object="flag")
    assert (tmp_path / "flag.ply").read_bytes().startswith(b"ply\n")
    with pytest.raises(ValueError, match="expected a file name ending in .obj or .ply"):
        w.export(str(tmp_path / "flag.stl"))


def test_export_writes_the_torn_surface(worlds, tmp_path):
    # A flag torn off its pole splits vertices: the file holds the surface
    # of the moment, the triangles it dropped left out and those moved to
    # split particles (past its 600 vertices) naming them.
    w = worlds(os.path.join(SCENES, "flag_storm.json"))
    w.step(45)
    path = tmp_path / "silk.obj"
    w.export(str(path))
    lines = path.read_text().splitlines()
    faces = np.array([[int(c.split("/")[0]) - 1 for c in l.split()[1:]] for l in lines if l.startswith("f ")])
    assert sum(l.startswith("v ") for l in lines) == w.particle_count  # the spare particles too
    assert 0 < len(faces) <= 29 * 19 * 2
    assert faces.max() >= 30 * 20  # a split particle
    assert all(len(set(f)) == 3 for f in faces)


def test_progress_bar_when_asked(worlds, capfd):
    w = worlds(PINNED)
    w.step(3, progress=True)
    err = capfd.readouterr().err
    assert "3/3 frames 100%" in err and err.endswith("\r\033[K")  # the bar, erased at the end
    w.step(3, progress=False)
    assert capfd.readouterr().err == ""
