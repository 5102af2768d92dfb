package integrate

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Review rv20a: the whole sphere path with every drift block non-temporal
// (driftNTMin = 0: driftNTSSE2 on amd64 v1, written by the crew's helpers
// on their own threads and read by the others' passes) gives the bits of
// the normal stores on one worker, on 1, 2 and 3 workers (periodic box:
// no list test in the drift; closed: the displacement bound skips it).
func TestReviewDriftNTWholePath(t *testing.T) {
	defer func(m int) { driftNTMin = m }(driftNTMin)
	lw := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}
	run := func(periodic bool, workers, ntMin int) string {
		driftNTMin = ntMin
		w := floorFall(t, lw, periodic)
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		out := ""
		for range 3000 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			st := &w.Stats
			out += fmt.Sprintf("%x %x %x %d %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
		}
		w.SyncBodies()
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x %x|", b.X, b.V, b.W)
		}
		return out
	}
	for _, periodic := range []bool{true, false} {
		ref := run(periodic, 1, math.MaxInt) // never non-temporal
		for _, nw := range []int{1, 2, 3} {
			if run(periodic, nw, 0) != ref {
				t.Errorf("periodic %v: non-temporal drift on %d workers differs from normal stores on one", periodic, nw)
			}
		}
	}
}
