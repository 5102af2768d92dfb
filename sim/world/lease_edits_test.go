package world_test

import (
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/world"
)

// The leases change nothing across the paths that move bodies
// or change caches outside the pass: walls turned off and on, a contact
// parameter changed (lawGen), bodies teleported by a panel-style edit of
// X and Q, and a restore of an earlier history (every body sent back 40
// steps). Two worlds, leases on and off, 2 workers, compared to the bit at
// every step.
func TestPairLeasesEditsSameSteps(t *testing.T) {
	for _, wk := range [][2]int{{2, 2}, {3, 1}} {
		pairLeasesEdits(t, wk[0], wk[1])
	}
}

// pairLeasesEdits runs the edits with leases on wa workers, off on wb.
func pairLeasesEdits(t *testing.T, wa, wb int) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	a := startScene(t, "box-of-tetrapods", packed)
	b := startScene(t, "box-of-tetrapods", packed)
	world.SetPairLeases(b, false)
	a.Settings.Workers, b.Settings.Workers = wa, wb
	var ha, hb *world.History
	for step := 0; step < 110; step++ {
		for _, w := range []*world.World{a, b} {
			switch step {
			case 20:
				if err := w.SetWallEnabled("left", false); err != nil {
					t.Fatal(err)
				}
			case 35:
				if err := w.SetParam("contact.default.mu", 0.45); err != nil {
					t.Fatal(err)
				}
			case 45:
				if err := w.SetWallEnabled("left", true); err != nil {
					t.Fatal(err)
				}
			case 55: // a panel edit: bodies moved and turned while paused
				for i := 3; i < len(w.Bodies()); i += 17 {
					bd := w.Bodies()[i]
					if bd.Fixed {
						continue
					}
					bd.X.X += 0.003
					bd.Q = bd.Q.Integrate(bd.W.Unit(), 0.002)
				}
			case 70:
				h := ha
				if w == b {
					h = hb
				}
				if err := w.RestoreHistory(h); err != nil {
					t.Fatal(err)
				}
			}
			if step == 30 {
				if w == a {
					ha = w.TakeHistory()
				} else {
					hb = w.TakeHistory()
				}
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		for i, ba := range a.Bodies() {
			bb := b.Bodies()[i]
			if ba.X != bb.X || ba.V != bb.V || ba.Q != bb.Q || ba.W != bb.W {
				t.Fatalf("step %d, body %d differs", step, i)
			}
		}
		if ra, rb := a.Stats.Profile.Rebuilds, b.Stats.Profile.Rebuilds; ra != rb {
			t.Fatalf("step %d: %d and %d list rebuilds", step, ra, rb)
		}
		var ca, cb []contact.Contact
		a.EachContact(func(_, _ int, c *contact.Contact) { ca = append(ca, *c) })
		b.EachContact(func(_, _ int, c *contact.Contact) { cb = append(cb, *c) })
		if len(ca) != len(cb) {
			t.Fatalf("step %d: %d and %d contacts", step, len(ca), len(cb))
		}
		for k := range ca {
			if ca[k] != cb[k] {
				t.Fatalf("step %d, contact %d differs", step, k)
			}
		}
	}
	t.Logf("held %d of %d pairs", world.PairLeasesHeld(a), a.Stats.Profile.Pairs)
}
