package state

import (
	"fmt"
	"testing"

	"grainlab/sim/world"
)

// r1 (session 26 review): a run that hands its history over (Encode)
// every few steps equals, bit for bit, the run that never does:
// sphere-piling (friction, rim contacts on the funnel's edges), from
// 0.1 s to 0.13 s, a hand-over every 7 steps; and with a live friction
// edit (rekey) between hand-overs.
func TestRV26aHandOverEveryFewSteps(t *testing.T) {
	for _, edit := range []bool{false, true} {
		t.Run(fmt.Sprintf("edit=%v", edit), func(t *testing.T) {
			const t1, t2 = 0.1, 0.13
			sets := []string{"integrator.name=explicit"}
			a, end := started(t, "sphere-piling", sets...)
			b, _ := started(t, "sphere-piling", sets...)
			to(t, a, t1, end)
			to(t, b, t1, end)
			for k := 0; a.Time < t2-1e-12; k++ {
				if d := diffBodies(a, b); d != "" {
					t.Fatalf("before step %d (t %.17g): %s", k, a.Time, d)
				}
				if edit && k%13 == 5 {
					for _, w := range []*world.World{a, b} {
						if err := w.SetParam("contact.default.mu", 0.3+0.01*float64(k%3)); err != nil {
							t.Fatal(err)
						}
					}
				}
				if k%7 == 3 {
					if _, err := Encode(a); err != nil {
						t.Fatal(err)
					}
				}
				lim := end - a.Time
				if _, err := a.Integrator.Step(a, lim); err != nil {
					t.Fatal(err)
				}
				if _, err := b.Integrator.Step(b, lim); err != nil {
					t.Fatal(err)
				}
			}
			if d := diffBodies(a, b); d != "" {
				t.Fatal(d)
			}
		})
	}
}
