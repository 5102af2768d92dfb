package world_test

import (
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// The broad phase's per-body part runs in the placing pass (each body's
// centre, radius and Verlet displacement test, its box against the walls'
// boxes); bodyPairs and wallPairs take it in body order. The candidate
// pairs, in order, and every body's state and contact must be those of the
// serial gather and loops, to the bit, step after step of the falling
// tetrapods shaken (Verlet rebuilds, pairs with the walls coming and going), on
// 1, 2 and 3 workers — also while a body is marked as a wall's for a few
// steps (its slot among the movable bodies is wrong: the serial gather
// takes over) and after.
func TestBroadInPlacingAsSerial(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		a := startScene(t, "box-of-tetrapods", "")
		b := startScene(t, "box-of-tetrapods", "")
		a.Settings.Workers, b.Settings.Workers = workers, workers
		a.SetBroadInPlacing(false)
		rng := rand.New(rand.NewSource(int64(workers)))
		for i, ba := range a.Bodies() { // shaken: the bodies move apart and together
			if !ba.Fixed {
				v := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(4)
				ba.V, b.Bodies()[i].V = v, v
			}
		}
		k := -1
		builds0, walls := a.VerletBuilds(), 0
		for step := 0; step < 400; step++ {
			if step == 200 { // a movable body marked as a wall's, then back
				for k = rng.Intn(len(a.Bodies())); a.Bodies()[k].Wall >= 0; k = rng.Intn(len(a.Bodies())) {
				}
				a.Bodies()[k].Wall, b.Bodies()[k].Wall = 0, 0
			}
			if step == 205 {
				a.Bodies()[k].Wall, b.Bodies()[k].Wall = -1, -1
			}
			for _, w := range []*world.World{a, b} {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
			}
			ca, cb := a.CandidateList(), b.CandidateList()
			if !slices.Equal(ca, cb) {
				t.Fatalf("workers %d, step %d: %d and %d candidate pairs, or not in the same order", workers, step, len(ca), len(cb))
			}
			for i, ba := range a.Bodies() {
				bb := b.Bodies()[i]
				if ba.X != bb.X || ba.V != bb.V || ba.F != bb.F || ba.T != bb.T || ba.Q != bb.Q {
					t.Fatalf("workers %d, step %d, body %d differs", workers, step, i)
				}
			}
			var xa, xb []contact.Contact
			a.EachContact(func(_, _ int, c *contact.Contact) { xa = append(xa, *c) })
			b.EachContact(func(_, _ int, c *contact.Contact) { xb = append(xb, *c) })
			if len(xa) != len(xb) {
				t.Fatalf("workers %d, step %d: %d and %d contacts", workers, step, len(xa), len(xb))
			}
			for i := range xa {
				if xa[i].Fn != xb[i].Fn || xa[i].Ft != xb[i].Ft || xa[i].PA != xb[i].PA || xa[i].N != xb[i].N {
					t.Fatalf("workers %d, step %d, contact %d differs", workers, step, i)
				}
			}
			for _, c := range ca {
				if a.Bodies()[c.A].Wall >= 0 || a.Bodies()[c.B].Wall >= 0 {
					walls++
				}
			}
		}
		if a.VerletBuilds()-builds0 < 3 || walls == 0 {
			t.Fatalf("workers %d: %d Verlet rebuilds, %d wall pairs listed: the test does not cover them", workers, a.VerletBuilds()-builds0, walls)
		}
	}
}
