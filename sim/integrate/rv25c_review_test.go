package integrate

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"grainlab/sim/contact"
)

// Review r3 (s25): a rejected split step (a NaN force found by Accept's
// split kick, after b3's kick pass accepted the wall slots with an undo)
// at many points of a fall onto a plate whose rims are touched: the run
// after it is the run without it, on 1, 2 and 3 workers.
func TestReviewR3SlotUndoRimRejections(t *testing.T) {
	const after = 40
	tested := 0
	defer func() { t.Logf("%d rejections compared", tested) }()
	for _, hw := range []float64{0.01075, 0.0113} {
		for _, before := range []int{5, 40, 80, 120, 160} {
			run := func(workers int, reject bool) string {
				w := latticeOnPlate(t, workers, before, hw)
				if reject {
					s := sphereStep{w.Spheres()}
					dt := 2 * w.Dt
					s.Drift(dt)
					if owls, bad := s.EvaluateKick(w.Time+dt, dt); owls != 0 || bad {
						return ""
					}
					tr := s.Trial()
					tr.L[len(tr.L)/2].F.Y = math.NaN()
					if s.Accept(0.5 * dt) {
						return "" // the kick did not take the test (EvaluateKick's conditions): not this case
					}
				}
				var out strings.Builder
				for range after {
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&out, "%x %x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact,
						w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
					w.EachContact(func(a, b int, c *contact.Contact) {
						fmt.Fprintf(&out, "c %d %d %v %d %d|", a, b, c.New, c.FA, c.FB)
					})
				}
				writeBodyStates(&out, w)
				return out.String()
			}
			ref := run(1, false)
			for _, workers := range []int{1, 2, 3} {
				got := run(workers, true)
				if got == "" {
					t.Logf("hw %g before %d workers=%d: no deferred force test", hw, before, workers)
					continue
				}
				tested++
				if got != ref {
					t.Errorf("hw %g before %d workers=%d: the run after a rejected step differs: %s", hw, before, workers, firstDiff(got, ref))
				}
			}
		}
	}
}
