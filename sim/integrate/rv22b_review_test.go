package integrate

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Review r2 (session 22): lazy energies read between a Drift+Evaluate that
// renumbers the spheres and the next Accept (what an error return after a
// rejected, renumbering trial does: advance's deferred SetLazyEnergies(false))
// must be the energies of the last accepted step summed in its order, as the
// eager path keeps them. Before every step a trial (Drift and Evaluate, as a
// rejection leaves it) is made, then the energies are read, then the step
// proper. TestSphereLazyEnergies passes with Drift's fill removed; this one
// must not.
func TestRV22bLazyEnergiesReadAfterRenumberingTrial(t *testing.T) {
	frictionless := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}
	const r, L, n = 0.001, 0.03, 2200
	m, e := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 2, 7
	t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
	run := func(lazyE bool) (out []string, stale int) {
		w := startSpherePath(t, frictionless, 1, func(w *world.World) {
			if _, err := w.AddWall("floor", plane(t, "floor", geom.V(L/2, L/2, 0), geom.V(0, 0, 1), L), 0, true); err != nil {
				t.Fatal(err)
			}
			dropSpheres(w, n, r, geom.V(0, 0, r), geom.V(L, L, 2*L), 0.2, 7)
		}, true)
		w.SetLazyEnergies(lazyE)
		for i := range 200 {
			dt := w.Dt
			s := sphereStep{w.Spheres()}
			s.Drift(dt)
			s.Evaluate(w.Time+dt, dt)
			k0 := math.Float64bits(w.Stats.Kinetic)
			w.SetLazyEnergies(false) // the read (fills stale energies)
			if math.Float64bits(w.Stats.Kinetic) != k0 {
				stale++
			}
			out = append(out, fmt.Sprintf("%d: %x %x", i, w.Stats.Kinetic, w.Stats.PotentialGravity))
			w.SetLazyEnergies(lazyE)
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		return out, stale
	}
	lazy, stale := run(true)
	eager, _ := run(false)
	if stale == 0 {
		t.Fatal("no read found the energies stale")
	}
	for i := range eager {
		if lazy[i] != eager[i] {
			t.Fatalf("lazy %s, eager %s", lazy[i], eager[i])
		}
	}
}
