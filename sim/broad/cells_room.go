package broad

import "unsafe"

// The bodies' cells in the output's room (issue #16, memory per sphere;
// docs/performance.md, "Session 26: memory at 10⁶").
//
// oneLevel numbers each body's cell (Grid.cell, 4 bytes a body) for the
// counting sort of the slots, and reads it last when it writes them
// (phaseSlots); the half stencil after it reads the slots and the cells'
// starts only. The output's room (out: the caller's array, whose contents
// a call replaces) is dead until the half stencil takes it for its blocks
// (halfParts) and, on a list's rebuild, holds ≈ 3 pairs a sphere (24
// bytes): the cells go there when it holds them, and the grid keeps no
// array of cells of its own between calls (3.8 MB at 10⁶ spheres). A
// call without that room (a first build: out not given yet) uses the
// grid's own array (cellOwn), dropped after the call when the output it
// returns would hold the cells of the next (the first build's array is
// then the set-up's garbage, collected before the steps, not held through
// them); kept else (a sparse set: fewer pairs than half the bodies).

// cellsRoom returns the storage of out (all of its room) as n cells, or
// nil when it holds fewer than n int32 (n > 0).
func cellsRoom(out [][2]int32, n int) []int32 {
	if n <= 0 || 2*cap(out) < n {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(out[:1]))), n)
}

// cellsFor sets g.cell for the n bodies of a oneLevel call with output
// out: the output's room when it holds them (the grid's own array then
// dropped), else the grid's own array. endCells ends the call's use.
func (g *Grid) cellsFor(out [][2]int32, n int) {
	if room := cellsRoom(out, n); room != nil {
		g.cell, g.cellOwn = room, nil
		return
	}
	g.cell = sized(g.cellOwn, n)
	g.cellOwn = g.cell
}

// endCells drops the cells of a oneLevel call once the slots are written:
// the grid keeps no view of the caller's array.
func (g *Grid) endCells() { g.cell = nil }

// keepCells is oneLevel's last step: it drops the grid's own array of n
// cells when out, the call's output, holds them (the next call's room).
func (g *Grid) keepCells(out [][2]int32, n int) {
	if cellsRoom(out, n) != nil {
		g.cellOwn = nil
	}
}
