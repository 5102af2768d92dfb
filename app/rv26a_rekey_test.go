package app

import (
	"testing"
)

// r1 (session 26 review of b1): the window's loop making live edits on a
// sphere world (the sphere path's key changed in place: rekey), with an
// integrator switch and a wall toggle in between; under -race with two
// workers: no race, no panic, frames keep coming and the same script
// gives the same frames twice.
func TestRV26aSimLoopLiveEditsRekey(t *testing.T) {
	run := func() []*LoopState {
		l := startLoop(t, Options{Scene: "sphere-piling", Workers: 2, Time: 100})
		defer l.Close()
		var out []*LoopState
		steps := func(n int) {
			for range n {
				l.Step()
				out = append(out, sync1(t, l))
			}
		}
		steps(30)
		l.SetParam("contact.default.gamma_n", 3)
		steps(5)
		l.SetParam("contact.default.mu", 0.2)
		l.SetParam("contact.default.mu_roll", 0.01)
		steps(5)
		l.SetParam("contact.default.kn", 1.1*l.sim.World.Params(0, 0).Smooth.Kn)
		l.SetIntegrator("newmark")
		steps(2)
		l.SetIntegrator("explicit")
		steps(5)
		l.SetParam("contact.default.mu", 0)
		l.SetParam("contact.default.mu_roll", 0)
		steps(10)
		return out
	}
	a, b := run(), run()
	if len(a) != len(b) {
		t.Fatalf("%d vs %d frames", len(a), len(b))
	}
	for i := range a {
		p, q := a[i].Snap, b[i].Snap
		if p.Stats.Step != q.Stats.Step || p.Stats.Time != q.Stats.Time || len(p.Contacts) != len(q.Contacts) {
			t.Fatalf("frame %d: step %d/%d t %v/%v", i, p.Stats.Step, q.Stats.Step, p.Stats.Time, q.Stats.Time)
		}
		for k := range p.Bodies {
			if p.Bodies[k].Pos != q.Bodies[k].Pos || p.Bodies[k].Vel != q.Bodies[k].Vel {
				t.Fatalf("frame %d body %d differs", i, k)
			}
		}
	}
}
