package validation

import (
	"testing"
	"time"

	"grainlab/sim/integrate"
	"grainlab/sim/internal/cputime"
)

// BenchmarkCDFriction runs frictional scenes under cd (the matrix's
// settings: the pile of 10 blocks for 0.5 s, the 12-cube box for 0.4 s, S0
// ex. 3a for 1 s) and reports the time per step and the mean APGD iterations
// and Gauss–Seidel sweeps per step.
func BenchmarkCDFriction(b *testing.B) {
	for _, c := range []struct {
		name  string
		sets  []string
		until float64
	}{
		{"pile-of-blocks", nil, 0.5},
		{"box-of-cubes", matrixScenes["box-of-cubes"].sets, 0.4},
		{"sliding-block-a", nil, 1},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				w := load(b, c.name, append([]string{"integrator.name=cd"}, c.sets...)...)
				x := w.Integrator.(*integrate.CD)
				var apgd, sweeps, steps float64
				t0, c0 := time.Now(), cputime.Process().Seconds()
				advance(b, w, c.until, func() bool {
					steps++
					apgd += float64(x.Last.Iter - x.Last.Sweeps)
					sweeps += float64(x.Last.Sweeps)
					return false
				})
				b.ReportMetric(float64(time.Since(t0).Milliseconds())/steps, "ms/step")
				b.ReportMetric(1e3*(cputime.Process().Seconds()-c0)/steps, "cpu-ms/step")
				b.ReportMetric(steps, "steps")
				b.ReportMetric(apgd/steps, "apgd/step")
				b.ReportMetric(sweeps/steps, "sweeps/step")
			}
		})
	}
}
