"""The Python module (docs/python.md) on lavapipe, validation on: every world
a test builds must end with no validation message."""
import os
import subprocess

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


def test_worlds_come_and_go(worlds):
    for _ in range(20):
        w = vksim.World(PINNED)
        w.step(1)
        del w
    assert worlds(PINNED).particle_count == 64
