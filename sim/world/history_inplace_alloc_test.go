package world_test

import (
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// HistoryStreamInPlace states the sphere pairs without garbage a pair
// (fillPairState into one reused PairState): a value whose address a
// PairState keeps (the cache's state) made on the heap for every pair
// was 58 MB of garbage in a 10⁵-sphere final.json.
func TestHistoryStreamInPlaceNoAllocPerPair(t *testing.T) {
	w := startScene(t, "sphere-box-soft", "")
	if _, err := integrate.Advance(w, 0.01, nil); err != nil {
		t.Fatal(err)
	}
	pairs := 0
	_, _, each := w.HistoryStreamInPlace()
	if err := each(func(*world.PairState) error { pairs++; return nil }); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		_, _, each := w.HistoryStreamInPlace()
		each(func(*world.PairState) error { return nil })
	})
	t.Logf("%d pairs, %.0f allocations a stream", pairs, allocs)
	if pairs < 200 || allocs*8 > float64(pairs) {
		t.Fatalf("%d pairs, %.0f allocations a stream: want many pairs and under one allocation in 8 pairs", pairs, allocs)
	}
}
