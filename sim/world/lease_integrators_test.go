package world_test

import (
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// Leases on and off give the same bits under the implicit
// integrators too (several placements per step, EachFeatureCache rebuilds
// by the newmark guard, Eval.Fixed), 2 workers, from the packed
// 300-tetrapod box with its side walls removed (the collapse).
func TestPairLeasesIntegratorsSameSteps(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	for _, name := range []string{"newmark", "variational", "variational1", "cd"} {
		var ws [2]*world.World
		for k := range ws {
			w := startScene(t, "box-of-tetrapods", packed)
			for _, side := range []string{"left", "right", "front", "back"} {
				if err := w.SetWallEnabled(side, false); err != nil {
					t.Fatal(err)
				}
			}
			it, err := integrate.New(name)
			if err != nil {
				t.Fatal(err)
			}
			w.Integrator = it
			if err := integrate.Start(w); err != nil {
				t.Fatal(err)
			}
			w.Settings.Workers = 2
			ws[k] = w
		}
		a, b := ws[0], ws[1]
		world.SetPairLeases(b, false)
		for step := 0; step < 12; step++ {
			for _, w := range ws {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
			}
			for i, ba := range a.Bodies() {
				bb := b.Bodies()[i]
				if ba.X != bb.X || ba.V != bb.V || ba.Q != bb.Q || ba.W != bb.W {
					t.Fatalf("%s step %d, body %d differs", name, step, i)
				}
			}
			if ra, rb := a.Stats.Profile.Rebuilds, b.Stats.Profile.Rebuilds; ra != rb {
				t.Fatalf("%s step %d: %d and %d list rebuilds", name, step, ra, rb)
			}
			var ca, cb []contact.Contact
			a.EachContact(func(_, _ int, c *contact.Contact) { ca = append(ca, *c) })
			b.EachContact(func(_, _ int, c *contact.Contact) { cb = append(cb, *c) })
			if len(ca) != len(cb) {
				t.Fatalf("%s step %d: %d and %d contacts", name, step, len(ca), len(cb))
			}
			for k := range ca {
				if ca[k] != cb[k] {
					t.Fatalf("%s step %d, contact %d differs", name, step, k)
				}
			}
		}
		t.Logf("%s: t = %.4g s, held %d of %d pairs", name, a.Time, world.PairLeasesHeld(a), a.Stats.Profile.Pairs)
	}
}
