#!/usr/bin/env bash
# Contacts between objects (docs/physics.md §14): two cloths landing on each
# other give the same state-hash in separate processes with lavapipe on 1,
# 2 and 4 threads, with --validate silent (exit 0): on the path "auto"
# picks (the cluster path here; never the workgroup path with contacts), on
# the per-colour path, on
# the workgroup path (which projects the contacts after its solve: its
# timing table has its pass and "contacts: after solve"), and with the
# Jacobi average instead of the colours; and so do three
# cloths of three solvers (contacts_solvers.json), whose pairs with a
# mass-spring or PD particle are projected after the solves, with the
# mass-spring cloth on vertex block descent and on Newton (both with the
# contact energy); and both scenes with vertex-triangle and edge-edge
# contacts ("triangles": true on every object, a quarter of the vertex
# spacing thick; the summary shows both kinds were present), and two coarse
# cloths with them, a hundredth of their spacing thick; three of them again
# with a few workgroups a dispatch (VKSIM_MAX_WORKGROUP_COUNT). The timing
# table has the contact passes (read from the runs on 1 thread, which print
# it).
# Usage: contacts_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$(dirname "$0")/contacts_pair.json
sed 's/"iterations": 4 }/"iterations": 4, "pbdPath": "perColour" }/' "$scene" > "$work/per_colour.json"
sed 's/"iterations": 4 }/"iterations": 4, "contactSolve": "jacobi" }/' "$scene" > "$work/jacobi.json"
sed 's/"iterations": 4 }/"iterations": 4, "pbdPath": "workgroup" }/' "$scene" > "$work/workgroup.json"
grep -q '"perColour"' "$work/per_colour.json" && grep -q '"jacobi"' "$work/jacobi.json" &&
  grep -q '"workgroup"' "$work/workgroup.json" || { echo "FAIL: could not edit $scene"; exit 1; }

solvers=$(dirname "$0")/contacts_solvers.json
sed 's/"contactIterations": 2,/"contactIterations": 2, "contactSolve": "jacobi",/' "$solvers" > "$work/solvers_jacobi.json"
grep -q '"jacobi"' "$work/solvers_jacobi.json" || { echo "FAIL: could not edit $solvers"; exit 1; }
sed 's/"integrator": "vbd", "vbdIterations": 4/"integrator": "implicitEuler", "newtonIterations": 2/' "$solvers" \
  > "$work/solvers_newton.json"
grep -q '"implicitEuler"' "$work/solvers_newton.json" || { echo "FAIL: could not edit $solvers"; exit 1; }
# Vertex-triangle contacts are for cloths thin against their vertex
# spacing: a quarter of it here. The three solvers' cloths, at 7 mm, pile
# up: the case whose ordering once depended on the thread count
# (docs/physics.md §14, "The constraints and their colours"), when their
# four-particle constraints overflowed their list and a particle's
# incidence list grew to about 480 entries; kept one per closest feature,
# they now fit (869 vertex-triangle and 2446 edge-edge constraints at most
# in a substep).
sed -e 's/"friction": 0.4 }/"friction": 0.4, "triangles": true }/' -e 's/"thickness": 0.01,/"thickness": 0.005,/' \
  "$scene" > "$work/triangles.json"
sed -e 's/"friction": 0.4 }/"friction": 0.4, "triangles": true }/' -e 's/"thickness": 0.013,/"thickness": 0.007,/' \
  "$solvers" > "$work/solvers_triangles.json"
grep -q '"thickness": 0.005, .*"triangles"' "$work/triangles.json" &&
  grep -q '"thickness": 0.007, .*"triangles"' "$work/solvers_triangles.json" ||
  { echo "FAIL: could not add triangles"; exit 1; }
# Coarse cloths, 4 x 4 vertices 10 cm apart and 1 mm thick (edges 100 to
# 140 times the thickness), slower, so that their edges meet within the
# detection distance: the surface grid's cells sized by the longest edge
# (docs/physics.md §14, "Detection, every substep"). Under a second a run.
sed -e 's/"resolution": \[16, 16\]/"resolution": [4, 4]/g' -e 's/"thickness": 0.005,/"thickness": 0.001,/g' \
  -e 's/"velocity": \[0, -1, 0\]/"velocity": [0, -0.3, 0]/' "$work/triangles.json" > "$work/coarse.json"
grep -q '"resolution": \[4, 4\]' "$work/coarse.json" && grep -q '"thickness": 0.001, .*"triangles"' "$work/coarse.json" &&
  grep -q '"velocity": \[0, -0.3, 0\]' "$work/coarse.json" ||
  { echo "FAIL: could not make the cloths coarse"; exit 1; }

# Each variant's run on 1 thread (its full output, in output[...]) also has
# its timing table and summary checked below.
declare -A output
for variant in "$scene" "$work/per_colour.json" "$work/workgroup.json" "$work/jacobi.json" "$solvers" \
  "$work/solvers_jacobi.json" \
  "$work/solvers_newton.json" "$work/triangles.json" "$work/solvers_triangles.json" "$work/coarse.json"; do
  echo "$(basename "$variant"):"
  same_hash_on_threads "$vksim" "$variant" 8
  output[$variant]=$thread_output
  pass "$(basename "$variant"): the same state-hash on 1, 2 and 4 threads"
done

# Past maxComputeWorkGroupCount: with the context's limit lowered
# (VKSIM_MAX_WORKGROUP_COUNT, docs/testing.md) to one workgroup for the two
# cloths and the coarse ones, four for the cloths with triangles, every
# larger dispatch is sliced or loops within its indirect count, and a
# surface grid whose build passes the limit is built directly
# (gpu_small_workgroup_count checks that path): the same bits. (At
# one or two workgroups the triangles' thousands of four-particle
# constraints would fall to 64 or 128 threads, whose loops pass lavapipe's
# limit of 65,535 passes an invocation, docs/physics.md §11.)
for run in "$scene 1" "$work/coarse.json 1" "$work/triangles.json 4"; do
  variant=${run% *} groups=${run##* }
  out=$(VKSIM_MAX_WORKGROUP_COUNT=$groups LP_NUM_THREADS=1 "$vksim" "$variant" --headless --frames 8 --hash --quiet --validate)
  echo "$(basename "$variant"), VKSIM_MAX_WORKGROUP_COUNT=$groups: $(hash_of "$out")"
  [[ $(hash_of "$out") == "$(hash_of "${output[$variant]}")" ]] &&
    pass "$(basename "$variant"): the same state-hash with $groups workgroup(s) a dispatch" ||
    fail "$(basename "$variant"): another state-hash with $groups workgroup(s) a dispatch"
done
status=0
err=$(VKSIM_MAX_WORKGROUP_COUNT=12x "$vksim" "$scene" --headless --frames 1 --quiet 2>&1 >/dev/null) || status=$?
[[ $status -eq 1 && $err == "vksim: VKSIM_MAX_WORKGROUP_COUNT '12x' is not a whole number of workgroups from 1 to 4294967295" ]] &&
  pass "a malformed VKSIM_MAX_WORKGROUP_COUNT: $err" || fail "VKSIM_MAX_WORKGROUP_COUNT=12x: exit status $status, '$err'"
out=${output[$scene]}
for pass in "contacts: grid" "contacts: pairs" "contacts: colouring" "contacts: solve"; do
  grep -q "^  $pass " <<<"$out" || fail "no '$pass' pass in the timing table"
done
grep -q "^contact pairs: " <<<"$out" || fail "no contact summary at the end of the run"
grep -q '^PBD path: clusters ("auto")' <<<"$out" || fail "\"auto\" no longer takes the cluster path here: test that path by name"
pass "the contact passes are timed and the run ends with the contact summary"

out=${output[$work/workgroup.json]}
for pass in "pbd: solve in workgroups" "contacts: colouring" "contacts: after solve"; do
  grep -q "^  $pass " <<<"$out" || fail "no '$pass' pass in the timing table on the workgroup path"
done
pass "the workgroup path: its solve and the contacts after it are timed"

out=${output[$work/triangles.json]}
grep -q "^  contacts: triangles " <<<"$out" || fail "no 'contacts: triangles' pass in the timing table"
grep -q "^vertex-triangle contacts: " <<<"$out" || fail "no vertex-triangle line in the contact summary"
grep -q "^edge-edge contacts: " <<<"$out" || fail "no edge-edge line in the contact summary"
pass "vertex-triangle and edge-edge contacts: their pass is timed and the summary counts them"

out=${output[$solvers]}
for pass in "contacts: solve" "contacts: after solve" "springs: solved into p" "pd: solved into p"; do
  grep -q "^  $pass " <<<"$out" || fail "no '$pass' pass in the timing table of $(basename "$solvers")"
done
pass "across solvers: the contacts after the solves and the copies of the solved positions are timed"

finish
