package integrate

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// tunnelBrute is tunnelFactor's pair test over every pair i < j, as it was
// written before the sweep (the reference of TestTunnelFactorSweep).
func tunnelBrute(w *world.World, start []body.State) float64 {
	g := 1.0
	for i, b := range w.Bodies {
		if b.Wall >= 0 || i >= len(start) {
			continue
		}
		for j := i + 1; j < len(w.Bodies); j++ {
			if w.Bodies[j].Wall >= 0 || j >= len(start) {
				continue
			}
			g = tunnelPair(w, start, i, j, g)
		}
	}
	return g
}

// TestTunnelFactorSweep: the swept pair test of tunnelFactor gives the
// brute-force factor to the bit on random clouds of spheres (radii 0.5–2,
// some fixed, moved by up to 0–3 radii so that some paths tunnel), and the
// factor is below 1 on a sizeable share of them (the test can fail).
func TestTunnelFactorSweep(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var sc tunnelScratch
	fired := 0
	const clouds = 400
	for c := 0; c < clouds; c++ {
		w := world.New("tunnel")
		n := 2 + rng.Intn(60)
		span := 3 + 20*rng.Float64()
		move := 6 * rng.Float64()
		var start []body.State
		for i := 0; i < n; i++ {
			x := geom.V(span*rng.Float64(), span*rng.Float64(), span*rng.Float64())
			b := body.NewSphere("s", 0.5+1.5*rng.Float64(), 1000, x)
			b.Fixed = rng.Intn(5) == 0
			w.AddBody(b)
			start = append(start, body.State{X: x})
			if !b.Fixed || rng.Intn(2) == 0 {
				b.X = x.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(move))
			}
		}
		want := tunnelBrute(w, start)
		got := tunnelFactor(w, start, &sc)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("cloud %d (%d bodies): swept factor %v, brute force %v", c, n, got, want)
		}
		if want < 1 {
			fired++
		}
	}
	if fired < clouds/10 {
		t.Fatalf("only %d of %d clouds tunnel: the test does not exercise the pair test", fired, clouds)
	}
	t.Logf("%d of %d clouds tunnel; the sweep matches the brute force on all", fired, clouds)
}

// TestTunnelFactorFixedFirst: a movable sphere whose step carries it
// straight through a fixed sphere is guarded whichever of the two comes
// first in the world's body list (the fixed obstacle listed first was
// missed before session 11). Radii 1, the mover from x = -5 to x = +5
// through the fixed one at the origin: closest approach at u = 1/2, so the
// factor is 0.5·u = 0.25.
func TestTunnelFactorFixedFirst(t *testing.T) {
	for _, fixedFirst := range []bool{true, false} {
		w := world.New("tunnel")
		fixed := body.NewSphere("obstacle", 1, 1000, geom.V(0, 0, 0))
		fixed.Fixed = true
		mover := body.NewSphere("mover", 1, 1000, geom.V(5, 0, 0))
		var start []body.State
		if fixedFirst {
			w.AddBody(fixed)
			w.AddBody(mover)
			start = []body.State{{X: fixed.X}, {X: geom.V(-5, 0, 0)}}
		} else {
			w.AddBody(mover)
			w.AddBody(fixed)
			start = []body.State{{X: geom.V(-5, 0, 0)}, {X: fixed.X}}
		}
		var sc tunnelScratch
		if g := tunnelFactor(w, start, &sc); math.Abs(g-0.25) > 1e-15 {
			t.Errorf("fixed body first = %v: factor %v, want 0.25 (the path crosses the obstacle's centre half way)", fixedFirst, g)
		}
	}
}
