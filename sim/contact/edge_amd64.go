//go:build amd64 && !purego && !amd64.v3

package contact

import (
	"unsafe"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
)

// The layout edge_amd64.s assumes: each line fails to compile when an
// offset, a size or a constant differs. Contact holds no pointers
// (TestContactHasNoPointers), so the assembly writes contacts without
// write barriers.
var (
	_ = [1]struct{}{}[unsafe.Offsetof(Posed{}.Poly)]
	_ = [1]struct{}{}[unsafe.Offsetof(Posed{}.V)-136]
	_ = [1]struct{}{}[unsafe.Offsetof(shape.Polyhedron{}.Edges)-64]
	_ = [1]struct{}{}[unsafe.Sizeof(shape.Edge{})-32]
	_ = [1]struct{}{}[unsafe.Offsetof(shape.Edge{}.V)]
	_ = [1]struct{}{}[unsafe.Sizeof(geom.Vec3{})-24]
	_ = [1]struct{}{}[unsafe.Sizeof(Contact{})-240]
	_ = [1]struct{}{}[unsafe.Offsetof(Contact{}.Kind)] // promoted names: offsets within Contact (review r3)
	_ = [1]struct{}{}[unsafe.Offsetof(Contact{}.FA)-4]
	_ = [1]struct{}{}[unsafe.Offsetof(Contact{}.FB)-8]
	// The tolerances written as constants in edge_amd64.s and vf_amd64.s
	// (eetol, vftol, vfptol, vfmptol: 1e-12): a changed value fails to
	// compile here (constant arithmetic is exact).
	_ = [1]struct{}{}[degenParallelTol*1e12-1]
	_ = [1]struct{}{}[ParamTol*1e12-1]
	_ = [1]struct{}{}[unsafe.Offsetof(Contact{}.PA)-16]
	_ = [1]struct{}{}[unsafe.Offsetof(Contact{}.PB)-40]
	_ = [1]struct{}{}[unsafe.Offsetof(Contact{}.N)-64]
	_ = [1]struct{}{}[unsafe.Offsetof(Contact{}.Gn)-88]
	_ = [1]struct{}{}[snap.EE-1]
)

// eeSSE2 runs edgeEdgesGo's loop, mk included, from list entry k
// (edge_amd64.s), appending the contacts in out's spare capacity: it
// returns the number m written and next = len(ee) at the list's end, or
// next < len(ee) at an accepted entry for which out has no room (then
// len(out)+m = cap(out)) or at an entry whose edge or vertex index is out
// of range (not solved; then len(out)+m < cap(out); edgeEdges panics). a.Poly and b.Poly
// are not nil; len(dee) ≥ len(ee).
//
//go:noescape
func eeSSE2(a, b *Posed, ee [][2]int32, dee []float64, lim, g2 float64, k int, out []Contact) (next, m int)

// edgeEdges is edgeEdgesGo (the same contacts, the same bits), its loop
// and mk in SSE2 assembly: the same IEEE operations in the same order,
// with A's edge values kept in the frame instead of the spills Go's
// register allocator makes around them. Below GOAMD64=v3 only: from v3 on
// the compiler may fuse edgeEdgesGo's products and sums into FMAs, and
// edgeEdgesGo itself runs (edge_other.go).
func edgeEdges(a, b *Posed, ee [][2]int32, dee []float64, lim, gbar float64, out []Contact) []Contact {
	dee = dee[:len(ee)]
	if a.Poly == nil || b.Poly == nil {
		return edgeEdgesGo(a, b, ee, dee, lim, gbar, out) // its panic
	}
	g2 := gbar * gbar
	for k := 0; k < len(ee); {
		next, m := eeSSE2(a, b, ee, dee, lim, g2, k, out)
		out = out[:len(out)+m]
		if next == len(ee) {
			break
		}
		if len(out) < cap(out) {
			// An index out of range at entry next: Go's index
			// expressions panic there.
			p := ee[next]
			e, f := &a.Poly.Edges[p[0]], &b.Poly.Edges[p[1]]
			_, _, _, _ = a.V[e.V[0]], a.V[e.V[1]], b.V[f.V[0]], b.V[f.V[1]]
			panic("contact: eeSSE2 stopped at an entry in range")
		}
		out = append(out, Contact{})[:len(out)] // room for entry next
		k = next
	}
	return out
}

// edgeAsm reports whether edgeEdges runs the assembly.
const edgeAsm = true
