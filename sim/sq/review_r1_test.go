package sq

import (
	"math"
	"math/rand"
	"os"
	"testing"

	"grainlab/sim/geom"
)

// Review r1 (session 14): TestLineExitAccuracy's setting (a surface point
// P by the radial projection, a line through it along d, X₀ = P − t·d,
// lineExit must return t) pushed to the extremes the scene parser allows:
// blockiness up to MaxBlockiness = 20 and just above 2, half-axes 1:10,
// lines up to 85° off the normal, and the exit on the larger particle of a
// pair (working length the smaller one's, 1/10 of this one's size).
// Reports the worst error in units of the working length and the number of
// lines beyond the documented 1e-10 and the tested 1e-9.
func TestR1LineExitExtremes(t *testing.T) {
	type cfg struct {
		name   string
		shape  func(rng *rand.Rand) Shape
		maxDeg float64 // d within this angle of the normal
		scale  float64 // working units per size (1: size 1)
		tmax   float64 // |t| ≤ tmax (working units)
	}
	blocky := func(lo, hi float64) func(*rand.Rand) float64 {
		return func(rng *rand.Rand) float64 { return lo + rng.Float64()*(hi-lo) }
	}
	n20, n2 := blocky(18, 20), blocky(2, 2.05)
	cfgs := []cfg{
		{"n 18-20, axes 0.5-1.5, 60°", func(r *rand.Rand) Shape {
			return Shape{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64(), n20(r), n20(r)}
		}, 60, 1, 0.1},
		{"n 2-2.05, axes 0.5-1.5, 60°", func(r *rand.Rand) Shape {
			return Shape{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64(), n2(r), n2(r)}
		}, 60, 1, 0.1},
		{"n 2-20, axes 1:10, 60°", func(r *rand.Rand) Shape {
			return Shape{1, 0.1, 0.1 + 0.9*r.Float64(), 2 + 18*r.Float64(), 2 + 18*r.Float64()}
		}, 60, 1, 0.1},
		{"n 18-20, axes 1:10, 60°", func(r *rand.Rand) Shape {
			return Shape{1, 0.1, 0.1 + 0.9*r.Float64(), n20(r), n20(r)}
		}, 60, 1, 0.1},
		{"n 2-20, axes 0.5-1.5, 85° (grazing)", func(r *rand.Rand) Shape {
			return Shape{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64(), 2 + 18*r.Float64(), 2 + 18*r.Float64()}
		}, 85, 1, 0.1},
		{"n 18-20, axes 1:10, 85° (grazing)", func(r *rand.Rand) Shape {
			return Shape{1, 0.1, 0.1 + 0.9*r.Float64(), n20(r), n20(r)}
		}, 85, 1, 0.1},
		{"n 2-20, axes 0.5-1.5, 60°, larger particle (size 10)", func(r *rand.Rand) Shape {
			return Shape{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64(), 2 + 18*r.Float64(), 2 + 18*r.Float64()}
		}, 60, 10, 0.1},
		{"n 2-20, axes 0.5-1.5, 20°, t ≤ 1e-3 (small overlaps)", func(r *rand.Rand) Shape {
			return Shape{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64(), 2 + 18*r.Float64(), 2 + 18*r.Float64()}
		}, 20, 1, 1e-3},
	}
	for ci, c := range cfgs {
		rng := rand.New(rand.NewSource(int64(100 + ci)))
		worst, over10, over9, skipped := 0.0, 0, 0, 0
		var worstS Shape
		lines := 3000
		if os.Getenv("R1_LINES") != "" {
			lines = 40000
		}
		for k := 0; k < lines; k++ {
			s := c.shape(rng)
			ps, p, ep := placedSurfacePoint(rng, s, c.scale)
			nrm := ep.g.Unit()
			cmin := math.Cos(c.maxDeg * math.Pi / 180)
			var d geom.Vec3
			for {
				d = nrm.AddScaled(3*rng.Float64(), randDir(rng)).Unit()
				if d.Dot(nrm) > cmin {
					break
				}
			}
			tt := c.tmax * (2*rng.Float64() - 1)
			x0 := p.AddScaled(-tt, d)
			var e0 evalOut
			ps.evalW(x0, &e0)
			if tt > 0 && !(e0.f < 0) {
				skipped++ // X₀ behind the body (thin or blocky): the line enters first; not a contact-line case
				continue
			}
			got := ps.lineExit(x0, d, &e0)
			err := math.Abs(got - tt)
			if err > worst {
				worst, worstS = err, s
			}
			if err > 1e-6 && testing.Verbose() && over9 < 3 {
				var eg, et evalOut
				ps.evalW(x0.AddScaled(got, d), &eg)
				ps.evalW(x0.AddScaled(tt, d), &et)
				t.Logf("  gross: t %.6g got %.6g; F(X0) %.3g F(got) %.3g F(t) %.3g; d·n %.3g; |∇F(P)| %.3g", tt, got, e0.f, eg.f, et.f, d.Dot(nrm), ep.g.Norm())
			}
			if err > 1e-10 {
				over10++
			}
			if err > 1e-9 {
				over9++
			}
		}
		t.Logf("%-55s worst %.2g (shape %+v), > 1e-10: %d, > 1e-9: %d of %d (%d skipped)", c.name, worst, worstS, over10, over9, lines-skipped, skipped)
		if over9 > 0 {
			t.Errorf("%s: %d lines beyond 1e-9 of the working length", c.name, over9)
		}
	}
}
