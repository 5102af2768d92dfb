package integrate

import (
	"testing"

	"grainlab/sim/cd"
	"grainlab/sim/law"
)

// BenchmarkCD times one CD world step (detection, solve, compatibility,
// update) of a cannonball pyramid at rest, 6 spheres along the base edge (55
// free and 36 fixed spheres, 220 contacts), Δt = 1 ms, default tolerance
// 1e-8, cold start (no warm start): classic PGS and APGD, then APGD with the
// Hookean and the Hertzian compatibility step.
func BenchmarkCD(b *testing.B) {
	cases := []struct {
		name   string
		method cd.Method
		compat bool
		model  law.SmoothModel
	}{
		{"PGS", cd.PGS, false, law.HookeLAMMPS},
		{"APGD", cd.APGD, false, law.HookeLAMMPS},
		{"APGD+compat/Hookean", cd.APGD, true, law.HookeLAMMPS},
		{"APGD+compat/Hertzian", cd.APGD, true, law.HertzLAMMPS},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			x := NewCD()
			x.Method, x.Compatible, x.Warm, x.Dt = c.method, c.compat, false, 1e-3
			cb := cannonballWorld(b, 6, demLaw(c.model), x.Overlap/2)
			cb.w.Integrator = x
			for b.Loop() {
				if _, err := x.Step(cb.w, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(x.Last.Iter), "iters")
			if c.compat {
				b.ReportMetric(float64(x.LastCompat.Inner), "compat-inner")
			}
		})
	}
}
