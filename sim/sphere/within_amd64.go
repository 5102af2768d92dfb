//go:build amd64 && !purego && !amd64.v3

package sphere

import (
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

// withinSSE2 is within's scan from pair k (0 ≤ k ≤ len(P)) in SSE2
// (within_amd64.s), or j = −1 − i (m = 0, next = len(P)) at the first
// pair i ≥ k with an index not below len(X) (as uint32) when no pair
// before it is within the cut-off.
//
//go:noescape
func withinSSE2(P []Pair, X []geom.Vec3, k int, cut2 float64) (j int, m uint, next int)

// within returns the pairs of P from k on within the cut-off (withinGo's
// test, the same answers, the same panics) up to pair next (exclusive):
// pair j + i for each bit i of m, none when m is 0 (then j = next =
// len(P)); next > k unless k = len(P). Its loop in SSE2 assembly: eight
// pairs a turn in four halves of two (the two lanes of the XMM registers), the
// same IEEE operations in the same order ((dx² + dy²) + dz², each product
// rounded, then d² < cut2, false for NaN); the first turn with a pair
// within returns all of its pairs within (j the turn's first pair, next
// its end), so that no pair is tested twice. Below GOAMD64=v3 only, as
// sim/contact's assembly: from v3 on withinGo runs (within_other.go).
func within(P []Pair, X []geom.Vec3, k int, cut2 float64) (j int, m uint, next int) {
	_ = P[k:] // withinGo's panic for k out of range
	if j, m, next = withinSSE2(P, X, k, cut2); j < 0 {
		// An index out of range at pair −1 − j (uint32 ≥ len(X), the
		// assembly's test): Go's index expressions panic there. (Were
		// they not to, m = 0 and next = len(P) end the scan.)
		p := P[-1-j]
		_, _ = X[uint32(p.I)], X[uint32(p.J)]
	}
	return j, m, next
}

// withinAsm reports whether within runs the assembly.
const withinAsm = true
