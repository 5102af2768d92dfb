package app

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// The garbage collector's GOGC in `grainlab run` and `grainlab bench` (Go's
// default is 100), unless the GOGC environment variable sets it. A world's
// arrays are made at set-up and reused by the steps, which allocate little:
// at 100 the garbage of set-up (appends that grew, the start audit's
// grid) and of the occasional regrowth while stepping (a longer pair list,
// a renumbering every 1000 spheres' steps) pile up to the size of the live
// heap before a collection, so peak memory reaches up to twice what the
// world holds. Measured at 10⁶ spheres (docs/performance.md, "Session 9:
// memory per sphere"): set-up at 50 costs no more CPU than at 100 and
// peaks 150–220 MB lower; 25 took 0.3 CPU-s more at set-up, but costs
// nothing measurable while stepping. A world whose live heap after set-up
// is LargeHeap or more steps at LargeSteppingGCPercent: at 10⁵ spheres
// (~100 MiB live) the peak RSS of `make bench-lammps` falls from ~137 to
// ~125 MB for ~16 ms more collection CPU over 500 steps of ~3.3 s
// (docs/performance.md, "Session 15: memory per sphere"); smaller worlds
// (the collapse: ~8 MiB) keep 25.
const (
	SetupGCPercent         = 50       // while a scene is loaded and its world started
	SteppingGCPercent      = 25       // while the loaded world steps
	LargeSteppingGCPercent = 10       // while a world of LargeHeap or more steps
	LargeHeap              = 64 << 20 // live heap bytes after set-up from which a world is large
)

// steppingGCPercent returns the GOGC for stepping the world just loaded:
// SteppingGCPercent, or LargeSteppingGCPercent when the world's live heap
// is LargeHeap or more. The runtime's figure is that of the last
// collection, which may have run in the middle of set-up (its scratch
// still live, parts of the world not yet made: review r2 measured 50–75
// MiB for the same 62.6 MiB world by run); when that figure is LargeHeap/2
// or more, a collection is forced first (≈ 12 ms at 10⁵ spheres, and it
// frees the set-up's garbage before stepping), so the choice is made on
// the world's own heap. Smaller worlds pay nothing.
//
// The forced collection also returns the free pages to the system
// (debug.FreeOSMemory): set-up's garbage, freed by its collections, stays
// resident otherwise, and the steps, which allocate little, reuse little
// of it — at 10⁶ spheres ≈ 20 MB of the peak RSS (docs/performance.md,
// "Session 27: memory at 10⁶ — bodies, pairs, set-up").
func steppingGCPercent() int {
	if liveHeap() >= LargeHeap/2 {
		debug.FreeOSMemory() // a collection, then the free pages returned
		if liveHeap() >= LargeHeap {
			return LargeSteppingGCPercent
		}
	}
	return SteppingGCPercent
}

// liveHeap returns the live heap bytes of the last collection (0 when the
// runtime does not report them).
func liveHeap() uint64 {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return live[0].Value.Uint64()
}

// setGC sets GOGC to percent unless the user chose one (the GOGC environment
// variable), and returns the function that puts back the setting before.
func setGC(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

// releaseBodies is the body count from which a world dropped by a scene
// switch in a long-lived process (the window's SimLoop: Load, Reset) has
// its memory handed back to the OS at once (releaseDropped).
const releaseBodies = 10000

// releaseDropped collects the world just dropped and returns the freed
// heap to the OS (debug.FreeOSMemory: a collection of the live heap, the
// new scene's, then every free page released). Go's background scavenger
// did not: after the window switched from the 10⁵-sphere box (RSS 559 MB)
// to sphere-piling, 543 MB stayed free in the heap and resident for as
// long as it was watched — the huge-page arrays (sim/sphere/huge.go, 10
// MB of them) no more than the rest (docs/performance.md, "Session 27:
// outputs and edits at large N").
func releaseDropped() { debug.FreeOSMemory() }
