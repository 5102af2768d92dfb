package app

import (
	"runtime"
	"testing"
)

// Review r2 (session 15; failed before the forced collection): steppingGCPercent reads
// the live heap of the LAST collection, and Run/bench force none after
// Load, so the decision sees whatever was live when the set-up's last
// cycle ran: set-up scratch (parsed input, generator lattice) still live
// then counts, and world parts allocated after it do not. Here a
// transient of LargeHeap+8 MiB live at a set-up collection and dead at its
// end makes a world of ~0 bytes step at LargeSteppingGCPercent. Measured
// with the CLI (bench sphere-box-soft, 70 000 spheres, live after a forced
// collection 62.6 MiB): 56.2 MiB at the decision in one run (GOGC 25),
// 74.5 MiB in the next (GOGC 10).
func TestSteppingGCPercentStaleLive(t *testing.T) {
	runtime.GC()
	scratch := make([]byte, LargeHeap+(8<<20)) // the set-up's transient
	runtime.GC()                               // a set-up collection while it is live
	runtime.KeepAlive(scratch)
	scratch = nil
	_ = scratch
	// set-up ends: nothing large is live
	if got := steppingGCPercent(); got != SteppingGCPercent {
		t.Errorf("stepping GOGC %d for a world of ~0 live bytes, want %d (decided on the stale live heap of a set-up collection)", got, SteppingGCPercent)
	}
}
