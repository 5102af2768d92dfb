package app

import (
	"os"
	"runtime/debug"
)

// SteppingGCPercent is the garbage collector's GOGC while `grainlab run` and
// `grainlab bench` step a loaded world (Go's default, 100, before). A
// world's arrays are made at set-up and reused by the steps, which allocate
// little, so a GOGC of 100 mostly lets the garbage of set-up and of the
// occasional regrowth (a longer pair list, a renumbering every 1000 steps)
// pile up to the size of the live heap before a collection: peak memory up
// to twice what the world holds. At 25 the heap stays within 1.25 × the live
// data, for a few more collections of a heap that rarely changes.
const SteppingGCPercent = 25

// tightenGC sets GOGC to SteppingGCPercent unless the user chose one (the
// GOGC environment variable), and returns the function that puts back the
// previous setting.
func tightenGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(SteppingGCPercent)
	return func() { debug.SetGCPercent(old) }
}
