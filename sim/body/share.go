package body

import (
	"math"
	"sync"
)

// recent holds the last records made, so that bodies of one species (a
// generator's spheres of one radius and density, a restart's bodies of one
// shape) share one record instead of a copy each: New, NewSphere,
// NewSuperquadric, SetShape and SetMass compute the record, then take an
// equal recent one when there is one. Records are immutable, so sharing
// one changes no value; equality is of the bits (−0 ≠ +0, a NaN equals the
// same NaN), so a shared record holds exactly the bits the body's own would.
var recent struct {
	sync.Mutex
	r    [8]*props
	next int
}

// share returns a record equal bit for bit to r: a recent one, or a new copy
// of r, which becomes recent.
func share(r props) *props {
	recent.Lock()
	defer recent.Unlock()
	for _, p := range recent.r {
		if p != nil && sameBits(p, &r) {
			return p
		}
	}
	p := &r
	recent.r[recent.next] = p
	recent.next = (recent.next + 1) % len(recent.r)
	return p
}

// sameBits reports whether a and b hold the same polyhedron and the same
// bits in every float.
func sameBits(a, b *props) bool {
	if a.poly != b.poly || !eqBits(a.density, b.density) || !eqBits(a.mass, b.mass) ||
		!eqBits(a.invMass, b.invMass) || !eqBits(a.rVol, b.rVol) ||
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
