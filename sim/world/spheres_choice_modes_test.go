package world

import (
	"testing"
	"time"
)

// Review r5 (session 23): SplitAuto after a spell of SplitNever, SplitAlways
// or too few spheres (can = false) settles on the faster way within one
// probe interval, whichever way is faster (synthetic timings, a cold switch
// costing 4 steps, every 12th step a rebuild, not counted).
func TestReviewSplitChoiceModeChanges(t *testing.T) {
	for _, mid := range []struct {
		name string
		can  bool
		mode SplitMode
	}{{"never", true, SplitNever}, {"always", true, SplitAlways}, {"cannot", false, SplitAuto}} {
		for _, ratio := range []float64{0.6, 1.5} {
			var c splitChoice
			prev, begun := false, false
			slow := 0
			for e := 0; e < 5000; e++ {
				can, mode := true, SplitAuto
				if e >= 2000 && e < 2500 {
					can, mode = mid.can, mid.mode
				}
				way := c.pick(can, mode)
				d := 1.0
				if way {
					d = ratio
				}
				if begun && way != prev {
					d += 4
				}
				prev, begun = way, true
				if e >= 2500+splitProbeEvery+splitProbeRuns && !c.probe && way != (ratio < 1) {
					slow++
				}
				c.record(way, time.Duration(d*1e6), 1, e%12 != 11)
			}
			t.Logf("%s ratio %.1f: %d steps on the slower way outside probes after settling", mid.name, ratio, slow)
			if slow > 0 {
				t.Errorf("%s ratio %.1f: %d slow steps", mid.name, ratio, slow)
			}
		}
	}
}
