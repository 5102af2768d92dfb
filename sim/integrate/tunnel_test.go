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
	for i, b := range w.Bodies() {
		if b.Wall >= 0 || i >= len(start) {
			continue
		}
		for j := i + 1; j < len(w.Bodies()); j++ {
			if w.Bodies()[j].Wall >= 0 || j >= len(start) {
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

// TestTunnelFactorPeriodicSeam: in a world periodic along x (period 10 m)
// detection wraps the bodies into the cell, so the guard must read a path
// across the seam as the shortest image of its displacement. A 0.1 m step
// across the seam (9.95 → 10.05, wrapped to 0.05) must not be cut by a
// fixed sphere 5 m away on its row, and a 2 m step through the seam image
// of a fixed sphere (9 → 11, wrapped to 1, past the image at 10 of the
// sphere at 0; radii 0.3, closest approach at u = 1/2) must be cut to
// 0.5·u = 0.25. Found by reviewer r5 (both failed before: factor 0.25 and 1).
func TestTunnelFactorPeriodicSeam(t *testing.T) {
	factor := func(x0, x1, xo float64) float64 {
		w := world.New("seam")
		w.Periodic = world.Periodic{X: true, Lo: geom.V(0, -5, -5), Hi: geom.V(10, 5, 5)}
		m := body.NewSphere("mover", 0.3, 1000, geom.V(x0, 0, 0))
		o := body.NewSphere("other", 0.3, 1000, geom.V(xo, 0, 0))
		o.Fixed = true
		w.AddBody(m)
		w.AddBody(o)
		start := []body.State{{X: geom.V(x0, 0, 0)}, {X: geom.V(xo, 0, 0)}}
		m.X = geom.V(x1, 0, 0) // wrapped, as detection wraps it
		var sc tunnelScratch
		return tunnelFactor(w, start, &sc)
	}
	if g := factor(9.95, 0.05, 5); g != 1 {
		t.Errorf("0.1 m step across the seam cut by the tunnel guard: factor %v, want 1 (the other body is 5 m away)", g)
	}
	if g := factor(9, 1, 0); math.Abs(g-0.25) > 1e-12 {
		t.Errorf("2 m step through the seam image of a fixed sphere: factor %v, want 0.25", g)
	}
}

// TestNewmarkPeriodicSeamSteps: no gravity, a world periodic along x
// (period 10 m), a sphere (r 0.3) gliding at 1 m/s along x across the seam
// and a fixed sphere 5 m away on its row (and, as a control, off it);
// newmark with dt_max 0.01 s. Nothing comes near a contact, so every step
// takes dt_max: no guard cut and no step shorter than 9 ms over 1 s (the
// guard cut the seam crossing 24 times, down to dt_min, before the fix;
// reviewer r5).
func TestNewmarkPeriodicSeamSteps(t *testing.T) {
	for _, otherY := range []float64{2, 0} {
		w := world.New("seam")
		w.Gravity = geom.Vec3{}
		w.Periodic = world.Periodic{X: true, Lo: geom.V(0, -5, -5), Hi: geom.V(10, 5, 5)}
		m := body.NewSphere("mover", 0.3, 1000, geom.V(9.5, 0, 0))
		m.V = geom.V(1, 0, 0)
		o := body.NewSphere("other", 0.3, 1000, geom.V(5, otherY, 0))
		o.Fixed = true
		w.AddBody(m)
		w.AddBody(o)
		w.Settings.Dt, w.Settings.DtMax, w.Settings.DtMin = 0.01, 0.01, 1e-9
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
		nm := NewNewmark()
		w.Integrator = nm
		small := 0
		last := w.Time
		if _, err := Advance(w, 1, func() bool {
			if w.Time-last < 0.009 {
				small++
			}
			last = w.Time
			return false
		}); err != nil {
			t.Fatal(err)
		}
		if nm.Counts.Guard > 0 || small > 0 {
			t.Errorf("other sphere at y = %g: %d guard cuts, %d steps shorter than 9 ms over 1 s of free flight at dt_max 0.01 s", otherY, nm.Counts.Guard, small)
		}
		if x := w.Bodies()[0].X.X; math.Abs(x-0.5) > 1e-9 {
			t.Errorf("other sphere at y = %g: the mover ends at x = %.12g, want 0.5 (9.5 + 1 m/s · 1 s, wrapped)", otherY, x)
		}
	}
}
