package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// S0 example 1: a cube dropped on the ground without damping or friction
// conserves mechanical energy (kinetic + gravity + contact potential): the
// drift over the first three impacts stays within 1% of the drop energy
// m·g·h. Cases a–c (vertex, edge, face down) fall straight and keep ω ≈ 0;
// case d (generic tilt) spins up at impact.
func TestCubeDropEnergy(t *testing.T) {
	const h, m, grav = 0.05, 1.0, 9.81
	diag := geom.QAxisAngle(geom.V(0, 1, 0), -math.Atan(1/math.Sqrt2)).Mul(geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4))
	cases := []struct {
		name     string
		q        geom.Quat
		spinFree bool
	}{
		{"a-vertex", diag, true},
		{"b-edge", geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4), true},
		{"c-face", geom.QIdent(), true},
		{"d-tilted", geom.QAxisAngle(geom.V(0, 1, 0), 10*math.Pi/180).Mul(geom.QAxisAngle(geom.V(1, 0, 0), 20*math.Pi/180)), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := groundWorld(t, cubeParams(0, 0))
			// S0 ex. 1 picks a step guideline small enough for energy
			// conservation; the cube-drop scenes use the same safety factor.
			w.Settings.Safety = 0.05
			b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, c.q)
			lowestAt(b, h)
			w.AddBody(b)
			impacts, inContact := 0, false
			var e0, maxDrift, maxW float64
			first := true
			run(t, w, 2.0, func() {
				e := w.Stats.Total()
				if first {
					e0, first = e, false
				}
				maxDrift = math.Max(maxDrift, math.Abs(e-e0))
				maxW = math.Max(maxW, b.W.Norm())
				touching := w.Stats.Contacts > 0
				if inContact && !touching {
					impacts++
				}
				inContact = touching
				if impacts == 3 {
					w.Time = 2.0 // stop after the third impact
				}
			})
			if impacts < 3 {
				t.Fatalf("only %d impacts in 2 s", impacts)
			}
			ref := m * grav * h
			t.Logf("%s: max |ΔE| = %.3g J = %.3g%% of m·g·h over 3 impacts, max |ω| %.3g rad/s, %d steps, %d rejected",
				c.name, maxDrift, 100*maxDrift/ref, maxW, w.Steps, w.Stats.Rejected)
			if maxDrift > 0.01*ref {
				t.Errorf("energy drift %.3g J exceeds 1%% of m·g·h = %.3g J", maxDrift, ref)
			}
			if c.spinFree && maxW > 1e-5 {
				t.Errorf("|ω| reached %.3g rad/s; a symmetric drop must not rotate", maxW)
			}
			if !c.spinFree && maxW < 0.1 {
				t.Errorf("|ω| only %.3g rad/s; the tilted cube should spin up at impact", maxW)
			}
		})
	}
}
