package contact

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// AABB is an axis-aligned box.
type AABB struct{ Min, Max geom.Vec3 }

// Inflate returns the box grown by r on every side.
func (a AABB) Inflate(r float64) AABB {
	d := geom.V(r, r, r)
	return AABB{a.Min.Sub(d), a.Max.Add(d)}
}

// Overlaps reports whether a and b intersect.
func (a AABB) Overlaps(b AABB) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X &&
		a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y &&
		a.Min.Z <= b.Max.Z && b.Min.Z <= a.Max.Z
}

// Contains reports whether p lies in a.
func (a AABB) Contains(p geom.Vec3) bool {
	return p.X >= a.Min.X && p.X <= a.Max.X && p.Y >= a.Min.Y && p.Y <= a.Max.Y &&
		p.Z >= a.Min.Z && p.Z <= a.Max.Z
}

func segBox(p, q geom.Vec3) AABB { return AABB{p.Min(q), p.Max(q)} }

func triBox(a, b, c geom.Vec3) AABB { return AABB{a.Min(b).Min(c), a.Max(b).Max(c)} }

// Posed is a polyhedron placed in the world for one step: world-frame vertices
// are computed once per step and shared by every pair test. Face normals are
// rotated when a test reads them (FaceNormal: a few per pair, where placing
// all of them cost more than the narrow phase's reads), and feature boxes
// are not kept: a rebuild of a pair's feature list computes the boxes of
// the features near the other body only (near).
type Posed struct {
	Poly  *shape.Polyhedron
	X     geom.Vec3
	Q     geom.Quat
	R     geom.Mat3   // rotation matrix of Q
	V     []geom.Vec3 // world vertices
	Box   AABB        // world AABB of V
	Fixed bool

	// gen counts the placements (Update); moved bounds the motion from the
	// previous placement to this one (Cache.Stale's tracked bound).
	gen   uint64
	moved motion
	trav  Travel // the sum of moved over all placements (Cache.Grant, Lease)
}

// motion bounds how far a body's points moved between two consecutive
// placements: the centre by dx, the orientation by at most theta radians
// (both +Inf when unknown).
type motion struct{ dx, theta float64 }

// Update places p's polyhedron at (x, q), refreshing world vertices and box.
func (p *Posed) Update(poly *shape.Polyhedron, x geom.Vec3, q geom.Quat, fixed bool) {
	p.gen++
	if p.Poly == poly && poly != nil {
		p.moved = motion{x.Sub(p.X).Norm(), angleBound(p.Q, q)}
	} else {
		p.moved = motion{math.Inf(1), math.Inf(1)}
	}
	p.trav.add(p.moved)
	p.Poly, p.X, p.Q, p.Fixed = poly, x, q, fixed
	if cap(p.V) < len(poly.Verts) {
		p.V = make([]geom.Vec3, len(poly.Verts))
	}
	verts := poly.Verts
	V := p.V[:len(verts)]
	p.V = V
	p.R = q.Mat()
	placeVerts(V, verts, x, &p.R, &p.Box)
}

// place writes x + R·v for every v of verts into V (len(V) == len(verts)),
// rounded as x.Add(R.MulV(v)) rounds it (S0's placed vertices: a rotation
// and a translation), and their AABB into box as geom.Vec3.Min and Max
// from ±1e300 give it (plain comparisons; {(1e300, …), (−1e300, …)} when
// verts is empty). The entries of R and x are held in scalars and the
// extremes in box itself: the compiler keeps the former in registers and
// shuffles none for the latter (≈ 60 instructions a vertex, 75 before).
func place(V, verts []geom.Vec3, x geom.Vec3, R *geom.Mat3, box *AABB) {
	V = V[:len(verts)]
	box.Min = geom.Vec3{X: 1e300, Y: 1e300, Z: 1e300}
	box.Max = box.Min.Neg()
	r00, r01, r02 := R[0][0], R[0][1], R[0][2]
	r10, r11, r12 := R[1][0], R[1][1], R[1][2]
	r20, r21, r22 := R[2][0], R[2][1], R[2][2]
	x0, x1, x2 := x.X, x.Y, x.Z
	for i := range verts {
		v := &verts[i]
		wx := x0 + (r00*v.X + r01*v.Y + r02*v.Z)
		wy := x1 + (r10*v.X + r11*v.Y + r12*v.Z)
		wz := x2 + (r20*v.X + r21*v.Y + r22*v.Z)
		V[i] = geom.Vec3{X: wx, Y: wy, Z: wz}
		if wx < box.Min.X {
			box.Min.X = wx
		}
		if wx > box.Max.X {
			box.Max.X = wx
		}
		if wy < box.Min.Y {
			box.Min.Y = wy
		}
		if wy > box.Max.Y {
			box.Max.Y = wy
		}
		if wz < box.Min.Z {
			box.Min.Z = wz
		}
		if wz > box.Max.Z {
			box.Max.Z = wz
		}
	}
}

// FaceNormal returns the world unit normal of face i.
func (p *Posed) FaceNormal(i int32) geom.Vec3 { return p.R.MulV(p.Poly.Faces[i].N) }

// nearSet is the part of one body that a feature-list rebuild looks at: the
// vertices inside a region, the edges and faces whose boxes meet it, and
// those boxes (aligned with edges and faces).
type nearSet struct {
	verts, edges, faces []int32
	ebox, fbox          []AABB
	code                []uint8 // per vertex: outcode against the region

	lox, hix, loy, hiy, loz, hiz []float64 // ebox by coordinate (soa)
	hits                         []int32   // listEE's box hits of one edge (soa sizes it)
	vhits                        []int32   // listVF's and listVE's box hits among verts (near sizes it)
	vx, vy, vz                   []float64 // the world coordinates of verts, by coordinate
	// vbox bounds verts (their coordinates' least and greatest; empty,
	// Min above Max, when there are none): a box that misses it holds
	// none of them (listVF, listVE skip inBox).
	vbox AABB
}

// soa copies the edge boxes into lox … hiz.
func (s *nearSet) soa() {
	n := len(s.ebox)
	if cap(s.lox) < n {
		s.lox, s.hix, s.loy, s.hiy, s.loz, s.hiz = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		s.hits = make([]int32, n)
	}
	lox, hix, loy, hiy, loz, hiz := s.lox[:n], s.hix[:n], s.loy[:n], s.hiy[:n], s.loz[:n], s.hiz[:n]
	for k, b := range s.ebox[:n] {
		lox[k], hix[k], loy[k], hiy[k], loz[k], hiz[k] = b.Min.X, b.Max.X, b.Min.Y, b.Max.Y, b.Min.Z, b.Max.Z
	}
	s.lox, s.hix, s.loy, s.hiy, s.loz, s.hiz = lox, hix, loy, hiy, loz, hiz
}

// Outcode bits of a point against a box, one per side; a point is inside
// when its code is 0, and a segment's or triangle's bounding box misses
// the box exactly when its vertices' codes share a bit (all beyond one side).
const (
	outXLo uint8 = 1 << iota
	outXHi
	outYLo
	outYHi
	outZLo
	outZHi
)

// outcode returns v's outcode against box (0 iff box.Contains(v)).
func outcode(v geom.Vec3, box *AABB) uint8 {
	var c uint8
	if !(v.X >= box.Min.X) {
		c |= outXLo
	}
	if !(v.X <= box.Max.X) {
		c |= outXHi
	}
	if !(v.Y >= box.Min.Y) {
		c |= outYLo
	}
	if !(v.Y <= box.Max.Y) {
		c |= outYHi
	}
	if !(v.Z >= box.Min.Z) {
		c |= outZLo
	}
	if !(v.Z <= box.Max.Z) {
		c |= outZHi
	}
	return c
}

// codeTable is the size of near's fixed outcode table (one entry per
// vertex index's low byte): shapes of at most this many vertices (the
// default tetrapod has 28) decide their features without bounds checks.
const codeTable = 256

// near collects into s the features of p whose bounds meet box (edges of
// kind Flat are skipped) with the world boxes of those edges and faces.
// An edge's box (segBox) meets box unless both ends lie beyond the same
// side, a face's box (triBox) unless its three corners do: for finite
// coordinates this is the test AABB.Overlaps of the feature's box, decided
// from one outcode per vertex, so no feature box is computed for a feature
// far from the other body.
func (p *Posed) near(box AABB, s *nearSet) {
	poly := p.Poly
	V := p.V
	nv, ne, nf := len(V), len(poly.Edges), len(poly.Faces)
	if cap(s.code) < max(nv, codeTable) || cap(s.verts) < nv {
		s.code, s.verts, s.vhits = make([]uint8, max(nv, codeTable)), make([]int32, nv), make([]int32, nv)
		s.vx, s.vy, s.vz = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	}
	if cap(s.edges) < ne {
		s.edges, s.ebox = make([]int32, ne), make([]AABB, ne)
	}
	if cap(s.faces) < nf {
		s.faces, s.fbox = make([]int32, nf), make([]AABB, nf)
	}
	// Written by index into slices of full size (no append), cut to the
	// counts at the end.
	code := s.code[:nv]
	verts, vx, vy, vz := s.verts[:nv], s.vx[:nv], s.vy[:nv], s.vz[:nv]
	n := 0
	for i := range V {
		v := &V[i]
		c := outcode(*v, &box)
		code[i] = c
		if c == 0 {
			verts[n], vx[n], vy[n], vz[n] = int32(i), v.X, v.Y, v.Z
			n++
		}
	}
	s.verts, s.vx, s.vy, s.vz = verts[:n], vx[:n], vy[:n], vz[:n]
	vb := AABB{Min: geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}, Max: geom.Vec3{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}}
	for l := range n {
		x, y, z := vx[l], vy[l], vz[l]
		vb.Min.X, vb.Max.X = min(vb.Min.X, x), max(vb.Max.X, x)
		vb.Min.Y, vb.Max.Y = min(vb.Min.Y, y), max(vb.Max.Y, y)
		vb.Min.Z, vb.Max.Z = min(vb.Min.Z, z), max(vb.Max.Z, z)
	}
	s.vbox = vb
	// The feature boxes below are segBox and triBox written out into the
	// slots (geom.Vec3.Min and Max: the same comparisons in the same
	// order, so the same boxes), without a box built and copied per
	// feature.
	edges, ebox := s.edges[:ne], s.ebox[:ne]
	// The features that meet the box first (nearEdges, nearFaces: loops
	// without stores but the index), then their boxes.
	n = nearEdges(poly.Edges, code, edges)
	for k, i := range edges[:n] {
		e := &poly.Edges[i]
		i0, i1 := e.V[0], e.V[1]
		p, q := &V[i0], &V[i1]
		b := &ebox[k]
		b.Min, b.Max = *p, *p
		if q.X < p.X {
			b.Min.X = q.X
		}
		if q.Y < p.Y {
			b.Min.Y = q.Y
		}
		if q.Z < p.Z {
			b.Min.Z = q.Z
		}
		if q.X > p.X {
			b.Max.X = q.X
		}
		if q.Y > p.Y {
			b.Max.Y = q.Y
		}
		if q.Z > p.Z {
			b.Max.Z = q.Z
		}
	}
	s.edges, s.ebox = edges[:n], ebox[:n]
	faces, fbox := s.faces[:nf], s.fbox[:nf]
	n = nearFaces(poly.Faces, code, faces)
	for k, i := range faces[:n] {
		f := &poly.Faces[i]
		i0, i1, i2 := f.V[0], f.V[1], f.V[2]
		p, q, r := &V[i0], &V[i1], &V[i2]
		b := &fbox[k]
		// a.Min(b).Min(c) and a.Max(b).Max(c) by coordinate.
		b.Min, b.Max = *p, *p
		if q.X < b.Min.X {
			b.Min.X = q.X
		}
		if r.X < b.Min.X {
			b.Min.X = r.X
		}
		if q.Y < b.Min.Y {
			b.Min.Y = q.Y
		}
		if r.Y < b.Min.Y {
			b.Min.Y = r.Y
		}
		if q.Z < b.Min.Z {
			b.Min.Z = q.Z
		}
		if r.Z < b.Min.Z {
			b.Min.Z = r.Z
		}
		if q.X > b.Max.X {
			b.Max.X = q.X
		}
		if r.X > b.Max.X {
			b.Max.X = r.X
		}
		if q.Y > b.Max.Y {
			b.Max.Y = q.Y
		}
		if r.Y > b.Max.Y {
			b.Max.Y = r.Y
		}
		if q.Z > b.Max.Z {
			b.Max.Z = q.Z
		}
		if r.Z > b.Max.Z {
			b.Max.Z = r.Z
		}
	}
	s.faces, s.fbox = faces[:n], fbox[:n]
}

// nearEdges writes into out, in order, the indices of the edges of pe
// that are not Flat and whose ends' outcodes (code, indexed by vertex)
// share no bit, and returns their count. For a shape of at most codeTable
// vertices the outcodes are read from a fixed-size table indexed by a
// byte (the same entries: a vertex index below codeTable is its own low
// byte; code has at least codeTable entries), without bounds checks. It
// relies on every edge's vertex indices being below the vertex count, which
// shape's constructors check (shape.build): a hand-made Polyhedron with an
// index out of range would read another vertex's outcode here instead of
// panicking.
//
//go:noinline
func nearEdges(pe []shape.Edge, code []uint8, out []int32) int {
	n := 0
	if len(code) <= codeTable {
		tab := (*[codeTable]uint8)(code[:codeTable:codeTable])
		for i := range pe {
			e := &pe[i]
			if tab[uint8(e.V[0])]&tab[uint8(e.V[1])] != 0 || e.Kind == shape.Flat {
				continue
			}
			out[n] = int32(i)
			n++
		}
		return n
	}
	for i := range pe {
		e := &pe[i]
		if code[e.V[0]]&code[e.V[1]] != 0 || e.Kind == shape.Flat {
			continue
		}
		out[n] = int32(i)
		n++
	}
	return n
}

// nearFaces writes into out, in order, the indices of the faces of pf
// whose corners' outcodes (code) share no bit, and returns their count
// (the fixed table as nearEdges).
//
//go:noinline
func nearFaces(pf []shape.Face, code []uint8, out []int32) int {
	n := 0
	if len(code) <= codeTable {
		tab := (*[codeTable]uint8)(code[:codeTable:codeTable])
		for i := range pf {
			v := &pf[i].V
			if tab[uint8(v[0])]&tab[uint8(v[1])]&tab[uint8(v[2])] != 0 {
				continue
			}
			out[n] = int32(i)
			n++
		}
		return n
	}
	for i := range pf {
		v := &pf[i].V
		if code[v[0]]&code[v[1]]&code[v[2]] != 0 {
			continue
		}
		out[n] = int32(i)
		n++
	}
	return n
}
