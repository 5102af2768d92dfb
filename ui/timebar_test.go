package ui

import (
	"math"
	"testing"

	"grainlab/sim/snap"
)

// TestTimelineAdvance: playback moves the cursor by factor × wall time,
// forwards into the live edge (or stopping at the end of a recorded run),
// backwards stopping at the first frame; live and stopped cursors stay.
func TestTimelineAdvance(t *testing.T) {
	tl := NewTimeline()
	tl.Advance(1, 0, 10, true)
	if !tl.Live || tl.T != 0 {
		t.Fatalf("a live cursor moved: %+v", tl)
	}
	tl.Seek(2)
	tl.Advance(1, 0, 10, true)
	if tl.Live || tl.T != 2 {
		t.Fatalf("a stopped cursor moved: %+v", tl)
	}
	tl.Playing, tl.Factor = true, 0.5
	tl.Advance(2, 0, 10, true)
	if math.Abs(tl.T-3) > 1e-12 || tl.Live {
		t.Fatalf("0.5x for 2 s from t=2: %+v, want t=3", tl)
	}
	tl.Advance(100, 0, 10, true)
	if !tl.Live {
		t.Fatalf("forward play past the newest frame did not go live: %+v", tl)
	}
	tl.Seek(9)
	tl.Playing = true
	tl.Advance(100, 0, 10, false)
	if tl.Live || tl.Playing || tl.T != 10 {
		t.Fatalf("a recorded run's end: %+v, want stopped at t=10", tl)
	}
	tl.Playing, tl.Factor = true, -2
	tl.Advance(1, 0, 10, true)
	if tl.T != 8 {
		t.Fatalf("backwards 2x for 1 s from 10: t=%g", tl.T)
	}
	tl.Advance(100, 0, 10, true)
	if tl.Playing || tl.T != 0 {
		t.Fatalf("backwards past the first frame: %+v", tl)
	}
}

// TestHistoryCursor: the plot cursor falls on the sample at or before the
// shown time, and not at all outside the samples.
func TestHistoryCursor(t *testing.T) {
	h := NewHistory(10, 0)
	for i := 0; i < 5; i++ {
		s := &snap.Snapshot{Scene: "x"}
		s.Stats.Step, s.Stats.Time = int64(i+1), float64(i)
		h.Observe(s, float64(i))
	}
	for _, c := range []struct {
		t    float64
		f    float64
		want bool
	}{{0, 0, true}, {2.5, 0.5, true}, {4, 1, true}, {-1, 0, false}, {5, 0, false}} {
		f, ok := h.CursorFraction(c.t)
		if ok != c.want || (ok && math.Abs(f-c.f) > 1e-12) {
			t.Errorf("t=%g: %g %v, want %g %v", c.t, f, ok, c.f, c.want)
		}
	}
}
