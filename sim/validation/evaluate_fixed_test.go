package validation

import (
	"math/rand"
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
)

// World.EvaluateFixed, which newmark's finite-difference products use,
// reproduces World.Evaluate to the bit: at the state of the last Evaluate,
// and at a state moved by ~1e-7 m (or rad) per body, where full detection
// finds the same contacts (keys and active set, checked) — on the tetrapod
// collapse 0.05 s after the side walls went (all four contact kinds, sticking
// and slipping friction, ground contacts).
func TestEvaluateFixedMatchesEvaluate(t *testing.T) {
	w := collapseWorld(t)
	advance(t, w, w.Time+0.05, nil)
	const dt = 1e-3
	type forces struct{ F, T []geom.Vec3 }
	get := func() forces {
		var f forces
		for _, b := range w.Bodies {
			f.F, f.T = append(f.F, b.F), append(f.T, b.T)
		}
		return f
	}
	keys := func() []contact.Key {
		var ks []contact.Key
		w.EachTrialContact(func(_, _ int, c *contact.Contact) {
			if c.Active() {
				ks = append(ks, c.Key)
			}
		})
		return ks
	}
	same := func(what string, a, b forces) {
		t.Helper()
		for i := range a.F {
			if a.F[i] != b.F[i] || a.T[i] != b.T[i] {
				t.Fatalf("%s: body %d: F %v, T %v against %v, %v", what, i, a.F[i], a.T[i], b.F[i], b.T[i])
			}
		}
	}
	if _, bad := w.Evaluate(w.Time, dt); bad {
		t.Fatal("bad evaluation")
	}
	full, k0 := get(), keys()
	if len(k0) < 300 {
		t.Fatalf("only %d active contacts", len(k0))
	}
	if w.EvaluateFixed(w.Time, dt) {
		t.Fatal("bad fixed evaluation")
	}
	same("at the evaluated state", full, get())

	rng := rand.New(rand.NewSource(3))
	for _, b := range w.Bodies {
		if b.Fixed {
			continue
		}
		b.X = b.X.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1e-7))
		b.Q = b.Q.Integrate(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1e-7), 1)
	}
	if w.EvaluateFixed(w.Time, dt) {
		t.Fatal("bad fixed evaluation")
	}
	fixed := get()
	moved := 0
	for i := range fixed.F {
		if fixed.F[i] != full.F[i] {
			moved++
		}
	}
	if moved < 100 {
		t.Fatalf("the perturbation changed the force of only %d bodies", moved)
	}
	if _, bad := w.Evaluate(w.Time, dt); bad {
		t.Fatal("bad evaluation")
	}
	k1 := keys()
	if len(k1) != len(k0) {
		t.Fatalf("the perturbation changed the contact set: %d → %d active contacts", len(k0), len(k1))
	}
	for i := range k0 {
		if k0[i] != k1[i] {
			t.Fatalf("the perturbation changed contact %d: %+v → %+v", i, k0[i], k1[i])
		}
	}
	same("at the moved state", get(), fixed)
	t.Logf("%d active contacts; %d bodies' forces changed by the perturbation", len(k0), moved)
}
