package integrate

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// The force test folded into the accept kick (EvaluateKick, Accept): a
// force that becomes infinite mid-run (the weight, gravity set to −Inf)
// must be rejected as the unfolded test rejects it. Lazy bodies take the
// fold (one worker; two workers on the steps they do not split) and eager
// bodies the test in Evaluate (forcesBad): the statistics and time of
// every step, the error and the bodies' state after it are the same bits.
// It fails if the kick's answer is ignored (the lazy run then accepts
// non-finite steps).
func TestSphereForceTestInKick(t *testing.T) {
	const r = 0.001
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			build := func(w *world.World) {
				addSquarePlate(t, w, "floor", geom.V(0, 0, 0), 0.1, 0.1)
				dropSpheres(w, 100, r, geom.V(-0.01, -0.01, 0.0012), geom.V(0.01, 0.01, 0.008), 0.05, 4)
			}
			edit := func(w *world.World, step int) {
				if step == 400 {
					w.SyncBodies()
					w.Gravity = geom.V(0, 0, math.Inf(-1))
				}
			}
			run := func(lazy bool) (string, float64) {
				res := rotSkipRun(t, frictionlessReview, workers, build, edit, 600, lazy, true)
				return res.out, float64(res.skips)
			}
			eager, _ := run(false)
			lazy, skips := run(true)
			t.Logf("lazy: %v rotational skips; %s", skips, errTail(lazy))
			if errTail(eager) == "no error" {
				t.Fatal("the infinite weight was not rejected")
			}
			if eager != lazy {
				t.Errorf("lazy (force test in the kick) and eager runs differ:\n%s\n%s", errTail(lazy), errTail(eager))
			}
		})
	}
}
