package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// S0 example 1 with newmark: a cube dropped without damping or friction.
// Newmark with γ = ½ has no numerical damping in the linear range (see
// TestNewmarkLinearOscillator), but an impact into the barrier is an
// accuracy problem, so, as S0 ex. 1 does, a step guideline is set for the
// impacts: OmegaDt = 0.7 (ω_cΔt ≤ 0.7 per contact; explicit needs ≤ 2·safety
// = 0.1 with the scenes' safety 0.05), which also ends steps where contacts
// leave the skin and just before they enter it (a force switching on or off
// inside a step is the largest error of a large step: Newmark averages the
// end-point forces), and Approach = 0.2 (no gap changes by more than 20% in
// a step, no contact enters deeper than 30% of the skin: the barrier's work
// is integrated accurately).
// Free flight is left to the convergence-driven step. The energy is compared
// between impacts: in every contact-free state up to the third impact it
// stays within 1% of m·g·h of the initial value. Symmetric drops keep ω ≈ 0,
// the tilted one spins up. The mean step is compared with explicit's on the
// same drop (minRatio: what newmark reaches, with a margin), and so is the
// mean step while in contact: ex. 1 is an accuracy problem where an implicit
// step gains little — the vertex drop, whose single contact lets explicit
// take large steps and whose impact goes deepest into the barrier, reaches
// only ≈ 5× (docs/validation.md).
func TestNewmarkCubeDropEnergy(t *testing.T) {
	const h, m, grav = 0.05, 1.0, 9.81
	diag := geom.QAxisAngle(geom.V(0, 1, 0), -math.Atan(1/math.Sqrt2)).Mul(geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4))
	cases := []struct {
		name     string
		q        geom.Quat
		spinFree bool
		minRatio float64
	}{
		{"a-vertex", diag, true, 4.5},
		{"b-edge", geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4), true, 12},
		{"c-face", geom.QIdent(), true, 14},
		{"d-tilted", geom.QAxisAngle(geom.V(0, 1, 0), 10*math.Pi/180).Mul(geom.QAxisAngle(geom.V(1, 0, 0), 20*math.Pi/180)), false, 9},
	}
	for _, cm := range []struct {
		name     string
		q        geom.Quat
		spinFree bool
		minRatio float64
		fd       bool
	}{
		{cases[0].name, cases[0].q, cases[0].spinFree, cases[0].minRatio, true},
		{cases[1].name, cases[1].q, cases[1].spinFree, cases[1].minRatio, true},
		{cases[2].name, cases[2].q, cases[2].spinFree, cases[2].minRatio, true},
		{cases[3].name, cases[3].q, cases[3].spinFree, cases[3].minRatio, true},
		// the assembled analytic tangent (integrator.tangent: analytic)
		{cases[0].name + "/analytic", cases[0].q, cases[0].spinFree, cases[0].minRatio, false},
		{cases[3].name + "/analytic", cases[3].q, cases[3].spinFree, cases[3].minRatio, false},
	} {
		c := cm
		t.Run(c.name, func(t *testing.T) {
			// drop runs to the third impact and returns the world, the largest
			// energy drift and |ω| between impacts, and the time and steps
			// spent in contact.
			drop := func(integ world.Integrator) (w *world.World, impacts int, maxDrift, maxW, tc float64, nc int) {
				w = groundWorld(t, cubeParams(0, 0))
				w.Settings.Safety = 0.05
				b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, c.q)
				lowestAt(b, h)
				w.AddBody(b)
				if err := Start(w); err != nil {
					t.Fatal(err)
				}
				w.Integrator = integ
				if _, ok := integ.(*Newmark); ok {
					w.Settings.DtMax = 0.02
				}
				e0 := w.Stats.Total()
				inContact := false
				for impacts < 3 && w.Time < 2 {
					dt, err := integ.Step(w, 1)
					if err != nil {
						t.Fatal(err)
					}
					maxW = math.Max(maxW, b.W.Norm())
					touching := w.Stats.Contacts > 0
					if touching {
						tc += dt
						nc++
					} else {
						maxDrift = math.Max(maxDrift, math.Abs(w.Stats.Total()-e0))
					}
					if inContact && !touching {
						impacts++
					}
					inContact = touching
				}
				return w, impacts, maxDrift, maxW, tc, nc
			}
			we, _, _, _, exTc, exNc := drop(&Explicit{})
			nm := NewNewmark()
			nm.OmegaDt, nm.Approach = 0.7, 0.2
			nm.FDProducts = c.fd
			w, impacts, drift, maxW, tc, nc := drop(nm)
			ref := m * grav * h
			exMean, nmMean := we.Time/float64(we.Steps), w.Time/float64(w.Steps)
			t.Logf("%s: flight |ΔE| ≤ %.3g%% of m·g·h, max |ω| %.3g rad/s; newmark %d steps (%d rejected), mean Δt %.3g s; explicit mean Δt %.3g s; ratio %.1f; in contact: %d vs %d steps, mean Δt ratio %.1f",
				c.name, 100*drift/ref, maxW, w.Steps, w.Stats.Rejected, nmMean, exMean, nmMean/exMean, nc, exNc, (tc/float64(nc))/(exTc/float64(exNc)))
			if impacts < 3 {
				t.Fatalf("only %d impacts", impacts)
			}
			if drift > 0.01*ref {
				t.Errorf("energy between impacts drifted by %.3g J, more than 1%% of m·g·h = %.3g J", drift, ref)
			}
			if c.spinFree && maxW > 1e-5 {
				t.Errorf("|ω| reached %.3g rad/s; a symmetric drop must not rotate", maxW)
			}
			if !c.spinFree && maxW < 0.1 {
				t.Errorf("|ω| only %.3g rad/s; the tilted cube should spin up", maxW)
			}
			if nmMean < c.minRatio*exMean {
				t.Errorf("newmark mean Δt %.3g s is less than %g× explicit's %.3g s", nmMean, c.minRatio, exMean)
			}
		})
	}
}
