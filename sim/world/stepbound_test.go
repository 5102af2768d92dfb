package world_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// StableDtBelow leaves out the terms of StableDt's minimum that it proves
// are not below its limit; the result must be min(StableDt, limit) to the
// bit. Checked after every explicit step of the tetrapod collapse (the
// packed box with its side walls removed), the pile of blocks, the
// settling superquadrics (smooth pairs) and two cube drops (whose approach
// and entry terms bind before the impacts), with one and two workers, against
// the bound with nothing left out (StableDtFull), for limits around the
// bound (where a margin too thin would show) and far above it. The
// collapse must also leave most pairs unvisited, or the test proves
// nothing about the skipping.
func TestStableDtBelowSameBits(t *testing.T) {
	cases := []struct {
		scene, state string
		steps        int
	}{
		{"box-of-tetrapods", "builtin:box-of-tetrapods-300-packed", 60},
		{"pile-of-blocks", "", 150},
		{"sq-settling", "", 60},
		{"cube-drop-a", "", 400}, // the approach and entry terms bind in flight
		{"cube-drop-c", "", 400},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2} {
			w := startScene(t, c.scene, c.state)
			w.Settings.Workers = workers
			skipped, visitedSum, pairsSum, checks := 0, 0, 0, 0
			for n := 0; n < c.steps; n++ {
				if err := w.ApplyEvents(); err != nil {
					t.Fatal(err)
				}
				dt, err := w.Integrator.Step(w, 1)
				if err != nil {
					t.Fatal(err)
				}
				full, visited, pairs := w.StableDtFull()
				if visited < pairs/2 {
					skipped++
				}
				visitedSum, pairsSum = visitedSum+visited, pairsSum+pairs
				for _, limit := range []float64{1.25 * dt, full, math.Nextafter(full, 0), math.Nextafter(full, 1),
					full * (1 - 1e-7), full * (1 + 1e-7), 2 * full, math.Inf(1)} {
					got := w.StableDtBelow(limit)
					checks++
					if want := min(full, limit); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("%s, %d workers, step %d (t=%g): StableDtBelow(%g) = %v, want min(%v, limit) = %v",
							c.scene, workers, n, w.Time, limit, got, full, want)
					}
				}
				if got := w.StableDt(); math.Float64bits(got) != math.Float64bits(full) {
					t.Fatalf("%s, step %d: StableDt = %v, want %v", c.scene, n, got, full)
				}
			}
			t.Logf("%s, %d workers: %d steps, %d calls identical; pairs visited %d of %d", c.scene, workers, c.steps, checks+c.steps, visitedSum, pairsSum)
			if c.scene == "box-of-tetrapods" && skipped < c.steps/2 {
				t.Errorf("collapse, %d workers: most pairs skipped after only %d of %d steps", workers, skipped, c.steps)
			}
		}
	}
}

// startScene builds a built-in scene, restores a packed state when given
// and starts the explicit integrator.
func startScene(t *testing.T, name, packed string) *world.World {
	t.Helper()
	s, err := scene.LoadBuiltin(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if packed != "" {
		f, err := state.Read(packed)
		if err != nil {
			t.Fatal(err)
		}
		if err := state.Apply(w, f, packed); err != nil {
			t.Fatal(err)
		}
	}
	w.Integrator = &integrate.Explicit{}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// The lower bounds behind StableDtBelow's skipping hold in states far from
// a settled pile: the packed tetrapod box with random velocities, spins,
// forces and moments from rest to violent (up to 60 m/s, 600 rad/s and
// 10⁴ g; the contacts are those of the packed state), with no pair
// evaluated first, so that the limit alone decides, at limits from just
// above the bound to 10 times it. Different terms then set the bound:
// stiffness, approach, travel and acceleration terms.
func TestStableDtBelowRandomStates(t *testing.T) {
	w := startScene(t, "box-of-tetrapods", "builtin:box-of-tetrapods-300-packed")
	if err := w.ApplyEvents(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 15))
	vec := func(scale float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(scale)
	}
	for trial := 0; trial < 60; trial++ {
		v, wr, acc := math.Pow(10, -3+4.8*rng.Float64()), math.Pow(10, -3+5.8*rng.Float64()), math.Pow(10, -2+7*rng.Float64())
		for _, b := range w.Bodies() {
			if b.Fixed {
				continue
			}
			b.V, b.W = vec(v*rng.Float64()), vec(wr*rng.Float64())
			b.F, b.T = vec(b.Mass()*acc*rng.Float64()), vec(b.Mass()*acc*rng.Float64())
		}
		full, _, _ := w.StableDtFull()
		for _, limit := range []float64{full * (1 + 1e-7), 1.5 * full, 3 * full, 10 * full, math.Inf(1)} {
			w.ForgetBinder()
			got := w.StableDtBelow(limit)
			if want := min(full, limit); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("trial %d (v %.3g, ω %.3g, a %.3g): StableDtBelow(%g) = %v, want %v", trial, v, wr, acc, limit, got, want)
			}
		}
	}
}

// startBuilt builds scene s and starts its integrator.
func startBuilt(t *testing.T, s *scene.Spec) *world.World {
	t.Helper()
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}
