package cputime

import (
	"runtime"
	"testing"
)

// TestBusyLoopCounts: 50 ms of busy work on this thread shows in both
// figures (at least half of it: the clock ticks coarsely), and the thread's
// never exceeds the process's.
func TestBusyLoopCounts(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no getrusage")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, p0 := Thread(), Process()
	x := 1.0
	for Thread()-t0 < 50e6 && Process()-p0 < 5e9 {
		for range 100000 {
			x = x*1.0000001 + 1e-9
		}
	}
	dt, dp := Thread()-t0, Process()-p0
	if dt < 25e6 || dp < dt/2 {
		t.Errorf("thread %v, process %v after a 50 ms busy loop (x %g)", dt, dp, x)
	}
	if th, pr := Thread(), Process(); th > pr {
		t.Errorf("thread CPU %v above the process's %v", th, pr)
	}
}
