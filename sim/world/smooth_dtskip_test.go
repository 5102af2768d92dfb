package world

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sq"
)

// TestSmoothDtSkipExact: pairDtSmooth with a skip limit u leaves a Hertz
// pair's terms out only when they are not below u — min(bound, u) is the
// full bound's min(·, u) to the bit, for u from half to twice the pair's
// full bound and dt_max. A row of six n = 4 superquadrics (both Hertz laws)
// is evaluated at 300 states in turn: overlaps grown and shrunk by up to a
// few 10⁻⁵ m, speeds from 0 to 3 m/s (|ω|R alike), so the lower bound kept
// from an earlier state is met by deeper overlaps (dHi), faster approaches
// (impact overlap, vHi) and faster bodies (travel term), with a common
// velocity of 0 to 3 m/s on top (the bound reads relative speeds). The full bound is
// taken on a copy of the pair's state, so that it does not refresh what
// the skip reads. Skips must occur (the test is not vacuous); it fails if
// the overlap, speed or travel check of the Hertz skip is left out (checked).
func TestSmoothDtSkipExact(t *testing.T) {
	for _, l := range []law.Smooth{
		{Model: law.HertzMaterial, E: 5e6, Nu: 0.3, Restitution: 0.5, Mu: 0.5},
		{Model: law.HertzLAMMPS, Kn: 2e5, GammaN: 5e3, Kt: 1e5, GammaT: 2e3, Mu: 0.5},
	} {
		t.Run(l.Model.String(), func(t *testing.T) { smoothDtSkipExact(t, l) })
	}
}

func smoothDtSkipExact(t *testing.T, l law.Smooth) {
	rng := rand.New(rand.NewSource(21))
	w := New("dtskip")
	if err := w.SetParams(0, 0, ContactParams{Smooth: l}); err != nil {
		t.Fatal(err)
	}
	w.Gravity = geom.Vec3{}
	w.Settings.Workers, w.Settings.DtMax = 1, 1
	s := sq.Shape{A: 0.004, B: 0.003, C: 0.0025, N1: 4, N2: 4}
	var home []geom.Vec3
	for i := 0; i < 6; i++ {
		x := geom.V(0.0079*float64(i), 0, 0) // 0.1 mm overlap along x
		home = append(home, x)
		w.AddBody(body.NewSuperquadric("p", s, 2500, x, geom.QIdent()))
	}
	skipped, compared := 0, 0
	for trial := 0; trial < 300; trial++ {
		vs := []float64{0, 1e-4, 1e-3, 1e-2, 0.3, 3}[rng.Intn(6)]
		// A common velocity (grains falling together): the relative
		// speeds that the bound reads stay those of vs.
		vc := geom.V(0, 0, -[]float64{0, 0.5, 3}[rng.Intn(3)])
		for i, b := range w.Bodies() {
			b.X = home[i].Add(geom.V(rng.NormFloat64()*3e-5, rng.NormFloat64()*1e-5, rng.NormFloat64()*1e-5))
			b.V = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(vs).Add(vc)
			b.W = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(vs / b.R)
		}
		w.Evaluate(w.Time, 1e-5, Eval{})
		w.Commit(Commit{})
		sp, _ := w.bound.speeds(w)
		for _, e := range w.pairs {
			if !e.smooth {
				continue
			}
			p := w.Params(w.Bodies()[e.A].Material, w.Bodies()[e.B].Material)
			var saved smoothPair
			if e.sm != nil {
				saved = *e.sm
			}
			hadSM := e.sm != nil
			full := w.pairDtSmooth(e, p, sp, math.Inf(1))
			if hadSM {
				*e.sm = saved
			} else {
				e.sm = nil
			}
			for _, f := range []float64{0.5, 0.9, 1, 1.1, 2, math.Inf(1)} {
				u := min(full*f, w.Settings.DtMax)
				got := w.pairDtSmooth(e, p, sp, u)
				compared++
				if got != full {
					skipped++
				}
				if min(got, u) != min(full, u) || got < full {
					t.Fatalf("trial %d pair %d–%d, u = %.17g: with skip %.17g, full %.17g", trial, e.A, e.B, u, got, full)
				}
			}
		}
	}
	t.Logf("%d of %d bounds skipped", skipped, compared)
	if compared < 1000 || skipped < compared/10 {
		t.Fatalf("skips %d of %d: the test exercises too few", skipped, compared)
	}
}
