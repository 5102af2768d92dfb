package world_test

import (
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/world"
)

// The pass's leases (pairLeases: empty feature lists left alone while their
// bodies' travel proves them not stale) change nothing: over 60 explicit
// steps of the 300-tetrapod collapse from its packed state, with one
// worker and two, every body's state, every contact and the count of list
// rebuilds equal, to the bit, those of the pass that visits every pair;
// and the leases must leave alone at least half of the candidate pairs.
func TestPairLeasesSameSteps(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	for _, workers := range []int{1, 2} {
		a := startScene(t, "box-of-tetrapods", packed)
		b := startScene(t, "box-of-tetrapods", packed)
		world.SetPairLeases(b, false)
		a.Settings.Workers, b.Settings.Workers = workers, workers
		for step := 0; step < 60; step++ {
			if _, err := a.Integrator.Step(a, 1); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Integrator.Step(b, 1); err != nil {
				t.Fatal(err)
			}
			for i, ba := range a.Bodies() {
				bb := b.Bodies()[i]
				if ba.X != bb.X || ba.V != bb.V || ba.Q != bb.Q || ba.W != bb.W {
					t.Fatalf("workers %d, step %d, body %d differs", workers, step, i)
				}
			}
			if ra, rb := a.Stats.Profile.Rebuilds, b.Stats.Profile.Rebuilds; ra != rb {
				t.Fatalf("workers %d, step %d: %d and %d list rebuilds", workers, step, ra, rb)
			}
			var ca, cb []contact.Contact
			a.EachContact(func(_, _ int, c *contact.Contact) { ca = append(ca, *c) })
			b.EachContact(func(_, _ int, c *contact.Contact) { cb = append(cb, *c) })
			if len(ca) != len(cb) || len(ca) == 0 {
				t.Fatalf("workers %d, step %d: %d and %d contacts", workers, step, len(ca), len(cb))
			}
			for k := range ca {
				if ca[k].Key != cb[k].Key || ca[k].Fn != cb[k].Fn || ca[k].Ft != cb[k].Ft || ca[k].PA != cb[k].PA {
					t.Fatalf("workers %d, step %d, contact %d differs", workers, step, k)
				}
			}
		}
		held, pairs := world.PairLeasesHeld(a), a.Stats.Profile.Pairs
		t.Logf("workers %d: %d of %d candidate pairs left alone on a lease, %d rebuilds", workers, held, pairs, a.Stats.Profile.Rebuilds)
		if world.PairLeasesHeld(b) != 0 || 2*held < pairs {
			t.Fatalf("workers %d: %d of %d pairs left alone (%d without leases)", workers, held, pairs, world.PairLeasesHeld(b))
		}
	}
}
