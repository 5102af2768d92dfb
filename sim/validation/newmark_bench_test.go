package validation

import (
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// BenchmarkNewmark times accepted newmark steps of S0 example 2 (ten cubes
// falling into a pile, from the start) and reports the mean step and the
// Newton and GMRES iterations per step.
func BenchmarkNewmark(b *testing.B) {
	w, _ := newmarkWorld(b, "pile-of-blocks")
	newmarkSteps(b, w)
}

// BenchmarkNewmarkTetrapodCollapse times newmark steps of the 300-tetrapod
// box collapse (packed state, side walls removed) and, after the timed
// steps, runs explicit over the same simulated time from the same state to
// report the ratio of the mean steps (newmark/explicit).
func BenchmarkNewmarkTetrapodCollapse(b *testing.B) {
	start := func() *world.World {
		w := packed(b, "box-of-tetrapods", "builtin:box-of-tetrapods-300-packed")
		if err := w.ApplyEvents(); err != nil {
			b.Fatal(err)
		}
		return w
	}
	w := start()
	w.Integrator = integrate.NewNewmark()
	w.Settings.DtMax = newmarkDtMax
	t0 := w.Time
	newmarkSteps(b, w)
	span, steps := w.Time-t0, w.Steps
	we := start()
	n0 := we.Steps
	for we.Time < t0+span {
		if _, err := we.Integrator.Step(we, t0+span-we.Time); err != nil {
			b.Fatal(err)
		}
	}
	nm := span / float64(steps-n0)
	ex := span / float64(we.Steps-n0)
	b.ReportMetric(ex, "explicit-dt")
	b.ReportMetric(nm/ex, "dt-ratio")
}

func newmarkSteps(b *testing.B, w *world.World) {
	var newton, lin int
	n0 := w.Steps
	t0 := w.Time
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			b.Fatal(err)
		}
		newton += w.Stats.NewtonIters
		lin += w.Stats.LinearIters
	}
	b.StopTimer()
	n := float64(w.Steps - n0)
	b.ReportMetric((w.Time-t0)/n, "dt")
	b.ReportMetric(float64(newton)/n, "newton/step")
	b.ReportMetric(float64(lin)/n, "gmres/step")
}
