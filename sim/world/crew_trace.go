//go:build crewtrace

package world

import (
	"bufio"
	"encoding/binary"
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
)

func init() {
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
	traceBuf = traceBuf[:0]
	for i := 0; i < n; i++ {
		t := nanotime()
		body(0, i, i+1)
		traceBuf = append(traceBuf, float32(nanotime()-t))
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
