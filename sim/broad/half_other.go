//go:build !amd64 || purego || amd64.v3

package broad

// cellPairs writes to out the pairs (sl[a].I, sl[b].I) of cell a0…a1−1's half
// stencil whose centres are within the bound, float64(dx²) + float64(dy²)
// + float64(dz²) <= s2 (halfCellsOne's test and order of sums), and
// returns their number: a and a+1 against each other and both against
// rg[0] from a+2 (to rg[0][1]) and rg[1:nr]; a last odd body from a+1.
// out holds at least (a1 − a0) × the slots of the cell's ranges from a0.
// The Go twin of half_amd64.s.
func cellPairs(sl []slotBody, a0, a1 int32, rg *[5][2]int32, nr int, s2 float64, out [][2]int32) int {
	return cellPairsGo(sl, a0, a1, rg, nr, s2, out)
}
