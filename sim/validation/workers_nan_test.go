package validation

import (
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// A sphere whose velocity turns NaN in the middle of a run on the sphere
// path (4500 spheres, rebuilds in parts): the step fails with an error on
// every worker count, the same error, and nothing panics.
func TestSpherePathNaNAnyWorkers(t *testing.T) {
	run := func(workers int) string {
		w := anyWorkersLattice(t, 4500, 1, false)
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		for range 30 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		// As the window's state edit would: change a body, restart the integrator.
		for _, b := range w.Bodies() {
			if b.Wall < 0 {
				b.V = geom.V(math.NaN(), 0, 0)
				break
			}
		}
		if err := integrate.Start(w); err != nil {
			return "start: " + err.Error()
		}
		for s := range 30 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				return "step: " + err.Error()
			}
			_ = s
		}
		return "no error"
	}
	ref := run(1)
	t.Logf("1 worker: %s", ref)
	if ref == "no error" {
		t.Fatal("a NaN velocity went unnoticed")
	}
	for _, nw := range []int{2, 3} {
		if got := run(nw); got != ref {
			t.Errorf("%d workers: %q, 1 worker: %q", nw, got, ref)
		}
	}
}
