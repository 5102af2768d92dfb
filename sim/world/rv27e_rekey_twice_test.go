package world_test

import (
	"bytes"
	"fmt"
	"testing"

	"grainlab/sim/world"
)

// Review r5 (session 27): rekeyPending on a periodic world (x, y periodic,
// plane walls with rims), friction on: the second and third key changes
// before an Accept give the round trip's bits (digests, final file).
func TestRV27eRekeyTwicePeriodic(t *testing.T) {
	for _, n := range []int{218} { // 1500 too (review r5): ≈ 110 s, not kept
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(t *testing.T) {
				mk := func() *world.World {
					return rv26aPeriodicWorld(t, n, workers, "contact.default.mu=0.3", "contact.default.kt=8")
				}
				groups := rekeyGroups(10.02, 20)
				run := func(off, pendOff bool) ([]uint64, []byte, int64, int) {
					world.SetRekeyOff(off)
					world.SetRekeyPendOff(pendOff)
					defer world.SetRekeyOff(false)
					defer world.SetRekeyPendOff(false)
					return rekeyTwiceRun(t, mk, groups, 0.3, 8)
				}
				dr, fr, nr, mr := run(true, false)
				d, f, nn, m := run(false, false)
				t.Logf("in place %d (round trip %d), materializations %d (round trip %d), contacts at end digest n=%d", nn, nr, m, mr, len(d))
				if nn == 0 {
					t.Fatalf("no key change in place")
				}
				for k := range dr {
					if d[k] != dr[k] {
						t.Fatalf("digest %d differs from the round trip's", k)
					}
				}
				if !bytes.Equal(f, fr) {
					t.Fatalf("final file differs")
				}
			})
		}
	}
}
