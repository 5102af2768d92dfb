package audit

import (
	"math"
	"slices"

	"grainlab/sim/geom"
)

// plane is a triangle's orientation test made ready for many points: the
// first vertex a, the normal n = (b−a)×(c−a) and, per component of n, the
// magnitudes of its two products (the error bound's permanent).
type plane struct {
	a, n, m geom.Vec3
}

// newPlane returns the plane of triangle t.
func newPlane(t *[3]geom.Vec3) plane {
	v, w := t[1].Sub(t[0]), t[2].Sub(t[0])
	yz, zy := v.Y*w.Z, v.Z*w.Y
	zx, xz := v.Z*w.X, v.X*w.Z
	xy, yx := v.X*w.Y, v.Y*w.X
	pl := plane{
		a: t[0],
		n: geom.V(yz-zy, zx-xz, xy-yx),
		m: geom.V(abs(yz)+abs(zy), abs(zx)+abs(xz), abs(xy)+abs(yx)),
	}
	// Shewchuk's bound assumes no underflow: a product near the subnormal
	// range turns the float filter off (sure returns 0 for every point, and
	// orient3d decides; review rv5).
	for _, x := range [6]float64{yz, zy, zx, xz, xy, yx} {
		if x != 0 && abs(x) < underflowGuard {
			pl.m = geom.V(math.Inf(1), math.Inf(1), math.Inf(1))
		}
	}
	return pl
}

// underflowGuard is the magnitude below which a product of the float
// filters may have lost bits to underflow (2⁻⁹⁶⁰, well above the subnormal
// range's 2⁻¹⁰²² times the products and sums that follow).
const underflowGuard = 0x1p-960

// side returns orient3d(t[0], t[1], t[2], p), the exact sign of
// det[p−a, b−a, c−a] = ((b−a)×(c−a))·(p−a), t being the triangle of pl.
//
// The float evaluation u·n, u = p−a, is Shewchuk's orient3d expansion (each
// of the three terms a rounded difference times a 2×2 minor of rounded
// differences, summed left to right) taken along the row u instead of down a
// column, so his bound holds unchanged: |u·n − det| ≤ o3dErrBoundA · Σ|uᵢ|·mᵢ
// (Shewchuk 1997, "Adaptive precision floating-point arithmetic and fast
// robust geometric predicates", §4.3, errboundA = (7 + 56ε)ε). Beyond it the
// sign is certain; within it orient3d decides (its own filter, then exact
// rational arithmetic).
func (pl *plane) side(t *[3]geom.Vec3, p geom.Vec3) int {
	if s := pl.sure(p); s != 0 {
		return s
	}
	return orient3d(t[0], t[1], t[2], p)
}

// sure returns side's sign when the float evaluation is beyond the error
// bound, else 0.
func (pl *plane) sure(p geom.Vec3) int {
	ux, uy, uz := p.X-pl.a.X, p.Y-pl.a.Y, p.Z-pl.a.Z
	det := ux*pl.n.X + uy*pl.n.Y + uz*pl.n.Z
	perm := abs(ux)*pl.m.X + abs(uy)*pl.m.Y + abs(uz)*pl.m.Z
	if !(perm >= underflowGuard) { // tiny terms may have underflowed (or a NaN): orient3d decides
		return 0
	}
	if det > o3dErrBoundA*perm {
		return 1
	}
	if -det > o3dErrBoundA*perm {
		return -1
	}
	return 0
}

// sides returns the sides of the vertices of q: pl.side(t, q[k]) for each k.
func (pl *plane) sides(t, q *[3]geom.Vec3) [3]int {
	var s [3]int
	for k := range 3 {
		if s[k] = pl.sure(q[k]); s[k] == 0 {
			s[k] = orient3d(t[0], t[1], t[2], q[k])
		}
	}
	return s
}

// planesOf returns the planes of the triangles.
func planesOf(tris [][3]geom.Vec3) []plane {
	ps := make([]plane, len(tris))
	for i := range tris {
		ps[i] = newPlane(&tris[i])
	}
	return ps
}

// closedChain reports whether the triangles, as index triples, form a closed
// chain: every directed edge i→j (i ≠ j) occurs as often as its reverse j→i.
// The winding number of such a mesh about any point off its surface is then
// an integer, and it equals the signed count of the mesh's crossings by any
// ray from the point that meets no edge or vertex (rayWinding).
func closedChain(tris [][3]int32) bool {
	edges := make([]uint64, 0, 3*len(tris))
	for _, t := range tris {
		for k := range 3 {
			i, j := t[k], t[(k+1)%3]
			if i != j {
				edges = append(edges, uint64(uint32(i))<<32|uint64(uint32(j)))
			}
		}
	}
	slices.Sort(edges)
	for k := 0; k < len(edges); {
		e := edges[k]
		n := 1
		for k+n < len(edges) && edges[k+n] == e {
			n++
		}
		k += n
		rev := e<<32 | e>>32
		lo, _ := slices.BinarySearch(edges, rev)
		hi := lo
		for hi < len(edges) && edges[hi] == rev {
			hi++
		}
		if hi-lo != n {
			return false
		}
	}
	return true
}

// closedCache remembers which index lists closedChain accepted, by content:
// the bodies of one shape share their triangles' indices, so a world of a
// few shapes sorts a few edge lists, not one per body.
type closedCache struct {
	tris   [][][3]int32
	closed []bool
}

// maxClosedCache bounds the lists closedCache compares a new one with.
const maxClosedCache = 8

func (c *closedCache) get(tris [][3]int32) bool {
	for k, t := range c.tris {
		if slices.Equal(t, tris) {
			return c.closed[k]
		}
	}
	closed := closedChain(tris)
	if len(c.tris) < maxClosedCache {
		c.tris = append(c.tris, tris)
		c.closed = append(c.closed, closed)
	}
	return closed
}

// rayWinding returns the winding number of the closed mesh m (closedChain)
// about p, counted exactly along the ray from p towards +x (ts: the
// triangles of m the ray may meet, at least): each triangle
// the ray crosses adds the sign of its normal's x component (+1 leaving,
// −1 entering through an outward face). Every decision is an exact sign:
// whether p's projection on the y–z plane is inside a triangle's (orient2d
// on input coordinates) and on which side of its plane p lies (plane.side).
// ok is false when the ray meets an edge or vertex, or p lies on a
// triangle: the caller then uses the generalised winding number.
func rayWinding(p geom.Vec3, m *mesh, ts []int32) (w int, ok bool) {
	for _, t := range ts {
		b := &m.boxes[t]
		if b.hi.X < p.X || p.Y < b.lo.Y || p.Y > b.hi.Y || p.Z < b.lo.Z || p.Z > b.hi.Z {
			continue // the ray cannot meet the triangle's box
		}
		tri := &m.tris[t]
		s0 := orient2d(tri[0].Y, tri[0].Z, tri[1].Y, tri[1].Z, p.Y, p.Z)
		s1 := orient2d(tri[1].Y, tri[1].Z, tri[2].Y, tri[2].Z, p.Y, p.Z)
		s2 := orient2d(tri[2].Y, tri[2].Z, tri[0].Y, tri[0].Z, p.Y, p.Z)
		if s0*s1 < 0 || s1*s2 < 0 || s2*s0 < 0 {
			continue // p's projection is outside the projected triangle
		}
		if s0 == 0 || s1 == 0 || s2 == 0 {
			return 0, false // on a projected edge or vertex (or a projection of no area)
		}
		// s0 = s1 = s2 is the sign of the normal's x component.
		s := m.planes[t].side(tri, p)
		if s == 0 {
			return 0, false // p on the triangle
		}
		if s != s0 { // the plane lies ahead of p along +x: crossed
			w += s0
		}
	}
	return w, true
}

// insideMesh reports whether p is inside solid m (ts: the triangles a ray
// from p towards +x may meet, at least): |winding number| > 1/2,
// counted exactly by rayWinding when m is a closed chain and the ray is not
// degenerate, else the generalised winding number (float). For p farther
// from the surface than round-off reaches (containment asks only of points
// more than 1e-12 of the solid's size away), the two agree.
func insideMesh(p geom.Vec3, m *mesh, ts []int32) bool {
	if m.closed {
		if w, ok := rayWinding(p, m, ts); ok {
			return w != 0
		}
	}
	return math.Abs(winding(p, m.tris)) > 0.5
}
