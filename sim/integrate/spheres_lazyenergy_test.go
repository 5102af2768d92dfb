package integrate

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Lazy energies (AdvanceStats, world.SetLazyEnergies: the accept kick
// leaves the kinetic and gravitational energies, summed from the accepted
// state when they are read) give the same bits as the energies the kick
// sums at every Accept. Frictionless spheres fall onto a floor (the
// rotational skip, under which the energies are left, is taken) and are
// stepped through advance with lazy energies and without; every 5th step
// both sync (SyncBodies: the lazy run's energies are summed then) and the
// statistics are compared to the bit, and at the end (on return) the
// energies and every body's state. Cases: a small system (one sum), one of
// ≥ 2048 spheres (finish's chunked sums), with the spheres renumbered
// every 7 steps (a renumbering between an Accept and the read would
// reorder the sum: Drift sums stale energies first), on one worker and on
// two with split passes; and two species (the kick of several species
// still sums them; the world's sum is the one read). Each lazy run must
// show stale energies between the syncs (else nothing was left).
func TestSphereLazyEnergies(t *testing.T) {
	frictionless := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}
	const r = 0.001
	cases := []struct {
		name    string
		n       int
		workers int
		reorder bool
		species bool
	}{
		{"small-1w", 60, 1, false, false},
		{"chunked-1w-reordered", 2200, 1, true, false},
		{"chunked-2w-split-reordered", 2200, 2, true, false},
		{"species-1w", 80, 1, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.reorder {
				m, e := world.SphereReorderMin, world.SphereReorderEvery
				world.SphereReorderMin, world.SphereReorderEvery = 2, 7
				t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
			}
			L := 0.01
			if c.n > 1000 {
				L = 0.03
			}
			const steps = 160
			run := func(lazyE bool) (per []string, kin []uint64, final string) {
				w := startSpherePath(t, frictionless, c.workers, func(w *world.World) {
					if _, err := w.AddWall("floor", plane(t, "floor", geom.V(L/2, L/2, 0), geom.V(0, 0, 1), L), 0, true); err != nil {
						t.Fatal(err)
					}
					dropSpheres(w, c.n, r, geom.V(0, 0, r), geom.V(L, L, 2*L), 0.2, 7)
					if c.species {
						for k, b := range w.Bodies() {
							if b.Wall < 0 && k%3 == 0 { // another density: another species
								nb := body.NewSphere("t", r, 1200, b.X)
								nb.V = b.V
								w.Bodies()[k] = nb
							}
						}
					}
				}, false)
				if c.workers > 1 {
					w.Settings.SphereSplit = world.SplitAlways
				}
				i := 0
				each := func() bool {
					i++
					if i%5 == 0 {
						w.SyncBodies()
						per = append(per, fmt.Sprintf("%d: %x %x %x %x %d", i, w.Stats.Kinetic, w.Stats.PotentialGravity,
							w.Stats.PotentialContact, w.Stats.Dt, w.Stats.Contacts))
					}
					kin = append(kin, math.Float64bits(w.Stats.Kinetic))
					return i >= steps
				}
				if _, err := advance(w, 1, 1, each, true, lazyE); err != nil {
					t.Fatal(err)
				}
				var out strings.Builder
				fmt.Fprintf(&out, "%x %x %x|", w.Stats.Kinetic, w.Stats.PotentialGravity, w.Stats.PotentialContact)
				writeBodyStates(&out, w)
				if w.SphereRotSkips() == 0 {
					t.Fatal("the rotational skip never taken: nothing to leave")
				}
				return per, kin, out.String()
			}
			lp, lk, lf := run(true)
			ep, ek, ef := run(false)
			for i := range max(len(lp), len(ep)) {
				if i >= len(lp) || i >= len(ep) || lp[i] != ep[i] {
					t.Fatalf("sync %d: lazy energies %v, eager %v", i, lp[i:min(i+1, len(lp))], ep[i:min(i+1, len(ep))])
				}
			}
			if lf != ef {
				t.Fatal("final energies or states differ")
			}
			stale := 0
			for i := range lk {
				if (i+1)%5 != 0 && lk[i] != ek[i] {
					stale++
				}
			}
			if stale == 0 {
				t.Fatal("no step left the energies stale")
			}
		})
	}
}
