package body

import (
	"math"
	"sync"
	"unsafe"
	"weak"
)

// recent holds the last records made, so that bodies of one species (a
// generator's spheres of one radius and density, a restart's bodies of one
// shape) share one record instead of a copy each: New, NewSphere,
// NewSuperquadric, SetShape and SetMass compute the record, then take an
// equal recent one when there is one. Records are immutable, so sharing
// one changes no value; equality is of the bits (−0 ≠ +0, a NaN equals the
// same NaN), so a shared record holds exactly the bits the body's own would.
//
// The ring holds its records by weak pointers: it keeps none alive that no
// body uses (a large STL mesh is freed with the last body of a scene that
// was reloaded, not when eight newer records have pushed it out). Each
// entry keeps its record's hash (recordHash), so a search loads only the
// records that may be equal.
var recent struct {
	sync.Mutex
	r    [8]recentRecord
	next int
}

// recentRecord is one entry of the ring: a record, weakly, and its hash.
type recentRecord struct {
	p weak.Pointer[props]
	h uint64
}

// share returns a record equal bit for bit to r: a recent one still in use,
// or a new copy of r, which becomes recent.
func share(r props) *props {
	h := recordHash(&r)
	recent.Lock()
	defer recent.Unlock()
	for k := range len(recent.r) { // the latest first: a generator's bodies hit at once
		e := &recent.r[(recent.next+len(recent.r)-1-k)%len(recent.r)]
		if e.h != h {
			continue
		}
		if p := e.p.Value(); p != nil && sameBits(p, &r) {
			return p
		}
	}
	p := &r
	recent.r[recent.next] = recentRecord{weak.Make(p), h}
	recent.next = (recent.next + 1) % len(recent.r)
	return p
}

// recordHash mixes every bit sameBits compares (the polyhedron by its
// address, the group by its bytes), so that equal records hash alike.
func recordHash(r *props) uint64 {
	h := uint64(uintptr(unsafe.Pointer(r.poly)))
	mix := func(x float64) { h = (h^math.Float64bits(x))*0x100000001b3 + 0x9e3779b97f4a7c15 }
	for _, x := range [...]float64{r.density, r.mass, r.invMass, r.jMax, r.rVol, r.sq.A, r.sq.B, r.sq.C, r.sq.N1, r.sq.N2} {
		mix(x)
	}
	for i := range 3 {
		for j := range 3 {
			mix(r.iBody[i][j])
			mix(r.iBodyInv[i][j])
		}
	}
	for i := range len(r.group) {
		h = (h ^ uint64(r.group[i])) * 0x100000001b3
	}
	return h
}

// Group returns the name of the generator that made the body (its Name is
// Group + index), "" for a body not made by a generator. It is kept in the
// record the body's species shares (a generator's bodies are one species),
// not in each body.
func (b *Body) Group() string { return b.rec().group }

// SetGroup sets the body's generator name (Group); the body gets a record
// with it (shared, copy on write: bodies that shared the old one keep it).
func (b *Body) SetGroup(g string) {
	if b.rec().group == g {
		return
	}
	r := *b.rec()
	r.group = g
	b.p = share(r)
}

// sameBits reports whether a and b hold the same polyhedron, the same group
// and the same bits in every float.
func sameBits(a, b *props) bool {
	if a.poly != b.poly || a.group != b.group || !eqBits(a.density, b.density) || !eqBits(a.mass, b.mass) ||
		!eqBits(a.invMass, b.invMass) || !eqBits(a.jMax, b.jMax) || !eqBits(a.rVol, b.rVol) ||
		!eqBits(a.sq.A, b.sq.A) || !eqBits(a.sq.B, b.sq.B) || !eqBits(a.sq.C, b.sq.C) ||
		!eqBits(a.sq.N1, b.sq.N1) || !eqBits(a.sq.N2, b.sq.N2) {
		return false
	}
	for i := range 3 {
		for j := range 3 {
			if !eqBits(a.iBody[i][j], b.iBody[i][j]) || !eqBits(a.iBodyInv[i][j], b.iBodyInv[i][j]) {
				return false
			}
		}
	}
	return true
}

func eqBits(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// ShapeState is what SetShape (and SetMass) replace in a body: its kind,
// bounding radius and shape-and-mass record. ShapeState and RestoreShape
// undo a shape edit to the bit (recomputing the old shape's mass would not
// give the bits of a body built by NewSphere or given a mass).
type ShapeState struct {
	kind Kind
	r    float64
	p    *props
}

// ShapeState returns the body's kind, bounding radius and record.
func (b *Body) ShapeState() ShapeState { return ShapeState{b.Kind, b.R, b.p} }

// RestoreShape puts back a state ShapeState returned (of this body or of
// one of its species).
func (b *Body) RestoreShape(s ShapeState) { b.Kind, b.R, b.p = s.kind, s.r, s.p }
