package world

import (
	"testing"
	"time"
)

// Review r3 (session 27): SplitAuto's corner cases.

// No counted step ever (a rebuild or a selection every step): the choice
// stays on one worker (the first probes never end), never splits, and
// picks stay cheap. A world that stops counting after the first probes:
// every probe ends within splitProbeLong steps (never stuck in one).
func TestReviewSplitChoiceNoCounted(t *testing.T) {
	var c splitChoice
	for e := 0; e < 3000; e++ {
		if c.pick(true, SplitAuto) {
			t.Fatalf("step %d: split with no counted step", e)
		}
		c.record(false, time.Millisecond, 100, false)
	}
	for _, fast := range []bool{false, true} {
		var c splitChoice
		run, longest := 0, 0
		prev, begun := false, false
		for e := 0; e < 5000; e++ {
			split := c.pick(true, SplitAuto)
			d := 2.0
			if split == fast {
				d = 1
			}
			if begun && split != prev {
				d += 3
			}
			prev, begun = split, true
			counted := e < 400 // then never again
			if c.probe && e > 400 {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
			c.record(split, time.Duration(d*1e6), 1, counted)
		}
		t.Logf("fast=%v: longest probe after counting stopped %d steps", fast, longest)
		if longest > splitProbeLong {
			t.Errorf("fast=%v: a probe lasted %d steps (want ≤ %d)", fast, longest, splitProbeLong)
		}
	}
}

// Fewer steps than the first probes need: no panic, one worker first.
func TestReviewSplitChoiceShortRun(t *testing.T) {
	var c splitChoice
	for e := 0; e < 10; e++ {
		split := c.pick(true, SplitAuto)
		if e <= splitProbeRuns && split {
			t.Fatalf("step %d split during the first probe of one worker", e)
		}
		c.record(split, time.Millisecond, 1, true)
	}
}

// Workers 2 → 1 → 2 live (can false in the middle), with two workers the
// faster: back on two at once after (no probe needed), and no split
// while they cannot.
func TestReviewSplitChoiceWorkersLive(t *testing.T) {
	for _, ratio := range []float64{0.6, 1.5} {
		var c splitChoice
		prev, begun := false, false
		slow := 0
		for e := 0; e < 4000; e++ {
			can := e < 1000 || e >= 1300
			way := c.pick(can, SplitAuto)
			if !can && way {
				t.Fatalf("step %d: split while one worker", e)
			}
			d := 1.0
			if way {
				d = ratio
			}
			if begun && way != prev {
				d += 3
			}
			prev, begun = way, true
			if e >= 1300+splitProbeEvery+2*splitProbeLong && !c.probe && way != (ratio < 1) {
				slow++
			}
			c.record(way, time.Duration(d*1e6), 1, e%12 != 11)
		}
		if slow > 0 {
			t.Errorf("ratio %.1f: %d steps on the slower way outside probes after 2 → 1 → 2", ratio, slow)
		}
	}
}

// pick and record allocate nothing (the median's buffer is on the stack).
func TestReviewSplitChoiceAllocs(t *testing.T) {
	var c splitChoice
	e := 0
	if a := testing.AllocsPerRun(5000, func() {
		split := c.pick(true, SplitAuto)
		c.record(split, time.Duration(1e6+e%7*1e4), 1000, e%12 != 0)
		e++
	}); a != 0 {
		t.Errorf("%v allocations a step", a)
	}
}

func BenchmarkReviewSplitChoice(b *testing.B) {
	var c splitChoice
	for e := 0; e < b.N; e++ {
		split := c.pick(true, SplitAuto)
		c.record(split, time.Duration(1e6+e%7*1e4), 1000, e%12 != 0)
	}
}

// A probe in which no step of the probed way counts (24 uncounted steps in
// a row: a stretch of rebuilds or selections) ends on splitProbeLong and
// may switch the way in use on the probed way's old figure: the one case
// where "the way in use changes only when both figures are fresh" does not
// hold. Two workers 0.6× one; then the step cost per unit grows 2.2× (both
// ways): two workers' fresh figure rises past one worker's old one, an
// early probe starts, its 24 steps are uncounted, and it switches to one
// worker although two are still 0.6× one.
func TestReviewSplitChoiceStaleSwitch(t *testing.T) {
	var c splitChoice
	prev, begun := false, false
	switched, ones := -1, 0
	for e := 0; e < 1200; e++ {
		split := c.pick(true, SplitAuto)
		f := 1.0
		if e >= 600 {
			f = 2.2
		}
		if split {
			f *= 0.6
		}
		if begun && split != prev {
			f *= 3
		}
		prev, begun = split, true
		counted := e%12 != 11
		if c.probe && e >= 600 && c.count >= c.next && c.next > 0 {
			counted = false // the probe of one worker: nothing counts
		}
		if e >= 600 && !c.probe && !split {
			if switched < 0 {
				switched = e
			}
			ones++
		}
		c.record(split, time.Duration(f*1e6), 1, counted)
	}
	if switched >= 0 {
		t.Errorf("switched to one worker at step %d on a probe with no counted step (two workers 0.6× one); %d steps on one worker outside probes", switched, ones)
	}
}
