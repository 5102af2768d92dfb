package validation

import (
	"grainlab/sim/internal/fma"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// World.Evaluate with Eval.Fixed, which newmark's finite-difference
// products use, reproduces World.Evaluate to the bit: at the state of the
// last Evaluate, and at a state moved by ~1e-7 m (or rad) per body, where full detection
// finds the same contacts (keys and active set, checked) — on the tetrapod
// collapse 0.05 s after the side walls went (all four contact kinds, sticking
// and slipping friction, ground contacts), at a trial state drifted 1 ms on;
// with the dashpot as written and with the lagged dashpot
// (World.SetDampLag, without and with the entry fraction), which must change
// at least one body's force there.
func TestEvaluateFixedMatchesEvaluate(t *testing.T) {
	w := collapseWorld(t)
	advance(t, w, w.Time+0.05, nil)
	// A trial state 1 ms on (free drift): gaps differ from the committed ones.
	for _, b := range w.Bodies() {
		if !b.Fixed {
			b.X, b.Q = b.X.AddScaled(1e-3, b.V), b.Q.Integrate(b.W, 1e-3)
		}
	}
	var plain []geom.Vec3
	for _, mode := range [][2]bool{{false, false}, {true, false}, {true, true}} {
		w.SetDampLag(mode[0], mode[1])
		f := evaluateFixedMatches(t, w, mode)
		if !mode[0] {
			plain = f
			continue
		}
		changed := 0
		for i := range f {
			if f[i] != plain[i] {
				changed++
			}
		}
		if changed == 0 {
			t.Errorf("the lagged dashpot (entry fraction %v) changed no body's force", mode[1])
		}
		t.Logf("lagged dashpot (entry fraction %v): %d bodies' forces differ from eq. (52) as written", mode[1], changed)
	}
	w.SetDampLag(false, false)
}

// evaluateFixedMatches is TestEvaluateFixedMatchesEvaluate at w's state,
// which it restores; it returns the forces of the first Evaluate.
func evaluateFixedMatches(t *testing.T, w *world.World, lag [2]bool) []geom.Vec3 {
	t.Helper()
	saved := make([]body.State, len(w.Bodies()))
	for i, b := range w.Bodies() {
		saved[i] = b.Save()
	}
	defer func() {
		for i, b := range w.Bodies() {
			b.Restore(saved[i])
		}
	}()
	const dt = 1e-3
	type forces struct{ F, T []geom.Vec3 }
	get := func() forces {
		var f forces
		for _, b := range w.Bodies() {
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
		// Bit for bit where nothing fuses. On FMA builds (fma.MayFuse)
		// Refresh's geometry and the narrow phase's are compiled apart and
		// fuse differently: gaps by an ulp, times the contact stiffness
		// (4e-11 N of 313 N seen), so 1e-9 of the largest force (torque).
		fs, ts := 0.0, 0.0
		for i := range a.F {
			fs, ts = max(fs, a.F[i].Norm()), max(ts, a.T[i].Norm())
		}
		for i := range a.F {
			if !fma.Equal(a.F[i], b.F[i], 1e-9, fs) || !fma.Equal(a.T[i], b.T[i], 1e-9, ts) {
				t.Fatalf("%s: body %d: F %v, T %v against %v, %v", what, i, a.F[i], a.T[i], b.F[i], b.T[i])
			}
		}
	}
	if w.Evaluate(w.Time, dt, world.Eval{}).Bad {
		t.Fatal("bad evaluation")
	}
	full, k0 := get(), keys()
	if len(k0) < 300 {
		t.Fatalf("only %d active contacts", len(k0))
	}
	if w.Evaluate(w.Time, dt, world.Eval{Fixed: true}).Bad {
		t.Fatal("bad fixed evaluation")
	}
	same("at the evaluated state", full, get())

	rng := rand.New(rand.NewSource(3))
	for _, b := range w.Bodies() {
		if b.Fixed {
			continue
		}
		b.X = b.X.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1e-7))
		b.Q = b.Q.Integrate(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1e-7), 1)
	}
	if w.Evaluate(w.Time, dt, world.Eval{Fixed: true}).Bad {
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
	if w.Evaluate(w.Time, dt, world.Eval{}).Bad {
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
	t.Logf("lag, entry %v: %d active contacts; %d bodies' forces changed by the perturbation", lag, len(k0), moved)
	return full.F
}
