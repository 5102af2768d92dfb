package app

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// setGC sets GOGC and puts the setting before back; a GOGC environment
// variable is the user's choice and is left alone.
func TestSetGC(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := setGC(SetupGCPercent)
	if got := debug.SetGCPercent(SetupGCPercent); got != SetupGCPercent {
		t.Errorf("GOGC after setGC(%d) = %d", SetupGCPercent, got)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC after restore = %d, want 100", got)
	}
	t.Setenv("GOGC", "200")
	setGC(SteppingGCPercent)()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC with the GOGC variable set = %d, want the setting left at 100", got)
	}
	setGC(SteppingGCPercent)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("setGC changed GOGC although the GOGC variable is set: %d", got)
	}
}

// A world whose live heap after set-up is LargeHeap or more steps at
// LargeSteppingGCPercent, a smaller one at SteppingGCPercent (the live heap
// of the last collection decides).
func TestSteppingGCPercent(t *testing.T) {
	runtime.GC()
	if got := steppingGCPercent(); got != SteppingGCPercent {
		t.Errorf("small heap: stepping GOGC %d, want %d", got, SteppingGCPercent)
	}
	big := make([]byte, LargeHeap+(8<<20))
	runtime.GC()
	if got := steppingGCPercent(); got != LargeSteppingGCPercent {
		t.Errorf("live heap ≥ %d MiB: stepping GOGC %d, want %d", LargeHeap>>20, got, LargeSteppingGCPercent)
	}
	runtime.KeepAlive(big)
	runtime.GC()
	if got := steppingGCPercent(); got != SteppingGCPercent {
		t.Errorf("after the large heap is gone: stepping GOGC %d, want %d", got, SteppingGCPercent)
	}
}
