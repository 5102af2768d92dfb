package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/world"
)

// innerLattice is partsLattice with neighbours a gap g = 0.15 d apart
// (half the skin, 0.6 r) and random speeds up to 0.02 m/s: the inner
// list holds few pairs at first and more as the spheres close in.
func innerLattice(t *testing.T, n int, radii []float64) *world.World {
	return sphereLattice(t, n, radii, latticeSpec{pitch: 1.15, perLayer: 20, jitter: 0.1, speed: 0.02, seed: [2]uint64{5, 6}})
}

// TestSphereInnerSameBits: the inner list (spheres_inner.go) changes no
// bit: 2000 frictionless Hookean spheres on a loose lattice, colliding,
// 400 steps with the inner list on and off, on one worker and on two with
// every evaluation split by parts (HookePart's ranges), one pair class and
// two (hookeRowsOne, hookeRows), give the same energies, contact counts
// and Δt at every step and the same final bodies; the inner list is in
// use on many steps, with fewer pairs than the list.
func TestSphereInnerSameBits(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	for _, radii := range [][]float64{{0.001}, {0.001, 0.0009}} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("species=%d/workers=%d", len(radii), workers), func(t *testing.T) {
				run := func(on bool) (string, int, int) {
					world.SetInnerOn(on)
					w := innerLattice(t, 2000, radii)
					w.Settings.Workers = workers
					if workers > 1 {
						w.Settings.SphereSplit = world.SplitAlways
					}
					out, used, most := "", 0, 0
					for range 400 {
						if _, err := w.Integrator.Step(w, 1); err != nil {
							t.Fatal(err)
						}
						if in, n, np := world.InnerInUse(w); in && n < np {
							used++
						}
						st := &w.Stats
						out += fmt.Sprintf("%x %x %x %d %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
						most = max(most, st.Contacts)
					}
					w.SyncBodies()
					for _, b := range w.Bodies() {
						out += fmt.Sprintf("%x %x|", b.X, b.V)
					}
					t.Logf("inner %v: %d of 400 steps on the inner list, up to %d contacts, %d builds", on, used, most, w.VerletBuilds())
					return out, used, most
				}
				ref, used0, _ := run(false)
				got, used, most := run(true)
				if used0 != 0 {
					t.Fatalf("inner list off, yet in use on %d steps", used0)
				}
				if used < 30 || most < 100 {
					t.Fatalf("%d steps on the inner list, up to %d contacts: the case does not test it", used, most)
				}
				if got != ref {
					t.Fatal("the inner list changes the results")
				}
			})
		}
	}
}
