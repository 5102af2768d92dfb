//go:build amd64 && !purego && !amd64.v3

package broad

import "unsafe"

// The layout half_amd64.s assumes: each line fails to compile when an
// offset or a size differs.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(slotBody{})-32]
	_ = [1]struct{}{}[unsafe.Offsetof(slotBody{}.Y)-8]
	_ = [1]struct{}{}[unsafe.Offsetof(slotBody{}.Z)-16]
	_ = [1]struct{}{}[unsafe.Offsetof(slotBody{}.I)-24]
)

// cellPairsSSE2 is cellPairs in SSE2 (half_amd64.s).
//
//go:noescape
func cellPairsSSE2(sl *slotBody, a0, a1 int32, rg *[5][2]int32, nr int, s2 float64, out *[2]int32) int

// cellPairs writes to out the pairs (sl[a].I, sl[b].I) of cell a0…a1−1's half
// stencil whose centres are within the bound, float64(dx²) + float64(dy²)
// + float64(dz²) <= s2 (halfCellsOne's test and order of sums), and
// returns their number: a and a+1 against each other and both against
// rg[0] from a+2 (to rg[0][1]) and rg[1:nr]; a last odd body from a+1.
// out holds at least (a1 − a0) × the slots of the cell's ranges from a0;
// sl is not empty.
func cellPairs(sl []slotBody, a0, a1 int32, rg *[5][2]int32, nr int, s2 float64, out [][2]int32) int {
	return cellPairsSSE2(&sl[0], a0, a1, rg, nr, s2, &out[0])
}
