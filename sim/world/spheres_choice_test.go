package world

import (
	"testing"
	"time"
)

// SplitAuto's choice does not count the first evaluation each way (cold:
// buffers made, the helper started). Evaluations of 1 ms the faster way
// and 2 ms the other, the world's first evaluation (on one worker: the
// probes alternate from there) 100 ms and the first split one 3 ms: after
// the probes the faster way is chosen, and it stays so until the next
// probe, whichever way is faster. (Counted, the cold 100 ms weighed
// (7/8)⁷ ≈ 0.39 in the average of 8, ~40 ms: with one worker the faster,
// split was chosen for splitProbeEvery evaluations.)
func TestSplitChoiceSkipsCold(t *testing.T) {
	for _, fast := range []bool{false, true} { // the faster way: split or not
		var c splitChoice
		first := map[bool]time.Duration{false: 100 * time.Millisecond, true: 3 * time.Millisecond}
		wrong := 0
		for e := 0; e < 200; e++ {
			split := c.pick(true, SplitAuto)
			d := 2 * time.Millisecond
			if split == fast {
				d = time.Millisecond
			}
			if f := first[split]; f > 0 {
				d, first[split] = f, 0
			}
			if e >= 2*(splitProbeRuns+1) && split != fast {
				wrong++
			}
			c.record(split, d)
		}
		if first[false] != 0 || first[true] != 0 {
			t.Fatalf("faster way split=%v: the probes did not try both ways", fast)
		}
		if wrong > 0 {
			t.Errorf("faster way split=%v: %d of the evaluations after the probes took the slower way", fast, wrong)
		}
	}
}
