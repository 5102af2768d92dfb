package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/world"
)

// TestSphereInnerRelSameBits: the inner list's moving frame
// (spheres_inner.go: relSelect, relStep, relTouched) changes no bit. A
// lattice of 4000 frictionless Hookean spheres at rest (or with small
// random speeds), neighbours 0.05 d apart as the scene generator places
// them, falls onto the floor and piles up: 1000 steps of up to 2·10⁻⁵ s
// with lazy bodies, the moving frame on and off (and the inner list off),
// one worker and two or three with every evaluation split by parts, one
// pair class and two, give the same energies, contact counts and Δt at
// every step and the same final bodies; the moving frame is in use on
// most steps. At every step it is in use, every listed pair of two tight
// spheres has |d_I − d_J| ≤ E0 + 2·Grow (InnerRelBound): this fails
// without relTouched's wall test or without the growth of the bound
// (checked by hand; the same bits alone do not: the loose rule keeps the
// pairs that the broken bound would miss).
func TestSphereInnerRelSameBits(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	defer world.SetInnerRelOn(world.SetInnerRelOn(true))
	for _, c := range []struct {
		radii   []float64
		speed   float64
		workers int
	}{{[]float64{0.001}, 0, 1}, {[]float64{0.001}, 0.002, 2}, {[]float64{0.001, 0.00095}, 0, 1}, {[]float64{0.001, 0.00095}, 0.002, 2}, {[]float64{0.001}, 0.002, 3}} {
		t.Run(fmt.Sprintf("species=%d/speed=%g/workers=%d", len(c.radii), c.speed, c.workers), func(t *testing.T) {
			run := func(inner, rel bool) (string, int, int) {
				world.SetInnerOn(inner)
				world.SetInnerRelOn(rel)
				w := sphereLattice(t, 4000, c.radii, latticeSpec{pitch: 1.05, perLayer: 100, speed: c.speed, seed: [2]uint64{23, 1}})
				r := relFall(t, w, c.workers)
				sel, _ := world.InnerRelSelects(w)
				t.Logf("inner %v, frame %v: %d of 1000 steps in the moving frame (%d selections), up to %d contacts, %d builds; bound checked on %d pairs, largest |d_I − d_J|/E %.3g", inner, rel, r.used, sel, r.most, w.VerletBuilds(), r.checked, r.worst)
				return r.out, r.used, r.most
			}
			ref, _, _ := run(false, false)
			abs, used0, _ := run(true, false)
			got, used, most := run(true, true)
			if used0 != 0 {
				t.Fatalf("moving frame off, yet in use on %d steps", used0)
			}
			if used < 300 || most < 300 {
				t.Fatalf("%d steps in the moving frame, up to %d contacts: the case does not test it", used, most)
			}
			if abs != ref || got != ref {
				t.Fatalf("the inner list changes the results (absolute: %v, moving frame: %v)", abs != ref, got != ref)
			}
		})
	}
}

// relRun is what relFall records of a run: every step's energies,
// contacts and Δt and the final bodies (out), the steps in the moving
// frame (used), the most contacts, and the pairs the bound E was checked
// on with the largest |d_I − d_J|/E.
type relRun struct {
	out                 string
	used, most, checked int
	worst               float64
}

// relSetup sets w (a falling lattice) up as the moving frame's tests run it:
// lazy bodies, steps of up to 2·10⁻⁵ s (lists of ≈ 20 steps, as on the
// falling boxes of bench-lammps), workers (every evaluation split when
// more than one).
func relSetup(w *world.World, workers int) {
	w.SetLazyBodies(true)
	w.Settings.DtMax = 2e-5
	w.Dt = min(w.Dt, w.Settings.DtMax)
	w.Settings.Workers = workers
	if workers > 1 {
		w.Settings.SphereSplit = world.SplitAlways
	}
}

// relFall steps w (set up by relSetup) 1000 times, and fails at the
// first step where the moving frame's bound E does not hold
// on a pair of tight spheres (InnerRelBound).
func relFall(t *testing.T, w *world.World, workers int) relRun {
	t.Helper()
	relSetup(w, workers)
	var r relRun
	for range 1000 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		if _, on := world.InnerRelSelects(w); on {
			r.used++
		}
		if u, q, np := world.InnerRelBound(w); u {
			r.worst = max(r.worst, q)
			r.checked += np
			if q > 1 {
				t.Fatalf("the moving frame's bound E fails: a pair of tight spheres has |d_I − d_J| = %g E", q)
			}
		}
		st := &w.Stats
		r.out += fmt.Sprintf("%x %x %x %d %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
		r.most = max(r.most, st.Contacts)
	}
	w.SyncBodies()
	for _, b := range w.Bodies() {
		r.out += fmt.Sprintf("%x %x|", b.X, b.V)
	}
	return r
}
