package ui

import (
	"math"
	"testing"
)

func ringOf(vs ...float64) *Ring {
	r := NewRing(len(vs))
	for _, v := range vs {
		r.Push(float32(v))
	}
	return r
}

// heightUsed returns the fraction of the plot's height that samples a..b of
// series i span under the ranges lo, hi.
func heightUsed(a, b, lo, hi float64) float64 { return (b - a) / (hi - lo) }

// The stage timings are scaled by the window's 95th percentile: one 45 ms
// stall among ~0.1 ms steps leaves the 0.08..0.12 ms spread over most of
// the height (on the shared max-scale it used < 0.1 %: the review's flat
// lines). The energies are each on their own scale: 738 nJ of kinetic
// energy next to 642 kJ of gravity still spans the full height.
func TestPlotRanges(t *testing.T) {
	var stage []float64
	for i := 0; i < 200; i++ {
		stage = append(stage, 1e-4+2e-5*math.Sin(float64(i)))
	}
	stage[150] = 45e-3
	ss := []series{{name: "contacts", ring: ringOf(stage...), unit: "s"}, {name: "integrate", ring: ringOf(stage[:100]...), unit: "s"}}
	lo, hi, ok := plotRanges(ss, scaleRobust)
	if !ok {
		t.Fatal("no range")
	}
	robust := heightUsed(0.8e-4, 1.2e-4, lo[0], hi[0])
	slo, shi, _ := plotRanges(ss, scaleShared)
	shared := heightUsed(0.8e-4, 1.2e-4, slo[0], shi[0])
	t.Logf("stage spread uses %.3g of the height on the p95 scale [%g, %g], %.3g on the max scale [%g, %g]", robust, lo[0], hi[0], shared, slo[0], shi[0])
	if robust < 0.8 || hi[0] > 2e-4 || lo[1] != lo[0] || hi[1] != hi[0] {
		t.Errorf("robust scale [%g, %g] (second series [%g, %g]): the spread uses %.3g of the height, want ≥ 0.8 and one shared range", lo[0], hi[0], lo[1], hi[1], robust)
	}
	if shared > 0.01 {
		t.Errorf("max scale: spread uses %.3g (the spike should flatten it: the test's premise)", shared)
	}

	kin := ringOf(0, 3e-7, 738e-9, 5e-7)
	grav := ringOf(642e3, 641.9e3, 641.8e3, 641.7e3)
	lo, hi, _ = plotRanges([]series{{ring: grav, unit: "J"}, {ring: kin, unit: "J"}}, scaleEach)
	if u := heightUsed(0, 738e-9, lo[1], hi[1]); math.Abs(u-1) > 1e-6 {
		t.Errorf("kinetic on its own scale uses %.3g of the height, want 1", u)
	}
	if u := heightUsed(641.7e3, 642e3, lo[0], hi[0]); math.Abs(u-1) > 1e-3 {
		t.Errorf("gravity on its own scale uses %.3g of the height, want 1", u)
	}
	flat := []series{{ring: ringOf(5, 5, 5)}}
	if lo, hi, _ := plotRanges(flat, scaleEach); !(hi[0] > lo[0]) || lo[0] > 5 || hi[0] < 5 {
		t.Errorf("a flat series' range [%g, %g] must hold it and be wider than 0", lo[0], hi[0])
	}
}

// Legends print counts as integers and read the value at the time cursor
// while a past frame is shown (the newest value otherwise).
func TestPlotLegendAtCursor(t *testing.T) {
	h := NewHistory(16, 0)
	for i := 0; i < 10; i++ {
		h.Times.Push(float32(i) * 0.1)
		h.Kinetic.Push(float32(i) * 1e-3)
		h.Kinds[0].Push(float32(10 + i))
	}
	p := &Panel{hist: h}
	ss := []series{{name: "kinetic", ring: h.Kinetic, unit: "J"}, {name: "VF", ring: h.Kinds[0]}}
	if got := p.legend(ss, &PanelInput{}); got[0] != "kinetic "+FormatSI(9e-3, "J") || got[1] != "VF 19" {
		t.Errorf("legend without cursor %q, want the newest values (VF 19)", got)
	}
	got := p.legend(ss, &PanelInput{HasCursor: true, Cursor: 0.45})
	if got[0] != "kinetic "+FormatSI(4e-3, "J") || got[1] != "VF 14" {
		t.Errorf("legend at the cursor t = 0.45 s %q, want the sample at t = 0.4 s (VF 14)", got)
	}
	if s := legendValue(1234, ""); s != "1234" {
		t.Errorf("count %q, want 1234", s)
	}
}
