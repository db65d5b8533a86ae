"""vksim.Batch (docs/python.md): copies of a scene in one world, each
stepping exactly as a World of that copy alone, validation on."""
import copy
import os

import numpy as np
import pytest

import vksim

SCENES = os.environ.get("VKSIM_SCENES", os.path.join(os.path.dirname(__file__), "..", "..", "scenes"))

FLAG = {
    "solver": {"substeps": 2, "iterations": 4},
    "objects": [{"type": "cloth", "name": "flag", "size": [0.4, 0.4], "resolution": [8, 8],
                 "position": [0, 0.5, 0], "pinned": [[0, 0], [-1, 0]]}],
    "colliders": [{"type": "sphere", "position": [0, 0.1, 0.2], "radius": 0.2}, {"type": "plane"}],
}


def with_values(scene, values):
    """The scene with `values` ({pointer: value}) set, as one copy of a batch sees it."""
    scene = copy.deepcopy(scene)
    for pointer, value in values.items():
        keys = pointer.strip("/").split("/")
        node = scene
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
        node[keys[-1]] = value
    return scene


@pytest.mark.parametrize("scene, vary", [
    (FLAG, {"/objects/0/stretch/stiffness": [1.0, 0.3, 0.6], "/objects/0/mass": [0.1, 0.2, 0.05]}),
    # A mass-spring cloth by vertex block descent, its stretch varied.
    (dict(FLAG, solver={"substeps": 4, "springs": {"integrator": "vbd", "vbdIterations": 4}},
          objects=[dict(FLAG["objects"][0], method="springs")]),
     {"/objects/0/springs/stretch": [200.0, 50.0, 800.0]}),
])
def test_each_copy_is_the_world_of_its_values(scene, vary):
    count = len(next(iter(vary.values())))
    batch = vksim.Batch(scene, count, vary=vary, validate=True)
    batch.step(15)
    assert batch.positions().shape == (count, 64, 3) and batch.positions().dtype == np.float32
    hashes = batch.state_hashes()
    assert len(set(hashes)) == count  # the values differ, and so do the copies
    for c in range(count):
        world = vksim.World(with_values(scene, {k: v[c] for k, v in vary.items()}), validate=True)
        world.step(15)
        assert world.state_hash() == hashes[c]
        assert np.array_equal(world.positions(), batch.positions()[c])
        assert np.array_equal(world.velocities(), batch.velocities()[c])
        assert world.validation_messages == 0
    assert batch.validation_messages == 0


def test_many_copies_of_a_shipped_scene_step_as_one():
    """64 copies of the default scene's cloth at 24 x 24: the first and the
    last as the scene alone."""
    scene = os.path.join(SCENES, "cloth_sphere.json")
    batch = vksim.Batch(scene, 64, vary={"/objects/0/resolution": [[24, 24]] * 64})
    batch.step(8)
    hashes = batch.state_hashes()
    assert len(set(hashes)) == 1 and batch.count == 64 and batch.particles_per_copy == 576
    text = open(scene).read()
    import json
    import re
    alone = with_values(json.loads(re.sub(r"//[^\n]*", "", text)), {"/objects/0/resolution": [24, 24]})
    world = vksim.World(alone)
    world.step(8)
    assert world.state_hash() == hashes[0]


def test_batch_state_saves_and_loads():
    a = vksim.Batch(FLAG, 4)
    a.step(5)
    saved = a.save_state()
    a.step(5)
    b = vksim.Batch(FLAG, 4)
    b.load_state(saved)
    b.step(5)
    assert b.state_hashes() == a.state_hashes() and b.frame == 10


@pytest.mark.parametrize("scene, count, vary, message", [
    (FLAG, 0, None, "<dict>: batch: count 0: expected 1 to 1048576 copies"),
    (FLAG, 2, {"/solver/gravity": [[0, -9.81, 0], [0, -1.6, 0]]},
     '<dict>: batch: vary "/solver/gravity": the copies share /solver (one World steps them together); '
     "vary the objects' keys"),
    (FLAG, 2, {"/objects/0/mass": [1.0]}, '<dict>: batch: vary "/objects/0/mass": 1 values for 2 copies'),
    (FLAG, 2, {"objects/0/mass": [1.0, 2.0]},
     '<dict>: batch: vary "objects/0/mass": not a JSON pointer ("/objects/0/mass")'),
    (FLAG, 2, {"/objects/3/mass": [1.0, 2.0]},
     '<dict>: batch: vary "/objects/3/mass": the scene has no "/objects/3"'),
    (FLAG, 2, {"/objects/0/name/first": ["a", "b"]},
     '<dict>: batch: vary "/objects/0/name/first": "/objects/0/name" is a value, not an object'),
    (FLAG, 2, {"/objects/0/mass": [1.0, -2.0]},
     "batch copy 1: <dict>: /objects/0/mass: expected a number > 0, got -2.0"),
    (os.path.join(SCENES, "rigid_pile.json"), 2, None, "batch: /bodies: a batch cannot hold rigid bodies yet"),
    (os.path.join(SCENES, "contacts_fold.json"), 2, None,
     'batch: object "folding cloth" has "contacts": the copies, in the same place, would touch'),
    (os.path.join(SCENES, "springs_flag.json"), 2, None,
     "batch: /solver/springs/integrator: implicit Euler's Jacobi weights and line search are the whole system's"),
])
def test_what_a_batch_refuses(scene, count, vary, message):
    with pytest.raises(ValueError) as raised:
        vksim.Batch(scene, count, vary=vary)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)
