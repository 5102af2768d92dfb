package integrate

import (
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// Review rv24b: SaveRef taken while the rotational array is absent
// (rotNone), then a step whose evaluation makes the array again (a rim
// moment: pendApply, one array shared by acc and tr) and kicks ω ≠ 0 into
// it: Restore must put back the saved state (ω = +0), as Save's copy does.
func TestRV24bSaveRefAcrossRotMake(t *testing.T) {
	const r = 0.001
	build := func(w *world.World) {
		holedPlate(t, w)
		dropSpheres(w, 90, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.05), 0, 2)
		prerotate(w, 7)
	}
	w := startSpherePath(t, rotShareLaw, 1, build, true)
	var ref, cp world.BodyStates
	for i := range 4000 {
		none := w.SphereRotArrays() == 0
		if none {
			ref.SaveRef(w)
			cp.Save(w)
		}
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		if !none || w.SphereRotArrays() == 0 {
			continue
		}
		t.Logf("array made at step %d (%d arrays)", i, w.SphereRotArrays())
		ref.Restore(w)
		bad := 0
		for j, bi := range cp.Body {
			b := w.Bodies()[bi]
			if b.W != cp.W[j] || b.Q != cp.Q[j] || b.X != cp.X[j] || b.V != cp.V[j] {
				if bad < 3 {
					t.Errorf("body %d restored ω %v q %v, saved ω %v q %v", bi, b.W, b.Q, cp.W[j], cp.Q[j])
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%d bodies restored differently from Save's copy", bad)
		}
		return
	}
	t.Fatal("the rotational array was never made again: the case tests nothing")
}

// Review rv24b: a live edit gives one sphere ω ≠ 0 (after SyncBodies, as the
// window's loop does) while the lazy run holds no rotational array; another
// sets a sphere's q. Frictionless to the end: the lazy run must match the
// eager one (two arrays all along) to the bit, one worker and two.
func TestRV24bLiveSpin(t *testing.T) {
	const at = 100
	build := func(w *world.World) {
		holedPlate(t, w)
		dropSpheres(w, 120, 0.001, geom.V(-0.006, -0.006, 0.012), geom.V(0.006, 0.006, 0.04), 0, 3)
		prerotate(w, 3)
	}
	for _, workers := range []int{1, 2, 3} {
		var arrays []int
		run := func(lazy bool) rotSkipResult {
			return rotSkipRun(t, rotShareLaw, workers, build, func(w *world.World, step int) {
				switch step {
				case at:
					if lazy {
						arrays = append(arrays, w.SphereRotArrays())
					}
					w.SyncBodies()
					n := 0
					for _, b := range w.Bodies() {
						if b.Wall < 0 {
							if n == 0 {
								b.W = geom.V(0, 30, -10)
							} else if n == 5 {
								b.Q = geom.QAxisAngle(geom.V(1, 0, 0), 2)
							}
							n++
						}
					}
				case at + 1:
					if lazy {
						arrays = append(arrays, w.SphereRotArrays())
					}
				}
			}, 1500, lazy, false)
		}
		lazy, eager := run(true), run(false)
		if lazy.out != eager.out {
			t.Errorf("workers %d: lazy and eager differ:\n%s", workers, firstDiff(lazy.out, eager.out))
		}
		if len(arrays) != 2 || arrays[0] != 0 || arrays[1] == 0 {
			t.Errorf("workers %d: arrays before/after the spin %v, want [0 >0]", workers, arrays)
		}
		if lazy.turning == 0 {
			t.Errorf("workers %d: nothing turns at the end", workers)
		}
	}
}

// Review rv24b: while the rotational array is absent, the readers that take
// q from the bodies (Save, ViewBodies) give each sphere its own q (here
// pre-rotated, never turning: the start's q), not the identity.
func TestRV24bReadersQ(t *testing.T) {
	var q0 []geom.Quat
	build := func(w *world.World) {
		holedPlate(t, w)
		dropSpheres(w, 60, 0.001, geom.V(-0.004, -0.004, 0.03), geom.V(0.004, 0.004, 0.05), 0, 3)
		rng := rand.New(rand.NewSource(5))
		for _, b := range w.Bodies() {
			if b.Wall < 0 {
				b.Q = geom.QAxisAngle(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5), 6*rng.Float64())
			}
			q0 = append(q0, b.Q)
		}
	}
	w := startSpherePath(t, rotShareLaw, 1, build, true)
	for range 50 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	if a := w.SphereRotArrays(); a != 0 {
		t.Fatalf("%d rotational arrays: the case does not test rotNone", a)
	}
	var cp world.BodyStates
	cp.Save(w)
	dst := make([]snap.Body, len(w.Bodies()))
	if !w.ViewBodies(dst) {
		t.Fatal("ViewBodies read nothing")
	}
	for j, bi := range cp.Body {
		if cp.Q[j] != q0[bi] {
			t.Fatalf("Save: body %d q %v, want %v", bi, cp.Q[j], q0[bi])
		}
	}
	for i, b := range w.Bodies() {
		if b.Wall < 0 && dst[i].Rot != q0[i] {
			t.Fatalf("ViewBodies: body %d q %v, want %v", i, dst[i].Rot, q0[i])
		}
	}
}

// Review rv24b: the rim case (wall moments noted aside per chunk while the
// rotational array is absent, pendRot/pendApply) with the evaluation split
// forced (SplitAlways: the auto choice may keep one worker in a small
// world), two and three workers, against the eager run and against one
// worker: the same bits.
func TestRV24bRimSplit(t *testing.T) {
	build := func(split world.SplitMode) func(w *world.World) {
		return func(w *world.World) {
			w.Settings.SphereSplit = split
			holedPlate(t, w)
			dropSpheres(w, 200, 0.001, geom.V(-0.0055, -0.0055, 0.012), geom.V(0.0055, 0.0055, 0.07), 0, 2)
			prerotate(w, 11)
		}
	}
	one := rotSkipRun(t, rotShareLaw, 1, build(world.SplitNever), nil, 4000, true, false)
	if one.turning == 0 {
		t.Fatal("nothing turns: the rim does not make the array")
	}
	for _, workers := range []int{2, 3} {
		lazy := rotSkipRun(t, rotShareLaw, workers, build(world.SplitAlways), nil, 4000, true, false)
		eager := rotSkipRun(t, rotShareLaw, workers, build(world.SplitAlways), nil, 4000, false, false)
		if lazy.out != eager.out {
			t.Errorf("workers %d: lazy and eager differ:\n%s", workers, firstDiff(lazy.out, eager.out))
		}
		if lazy.out != one.out {
			t.Errorf("workers %d split against one worker:\n%s", workers, firstDiff(lazy.out, one.out))
		}
	}
}

// Review rv24b: the generic path and back while the sphere path held no
// rotational array (NoSpherePath on at step 100, off at step 300; the
// generic stages step the bodies, the rim may turn a few): lazy against
// eager, and q pre-rotated.
func TestRV24bGenericAndBack(t *testing.T) {
	build := func(w *world.World) {
		holedPlate(t, w)
		dropSpheres(w, 90, 0.001, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.03), 0, 2)
		prerotate(w, 13)
	}
	var arrays []int
	run := func(lazy bool) rotSkipResult {
		return rotSkipRun(t, rotShareLaw, 1, build, func(w *world.World, step int) {
			switch step {
			case 100:
				if lazy {
					arrays = append(arrays, w.SphereRotArrays())
				}
				w.Settings.NoSpherePath = true
			case 300:
				w.Settings.NoSpherePath = false
			}
		}, 2500, lazy, false)
	}
	lazy, eager := run(true), run(false)
	if lazy.out != eager.out {
		t.Errorf("lazy and eager differ:\n%s", firstDiff(lazy.out, eager.out))
	}
	if len(arrays) != 1 || arrays[0] != 0 {
		t.Errorf("arrays at step 100: %v, want [0]", arrays)
	}
}

// Review rv24b: integrator switches (as TestRv20cRotShareIntegratorSwitches)
// with pre-rotated spheres falling onto the holed plate's rim, so that the
// explicit stretches start without a rotational array (rotNone) and the
// others may turn spheres: lazy against eager to the bit.
func TestRV24bSwitchesPrerotated(t *testing.T) {
	build := func(w *world.World) {
		holedPlate(t, w)
		dropSpheres(w, 60, 0.001, geom.V(-0.005, -0.005, 0.0125), geom.V(0.005, 0.005, 0.03), 0, 2)
		prerotate(w, 17)
	}
	seq := []string{"explicit", "newmark", "explicit", "variational", "explicit"}
	none := 0
	run := func(lazy bool) string {
		w := startSpherePath(t, rotShareLaw, 0, build, lazy)
		return switchRun(t, w, seq, lazy, 300, 30, func() {
			if lazy && w.SphereRotArrays() == 0 {
				none++
			}
		})
	}
	eager, lazy := run(false), run(true)
	t.Logf("no rotational array at %d of %d switches", none, len(seq)-1)
	if none == 0 {
		t.Error("never without the array at a switch: the case does not exercise rotNone")
	}
	if eager != lazy {
		t.Errorf("lazy and eager differ:\n%s", firstDiff(lazy, eager))
	}
}

// Review rv24b: TestSphereRotShareRetried with pre-rotated spheres: a
// retried trial makes the array again (Drift without the skip) from the
// bodies' q while rotNone; lazy against eager to the bit.
func TestRV24bRetriedPrerotated(t *testing.T) {
	fall := holedPlateFall(t)
	build := func(w *world.World) {
		fall(w)
		prerotate(w, 19)
	}
	none := 0
	run := func(lazy bool) string {
		return retriedRun(t, build, lazy, 2000, func(w *world.World) {
			if lazy && w.SphereRotArrays() == 0 {
				none++
			}
		})
	}
	eager, lazy := run(false), run(true)
	if none == 0 {
		t.Fatal("never without the array")
	}
	if eager != lazy {
		t.Errorf("lazy and eager differ:\n%s", firstDiff(lazy, eager))
	}
}

// prerotate gives every sphere of w (every body that is not a wall) a
// random orientation drawn from seed.
func prerotate(w *world.World, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	for _, b := range w.Bodies() {
		if b.Wall < 0 {
			b.Q = geom.QAxisAngle(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5), 6*rng.Float64())
		}
	}
}
