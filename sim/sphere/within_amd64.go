//go:build amd64 && !purego && !amd64.v3

package sphere

import (
	"math"
	"unsafe"

	"grainlab/sim/geom"
)

// The layout within_amd64.s assumes: each line fails to compile when an
// offset or a size differs.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(Pair{})-8]
	_ = [1]struct{}{}[unsafe.Offsetof(Pair{}.I)]
	_ = [1]struct{}{}[unsafe.Offsetof(Pair{}.J)-4]
	_ = [1]struct{}{}[unsafe.Sizeof(geom.Vec3{})-24]
	_ = [1]struct{}{}[unsafe.Offsetof(geom.Vec3{}.Y)-8]
	_ = [1]struct{}{}[unsafe.Offsetof(geom.Vec3{}.Z)-16]
)

// withinSSE2 is withinGo's loop from pair k (0 ≤ k ≤ len(P); 1 ≤ len(X) <
// 2³¹) in SSE2
// (within_amd64.s): it returns the first pair j ≥ k within the cut-off,
// or len(P), or −1 − j at the first pair j ≥ k with an index not below
// len(X) (as uint32) when no pair before it is within the cut-off.
//
//go:noescape
func withinSSE2(P []Pair, X []geom.Vec3, k int, cut2 float64) int

// within is withinGo (the same answer, the same panics), its loop in SSE2
// assembly: two pairs a turn in the two lanes of the XMM registers, the
// same IEEE operations in the same order ((dx² + dy²) + dz², each product
// rounded, then d² < cut2, false for NaN), about 21 instructions a pair
// against withinGo's 24. Below GOAMD64=v3 only, as sim/contact's
// assembly: from v3 on withinGo runs (within_other.go).
func within(P []Pair, X []geom.Vec3, k int, cut2 float64) int {
	if len(X) == 0 || len(X) > math.MaxInt32 {
		return withinGo(P, X, k, cut2) // its panics; uint32(p.I) ≥ 2³¹ may be in range
	}
	_ = P[k:] // withinGo's panic for k out of range
	j := withinSSE2(P, X, k, cut2)
	if j < 0 {
		// An index out of range at pair −1 − j: Go's index
		// expressions panic there.
		p := P[-1-j]
		_, _ = X[uint32(p.I)], X[uint32(p.J)]
		panic("sphere: withinSSE2 stopped at a pair in range")
	}
	return j
}

// withinAsm reports whether within runs the assembly.
const withinAsm = true
