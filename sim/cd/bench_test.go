package cd

import (
	"fmt"
	"testing"
)

func pyramidSystem(b *testing.B, law Law) *System {
	b.Helper()
	spec := PaperPyramid()
	spec.Law = law
	p := BuildPyramid(spec)
	s, err := NewSystem(p.Bodies, p.Contacts)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkPyramidCD times one classic CD step of the S3 §8.2 pyramid at rest
// (2470 free spheres, 14440 contacts, Δt = 1 ms, cold start) with PGS and
// APGD to a relative residual tolerance.
func BenchmarkPyramidCD(b *testing.B) {
	s := pyramidSystem(b, Hookean)
	for _, tol := range []float64{1e-4, 1e-6, 1e-8} {
		for _, m := range []Method{PGS, APGD} {
			b.Run(fmt.Sprintf("%v/tol=%g", m, tol), func(b *testing.B) {
				var r StepResult
				for b.Loop() {
					r, _ = s.Step(StepOptions{Dt: 1e-3, Method: m, Tol: tol, MaxIter: 100000})
				}
				if !r.Converged {
					b.Errorf("not converged: residual %g", r.Residual)
				}
				b.ReportMetric(float64(r.Iter), "iters")
			})
		}
	}
}

// BenchmarkPyramidCompat times the compatibility step of the pyramid at rest
// (relative equilibrium tolerance 1e-10) for each law and method.
func BenchmarkPyramidCompat(b *testing.B) {
	for _, law := range []Law{Hookean, Hertzian} {
		s := pyramidSystem(b, law)
		load := s.StaticLoad()
		for _, m := range []CompatMethod{CompatActiveSet, CompatAugLag} {
			b.Run(fmt.Sprintf("%v/%v", law, m), func(b *testing.B) {
				var r CompatResult
				for b.Loop() {
					r, _ = s.Compatible(load, CompatOptions{Method: m})
				}
				if !r.Converged {
					b.Errorf("not converged: residual %g", r.Residual)
				}
				b.ReportMetric(float64(r.Iter), "outer")
				b.ReportMetric(float64(r.Inner), "inner")
			})
		}
	}
}
