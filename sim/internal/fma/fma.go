// Package fma tells tests whether the compiler may fuse x*y ± z into one
// fused multiply-add on this build (docs/ARCHITECTURE.md, "Determinism and
// fused multiply-adds"), and compares two formulations of one quantity: bit
// for bit where nothing fuses, within a stated relative tolerance where it
// may (a fused product is rounded once, its written-out copy twice, so the
// two can differ in the last bits, more after cancellation).
package fma

import "math"

// Same reports whether a and b have the same bits (or are both NaN), or,
// on a build where MayFuse is true, whether |a − b| ≤ rel·max(|a|, |b|, scale).
func Same(a, b, rel, scale float64) bool {
	if math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	if !MayFuse {
		return false
	}
	return math.Abs(a-b) <= rel*max(math.Abs(a), math.Abs(b), scale)
}
