//go:build crewtrace

package world

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	_ "unsafe" // runtime.nanotime
)

// A build with -tags crewtrace and GRAINLAB_CREW_TRACE=FILE runs every
// fork–join's items one at a time on the caller, each timed, and writes
// per fork–join: int32 n, float32 ns of serial time since the last one
// ended, n float32 ns (one per item), little-endian. internal/crewreplay
// replays such traces through the crew's claiming rules (how the batch
// rules of crew.go were chosen: docs/performance.md, "Session 9: two
// workers"). Run with Settings.Workers ≥ 2 so that the passes take the
// code paths of two workers.

const crewTracing = true

//go:linkname nanotime runtime.nanotime
func nanotime() int64

var (
	traceOut  *bufio.Writer
	traceLast int64
	traceBuf  []float32
	traceFlip bool
)

// GRAINLAB_CHOICE_TRACE=FILE (same build) writes a line per step that
// SplitAuto timed: the pick, whether it was a probe, the way in use, the
// step's wall time (µs) and work, whether it counted, the two averages
// (ns a unit of work) after it and the probe interval. The steps run as
// in an ordinary build unless GRAINLAB_CREW_TRACE is set too.
var choiceOut *bufio.Writer

func traceChoice(c *splitChoice, split bool, d int64, work int, counted bool) {
	if choiceOut == nil {
		return
	}
	fmt.Fprintf(choiceOut, "%d %t %t %d %.1f %d %t %.4f %.4f %d %d\n", c.count, split, c.probe, c.use,
		float64(d)/1e3, work, counted, c.ns[0], c.ns[1], c.every, c.next)
	choiceOut.Flush()
}

func init() {
	if p := os.Getenv("GRAINLAB_CHOICE_TRACE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			panic(err)
		}
		choiceOut = bufio.NewWriter(f)
		fmt.Fprintln(choiceOut, "count split probe use us work counted ns0 ns1 every next")
	}
	if p := os.Getenv("GRAINLAB_CREW_TRACE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			panic(err)
		}
		traceOut = bufio.NewWriterSize(f, 1<<20)
		traceLast = nanotime()
	}
}

// traceRun runs and times the items of one fork–join (see above); it
// reports false when no trace is being written.
func traceRun(n int, body func(k, lo, hi int)) bool {
	if traceOut == nil {
		return false
	}
	gap := nanotime() - traceLast
	traceBuf = append(traceBuf[:0], make([]float32, n)...)
	// A pass of one item per worker (the accumulation's ranges) runs its
	// items in order and in reverse on alternate such passes: the item
	// run first pays the cold caches (≈ 6 µs of the collapse's ≈ 20 µs
	// ranges), which always falling on item 0 showed as an imbalance the
	// workers, each starting cold, do not have.
	flip := false
	if n <= 8 {
		traceFlip = !traceFlip
		flip = traceFlip
	}
	for j := 0; j < n; j++ {
		i := j
		if flip {
			i = n - 1 - j
		}
		t := nanotime()
		body(0, i, i+1)
		traceBuf[i] = float32(nanotime() - t)
	}
	binary.Write(traceOut, binary.LittleEndian, int32(n))
	binary.Write(traceOut, binary.LittleEndian, float32(gap))
	binary.Write(traceOut, binary.LittleEndian, traceBuf)
	if err := traceOut.Flush(); err != nil {
		panic(err)
	}
	traceLast = nanotime()
	return true
}
