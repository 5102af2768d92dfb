//go:build !amd64 || purego || amd64.v3

package sphere

import "grainlab/sim/geom"

// within returns the pairs of P from k on within the cut-off up to pair
// next (exclusive): pair j + i for each bit i of m, none when m is 0 (then
// j = next = len(P)); next > k unless k = len(P). Here the first pair
// withinGo finds (m = 1, next = j + 1); on amd64 below GOAMD64=v3 up to
// eight from SSE2 assembly (within_amd64.s).
func within(P []Pair, X []geom.Vec3, k int, cut2 float64) (j int, m uint, next int) {
	j = withinGo(P, X, k, cut2)
	if j == len(P) {
		return j, 0, j
	}
	return j, 1, j + 1
}

// withinAsm reports whether within runs the assembly.
const withinAsm = false
