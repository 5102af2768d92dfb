package integrate

import (
	"fmt"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Review rv4: a periodic box (x, y) with a finite floor, frictionless
// Hooke and with friction: the split evaluation keeps the two-pass path
// there (periodic images), with the wall slots accepted by ranges
// (acceptSlots) and the force test by parts (forcesBad). 90 spheres fall
// and pile across the seams; on 2, 3 and 5 workers with every evaluation
// split each step's energies, contacts, Δt and floor force and the final
// bodies are one worker's bits.
func TestReviewSpherePathPeriodicWorkers(t *testing.T) {
	for _, lw := range []law.Smooth{{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}, frictionLaw} {
		run := func(workers int) string {
			w := floorFall(t, lw, true)
			w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
			out, most := "", 0
			for range 5000 {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				st := &w.Stats
				most = max(most, st.Contacts)
				out += fmt.Sprintf("%x %x %x %d %x %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt, w.Walls[0].Force)
			}
			w.SyncBodies()
			for _, b := range w.Bodies() {
				out += fmt.Sprintf("%x %x %x|", b.X, b.V, b.W)
			}
			if workers == 1 {
				t.Logf("μ = %g: t = %g s, up to %d contacts, %d at the end", lw.Mu, w.Time, most, w.Stats.Contacts)
			}
			return out
		}
		ref := run(1)
		for _, nw := range []int{2, 3, 5} {
			if run(nw) != ref {
				t.Errorf("μ = %g: %d workers differ from one", lw.Mu, nw)
			}
		}
	}
}

// floorFall is a started explicit sphere world of law lw: 90 spheres of
// radius 1 mm falling onto a floor 10 mm square (periodic in x and y when
// periodic), for the tests of worker counts and store paths.
func floorFall(t *testing.T, lw law.Smooth, periodic bool) *world.World {
	const L, r = 0.01, 0.001
	w := smoothWorld(t, lw)
	if periodic {
		w.Periodic = world.Periodic{X: true, Y: true, Lo: geom.V(0, 0, -1), Hi: geom.V(L, L, 1)}
	}
	if _, err := w.AddWall("floor", plane(t, "floor", geom.V(L/2, L/2, 0), geom.V(0, 0, 1), 0.8*L), 0, true); err != nil {
		t.Fatal(err)
	}
	dropSpheres(w, 90, r, geom.V(0, 0, r), geom.V(L, L, 0.012), 0.05, 3)
	w.Integrator = &Explicit{}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}
