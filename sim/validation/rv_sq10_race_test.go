package validation

import (
	"math"
	"testing"
)

// TestRvSq10Workers: an n = 10 superquadric bed (mean curvature: the new
// kernel in every contact) stepped with 1 and 2 workers gives the same bits;
// run under -race for the workers touching RadiusAt/contactIn.
func TestRvSq10Workers(t *testing.T) {
	run := func(workers int) []float64 {
		w := load(t, "sq-settling", "generators[0].count=40", "params.n=10",
			"periodic.max=[0.03,0.03,0.25]", "generators[0].region.max=[0.03,0.03,0.12]")
		w.Settings.Workers = workers
		advance(t, w, 0.12, nil)
		var out []float64
		for _, b := range w.Bodies() {
			out = append(out, b.X.X, b.X.Y, b.X.Z, b.Q.W, b.Q.X)
		}
		n := 0
		for range w.Bodies() {
			n++
		}
		return out
	}
	a, b := run(1), run(2)
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("entry %d: 1 worker %v, 2 workers %v", i, a[i], b[i])
		}
	}
}
