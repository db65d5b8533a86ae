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


GRAVITIES = [[0, -9.81, 0], [3.0, -5.0, 1.0]]
BOUNCY = [{"type": "sphere", "position": [0, 0.28, 0.1], "radius": 0.2, "restitution": 0.6}, {"type": "plane"}]


@pytest.mark.parametrize("scene", [
    # PBD in one workgroup per object, bouncing off a sphere (its restitution
    # threshold is 2 |g| h, the copy's).
    dict(FLAG, colliders=BOUNCY),
    # PBD one dispatch per colour: the shared predict and contact passes.
    dict(FLAG, solver=dict(FLAG["solver"], pbdPath="perColour"), colliders=BOUNCY),
    # Mass-spring forces with gravity in them (springs/forces.comp).
    dict(FLAG, solver={"substeps": 4, "springs": {"integrator": "symplecticEuler"}},
         objects=[dict(FLAG["objects"][0], method="springs", springs={"stretch": 50.0})]),
    # A vertex block descent solid's adaptive guess along gravity (vbd/vbd_init.comp).
    {"solver": {"substeps": 2, "vbd": {"iterations": 2}},
     "objects": [{"type": "tetBox", "name": "box", "method": "vbd", "cells": [2, 1, 1], "size": [0.4, 0.2, 0.2],
                  "position": [0, 0.3, 0], "material": {"youngsModulus": 1e5}}],
     "colliders": [{"type": "plane"}]},
])
def test_each_copy_falls_by_its_own_gravity(scene):
    """/solver/gravity varied: each copy bit for bit the World of its gravity."""
    batch = vksim.Batch(scene, 2, vary={"/solver/gravity": GRAVITIES}, validate=True)
    batch.step(8)
    hashes = batch.state_hashes()
    assert len(set(hashes)) == 2
    for c, g in enumerate(GRAVITIES):
        world = vksim.World(with_values(scene, {"/solver/gravity": g}))
        world.step(8)
        assert world.state_hash() == hashes[c], f"copy {c}"
        assert np.array_equal(world.velocities(), batch.velocities()[c])
    assert batch.validation_messages == 0


# A small cloth dropped onto a larger one, both with contacts: every copy in
# the same place, so a pair across copies would show at once.
DROP = {
    "solver": {"substeps": 2, "iterations": 4},
    "objects": [
        {"type": "cloth", "name": "below", "size": [0.4, 0.4], "resolution": [8, 8], "position": [0, 0.3, 0],
         "pinned": [[0, 0], [-1, 0], [0, -1], [-1, -1]], "contacts": {"thickness": 0.02}},
        {"type": "cloth", "name": "above", "size": [0.3, 0.3], "resolution": [6, 6], "position": [0, 0.36, 0],
         "contacts": {"thickness": 0.02, "self": True}},
    ],
    "colliders": [{"type": "plane"}],
}


@pytest.mark.parametrize("scene", [
    DROP,
    # The upper cloth a mass-spring one by vertex block descent: each copy's
    # contact particles lie in two solvers' ranges.
    dict(DROP, solver={"substeps": 2, "iterations": 4, "springs": {"integrator": "vbd", "vbdIterations": 3}},
         objects=[DROP["objects"][0], dict(DROP["objects"][1], method="springs", springs={"stretch": 50.0})]),
    # Vertex-triangle contacts besides the pairs: each copy's triangles search
    # its own part of the grid and colour as its world's.
    dict(DROP, objects=[dict(o, contacts=dict(o["contacts"], triangles=True)) for o in DROP["objects"]]),
])
def test_contacts_stay_within_a_copy(scene):
    vary = {"/objects/1/mass": [0.05, 0.3], "/solver/gravity": [[0, -9.81, 0], [1.0, -6.0, 0]]}
    batch = vksim.Batch(scene, 2, vary=vary, validate=True)
    batch.step(8)
    hashes = batch.state_hashes()
    for c in range(2):
        values = {k: v[c] for k, v in vary.items()}
        world = vksim.World(with_values(scene, values))
        world.step(8)
        assert world.state_hash() == hashes[c], f"copy {c}"
        assert np.array_equal(world.velocities(), batch.velocities()[c])
    # The contacts mattered: without them the copy falls otherwise.
    apart = copy.deepcopy(with_values(scene, {k: v[0] for k, v in vary.items()}))
    for o in apart["objects"]:
        del o["contacts"]
    world = vksim.World(apart)
    world.step(8)
    assert world.state_hash() != hashes[0]
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
    (FLAG, 2, {"/solver/damping": [0.0, 0.1]},
     '<dict>: batch: vary "/solver/damping": the copies share /solver (one World\'s step and dispatches for all); '
     'of /solver only "/solver/gravity" varies per copy'),
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
    (os.path.join(SCENES, "springs_flag.json"), 2, None,
     "batch: /solver/springs/integrator: implicit Euler's Jacobi weights and line search are the whole system's"),
])
def test_what_a_batch_refuses(scene, count, vary, message):
    with pytest.raises(ValueError) as raised:
        vksim.Batch(scene, count, vary=vary)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)
