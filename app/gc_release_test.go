package app

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// The stepping GOGC's forced collection returns set-up's freed pages to
// the system (debug.FreeOSMemory): after a large world's set-up whose
// garbage the collection frees, the heap holds no free page that is still
// resident (runtime/metrics /memory/classes/heap/free:bytes, free and not
// released). It fails with runtime.GC() alone, which leaves them to the
// background scavenger.
func TestSteppingGCPercentReleases(t *testing.T) {
	world := make([]byte, LargeHeap+(8<<20)) // the world, live
	for i := range world {
		world[i] = 1 // resident
	}
	garbage := make([][]byte, 64) // set-up's garbage: 64 MiB, resident
	for k := range garbage {
		garbage[k] = make([]byte, 1<<20)
		for i := range garbage[k] {
			garbage[k][i] = 1
		}
	}
	runtime.KeepAlive(garbage)
	garbage = nil
	_ = garbage
	if got := steppingGCPercent(); got != LargeSteppingGCPercent {
		t.Fatalf("stepping GOGC %d, want %d", got, LargeSteppingGCPercent)
	}
	free := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(free)
	if free[0].Value.Kind() != metrics.KindUint64 {
		t.Skip("the runtime does not report free heap bytes")
	}
	if f := free[0].Value.Uint64(); f > 8<<20 {
		t.Errorf("%.1f MiB of free heap still resident after the stepping GOGC's collection, want ≤ 8", float64(f)/(1<<20))
	}
	runtime.KeepAlive(world)
}
