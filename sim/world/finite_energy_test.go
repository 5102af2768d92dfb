package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// CheckFiniteNext under still rotation reads the spheres' energies, not
// their x and v (finite.go, energyProof). For every kind of bad component
// — NaN, ±Inf in x or v, a finite v whose square overflows, a finite x
// whose g·x overflows, subnormals and ±0 that are fine — put into the
// accepted state of a lazy 10-step sphere box with the energies summed from
// it as Accept would, with the scene's gravity, none, and zero masses, the
// guard must give CheckFinite's full-pass answer: both nil or the same
// message.
func TestCheckFiniteNextEnergiesProve(t *testing.T) {
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, math.MaxFloat64,
		5e-324, math.Copysign(0, -1), 0, 1e-7}
	gs := []geom.Vec3{{}, {Z: -9.81}, {X: 1e300, Y: -2, Z: 1e-300}}
	checked, bad := 0, 0
	for _, g := range gs {
		for _, zeroMass := range []bool{false, true} {
			for c := range 6 {
				for _, v := range vals {
					name := fmt.Sprintf("g=%v/m0=%v/c=%d/%g", g, zeroMass, c, v)
					w := startScene(t, "sphere-box-soft", "")
					var full, next error
					still, ok := false, false
					n := 0
					if _, err := integrate.AdvancePastLazy(w, 1, 1, func() bool {
						if n++; n < 10 {
							return false
						}
						still, ok = world.PoisonAcceptedSphere(w, 7, c, v, g, zeroMass)
						// next first: CheckFinite's naming pass syncs the bodies
						next = w.CheckFiniteNext()
						full = w.CheckFinite()
						return true
					}); err != nil {
						t.Fatal(err)
					}
					if !ok || !still {
						t.Fatalf("%s: lazy sphere path %v, rotation still %v: the test does not reach the skip", name, ok, still)
					}
					checked++
					if full != nil {
						bad++
					}
					if fmt.Sprint(full) != fmt.Sprint(next) {
						t.Errorf("%s: CheckFiniteNext %v, CheckFinite %v", name, next, full)
					}
				}
			}
		}
	}
	if bad == 0 || bad == checked {
		t.Fatalf("%d of %d cases non-finite: the test separates nothing", bad, checked)
	}
	t.Logf("%d cases, %d non-finite", checked, bad)
}

// The guard finds a wall body's non-finite state through w.Walls
// (wallsNotFinite), as CheckFinite's pass over every body does.
func TestCheckFiniteNextWalls(t *testing.T) {
	for wi := range 5 { // the box's five walls
		for c := range 4 {
			w := startScene(t, "sphere-box-soft", "")
			var full, next error
			n := 0
			if _, err := integrate.AdvancePastLazy(w, 1, 1, func() bool {
				if n++; n < 10 {
					return false
				}
				b := w.Bodies()[w.Walls[wi].Body]
				*[4]*float64{&b.X.Y, &b.V.Z, &b.W.X, &b.Q.W}[c] = math.NaN()
				next = w.CheckFiniteNext()
				full = w.CheckFinite()
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if full == nil || fmt.Sprint(full) != fmt.Sprint(next) {
				t.Errorf("wall %d component %d: CheckFiniteNext %v, CheckFinite %v", wi, c, next, full)
			}
		}
	}
}
