package sq

import (
	"fmt"
	"math"
	"sort"

	"grainlab/sim/geom"
)

// Surface is a triangulated wall or polyhedron surface prepared for contact
// with superquadrics: connected coplanar triangles are merged into planar
// facets, the mesh edges between facets are classified as convex, concave or
// flat (seen from the side the facet normals point to), and the convex edges
// (merged along their line) and convex corners are kept as contact features.
// Open mesh boundaries count as convex edges of a one-sided wall. All geometry
// is in the surface's own frame; build it once with NewSurface.
type Surface struct {
	facets  []facet
	edges   []fedge
	corners []corner
	lo, hi  geom.Vec3
	scale   float64 // largest AABB extent, for tolerances
}

// Feature kinds of a SurfaceContact.
const (
	KindFacet  uint8 = iota // a planar facet (support point, S1 eq. 30–34)
	KindEdge                // a convex edge or an open boundary edge
	KindVertex              // a convex corner
)

// edge classes between two facets
const (
	edgeConvex = iota
	edgeConcave
	edgeFlat
	edgeBoundary // only one triangle: the rim of an open wall
)

// facet is a maximal connected set of coplanar triangles.
type facet struct {
	n, p   geom.Vec3 // unit outward normal and a point of the plane
	u, v   geom.Vec3 // in-plane orthonormal basis, u × v = n
	bnd    []bedge   // polygon boundary in (u, v) coordinates
	lo, hi geom.Vec3
}

// bedge is a facet boundary segment with the class of the mesh edge there.
type bedge struct {
	a, b    [2]float64
	out     [2]float64 // unit normal pointing out of the polygon
	concave bool
}

// newBedge returns the boundary segment ab of a facet whose triangle there has
// the opposite vertex o (all in facet coordinates).
func newBedge(a, b, o [2]float64, concave bool) bedge {
	dx, dy := b[0]-a[0], b[1]-a[1]
	l := math.Hypot(dx, dy)
	n := [2]float64{dy / l, -dx / l}
	if n[0]*(o[0]-a[0])+n[1]*(o[1]-a[1]) > 0 {
		n = [2]float64{-n[0], -n[1]}
	}
	return bedge{a: a, b: b, out: n, concave: concave}
}

// fedge is a feature edge: a maximal straight run of convex (or open boundary)
// mesh edges between the same facets.
type fedge struct {
	a, e     geom.Vec3 // start point and unit direction
	l        float64   // length
	n1, n2   geom.Vec3 // facet normals (n2 unused on a boundary)
	m1, m2   geom.Vec3 // in-plane directions leaving facet 1 (2) across the edge
	boundary bool
	f1, f2   int32 // facet ids (f2 = −1 on a boundary)
	lo, hi   geom.Vec3
}

// corner is a convex corner: its Voronoi cone is {u: u·d ≤ 0 for every
// neighbour direction d, u·n ≥ 0 for every incident facet normal n}.
type corner struct {
	v    geom.Vec3
	dirs []geom.Vec3
	ns   []geom.Vec3
	fs   []int32 // incident facet ids
	es   []int32 // feature edges ending here
}

// NumFacets returns the number of planar facets (feature ids 0 … NumFacets−1).
func (s *Surface) NumFacets() int { return len(s.facets) }

// NumEdges returns the number of feature edges (ids follow the facets).
func (s *Surface) NumEdges() int { return len(s.edges) }

// NumCorners returns the number of convex corners (ids follow the edges).
func (s *Surface) NumCorners() int { return len(s.corners) }

// FacetNormal returns the unit normal of facet i in the surface frame.
func (s *Surface) FacetNormal(i int) geom.Vec3 { return s.facets[i].n }

// Bounds returns the axis-aligned bounding box in the surface frame.
func (s *Surface) Bounds() (lo, hi geom.Vec3) { return s.lo, s.hi }

type edgeKey struct{ a, b int32 }

func mkKey(a, b int32) edgeKey {
	if a > b {
		a, b = b, a
	}
	return edgeKey{a, b}
}

// NewSurface builds a Surface from vertices and counter-clockwise triangles
// (the right-hand normal points to the free side, where particles are). It
// returns an error naming the offending field for empty input, non-finite
// vertices, out-of-range indices, degenerate triangles, edges shared by more
// than two triangles and inconsistent winding.
func NewSurface(verts []geom.Vec3, tris [][3]int32) (*Surface, error) {
	if len(tris) == 0 {
		return nil, fmt.Errorf("sq: surface tris is empty")
	}
	for i, v := range verts {
		if !v.IsFinite() {
			return nil, fmt.Errorf("sq: surface verts[%d] = %v is not finite", i, v)
		}
	}
	S := &Surface{lo: geom.V(math.Inf(1), math.Inf(1), math.Inf(1)), hi: geom.V(math.Inf(-1), math.Inf(-1), math.Inf(-1))}
	for i, t := range tris {
		for j, k := range t {
			if k < 0 || int(k) >= len(verts) {
				return nil, fmt.Errorf("sq: surface tris[%d][%d] = %d out of range [0, %d)", i, j, k, len(verts))
			}
			S.lo, S.hi = S.lo.Min(verts[k]), S.hi.Max(verts[k])
		}
	}
	ext := S.hi.Sub(S.lo)
	S.scale = math.Max(ext.X, math.Max(ext.Y, ext.Z))
	eps := 1e-12 * S.scale
	// triangle normals
	tn := make([]geom.Vec3, len(tris))
	for i, t := range tris {
		a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
		cr := b.Sub(a).Cross(c.Sub(a))
		if cr.Norm() <= eps*S.scale || t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
			return nil, fmt.Errorf("sq: surface tris[%d] = %v is degenerate (zero area)", i, t)
		}
		tn[i] = cr.Unit()
	}
	// edge → triangles, with winding check
	type edgeUse struct {
		tris []int32
		dir  []bool // true when the triangle runs a → b (a < b)
	}
	eu := map[edgeKey]*edgeUse{}
	keys := []edgeKey{}
	for i, t := range tris {
		for j := 0; j < 3; j++ {
			a, b := t[j], t[(j+1)%3]
			k := mkKey(a, b)
			u := eu[k]
			if u == nil {
				u = &edgeUse{}
				eu[k] = u
				keys = append(keys, k)
			}
			u.tris = append(u.tris, int32(i))
			u.dir = append(u.dir, a < b)
		}
	}
	for _, k := range keys {
		u := eu[k]
		if len(u.tris) > 2 {
			return nil, fmt.Errorf("sq: surface edge (%d, %d) is shared by %d triangles (tris %v); at most 2 allowed", k.a, k.b, len(u.tris), u.tris)
		}
		if len(u.tris) == 2 && u.dir[0] == u.dir[1] {
			return nil, fmt.Errorf("sq: surface tris[%d] and tris[%d] have inconsistent winding along edge (%d, %d)", u.tris[0], u.tris[1], k.a, k.b)
		}
	}
	// merge coplanar neighbours into facets (union–find)
	par := make([]int32, len(tris))
	for i := range par {
		par[i] = int32(i)
	}
	var find func(int32) int32
	find = func(i int32) int32 {
		for par[i] != i {
			par[i] = par[par[i]]
			i = par[i]
		}
		return i
	}
	const coplanar = 1e-10
	for _, k := range keys {
		u := eu[k]
		if len(u.tris) == 2 && tn[u.tris[0]].Dot(tn[u.tris[1]]) > 1-coplanar {
			ra, rb := find(u.tris[0]), find(u.tris[1])
			if ra != rb {
				par[ra] = rb
			}
		}
	}
	facetOf := make([]int32, len(tris))
	root := map[int32]int32{}
	for i := range tris {
		r := find(int32(i))
		f, ok := root[r]
		if !ok {
			f = int32(len(S.facets))
			root[r] = f
			S.facets = append(S.facets, facet{lo: geom.V(math.Inf(1), math.Inf(1), math.Inf(1)), hi: geom.V(math.Inf(-1), math.Inf(-1), math.Inf(-1))})
		}
		facetOf[i] = f
	}
	// facet normals (area-weighted) and planes
	for i, t := range tris {
		f := &S.facets[facetOf[i]]
		a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
		f.n = f.n.Add(b.Sub(a).Cross(c.Sub(a)))
		if math.IsInf(f.lo.X, 1) { // first triangle of the facet
			f.p = a
		}
		for _, x := range [3]geom.Vec3{a, b, c} {
			f.lo, f.hi = f.lo.Min(x), f.hi.Max(x)
		}
	}
	for i := range S.facets {
		f := &S.facets[i]
		f.n = f.n.Unit()
		f.u = f.n.AnyPerp()
		f.v = f.n.Cross(f.u)
	}
	to2 := func(f *facet, x geom.Vec3) [2]float64 {
		d := x.Sub(f.p)
		return [2]float64{d.Dot(f.u), d.Dot(f.v)}
	}
	// opposite vertex of triangle ti across edge k
	opp := func(ti int32, k edgeKey) geom.Vec3 {
		for _, v := range tris[ti] {
			if v != k.a && v != k.b {
				return verts[v]
			}
		}
		return geom.Vec3{}
	}
	// classify mesh edges between facets; collect feature edge candidates
	type cand struct {
		k      edgeKey
		f1, f2 int32 // f2 = −1 on a boundary
		t1     int32
	}
	var cands []cand
	for _, k := range keys {
		u := eu[k]
		t1 := u.tris[0]
		f1 := facetOf[t1]
		a, b := verts[k.a], verts[k.b]
		if len(u.tris) == 1 {
			f := &S.facets[f1]
			f.bnd = append(f.bnd, newBedge(to2(f, a), to2(f, b), to2(f, opp(t1, k)), false))
			cands = append(cands, cand{k, f1, -1, t1})
			continue
		}
		t2 := u.tris[1]
		f2 := facetOf[t2]
		if f1 == f2 {
			continue // interior edge of a facet
		}
		cls := edgeClass(S.facets[f1].n, a, opp(t2, k))
		for i, fi := range [2]int32{f1, f2} {
			f := &S.facets[fi]
			f.bnd = append(f.bnd, newBedge(to2(f, a), to2(f, b), to2(f, opp(u.tris[i], k)), cls == edgeConcave))
		}
		if cls == edgeConvex {
			if f2 < f1 {
				f1, f2, t1 = f2, f1, t2
			}
			cands = append(cands, cand{k, f1, f2, t1})
		}
	}
	// merge feature candidates that share the facet pair and the line
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].f1 != cands[j].f1 {
			return cands[i].f1 < cands[j].f1
		}
		return cands[i].f2 < cands[j].f2
	})
	endpoint := map[int32][]int32{} // vertex → feature edges ending there
	for lo := 0; lo < len(cands); {
		hi := lo + 1
		for hi < len(cands) && cands[hi].f1 == cands[lo].f1 && cands[hi].f2 == cands[lo].f2 {
			hi++
		}
		group := cands[lo:hi]
		used := make([]bool, len(group))
		for i := range group {
			if used[i] {
				continue
			}
			a0, b0 := verts[group[i].k.a], verts[group[i].k.b]
			e := b0.Sub(a0).Unit()
			type iv struct {
				t0, t1 float64
				v0, v1 int32
			}
			var ivs []iv
			for j := i; j < len(group); j++ {
				if used[j] {
					continue
				}
				pa, pb := verts[group[j].k.a], verts[group[j].k.b]
				da, db := pa.Sub(a0), pb.Sub(a0)
				tol := 1e-9 * S.scale
				if da.Sub(e.Scale(da.Dot(e))).Norm() > tol || db.Sub(e.Scale(db.Dot(e))).Norm() > tol {
					continue
				}
				used[j] = true
				ta, tb := da.Dot(e), db.Dot(e)
				va, vb := group[j].k.a, group[j].k.b
				if ta > tb {
					ta, tb, va, vb = tb, ta, vb, va
				}
				ivs = append(ivs, iv{ta, tb, va, vb})
			}
			sort.Slice(ivs, func(p, q int) bool { return ivs[p].t0 < ivs[q].t0 })
			f1 := &S.facets[group[i].f1]
			m1 := e.Cross(f1.n)
			if m1.Dot(opp(group[i].t1, group[i].k).Sub(a0)) > 0 {
				m1 = m1.Neg()
			}
			var n2, m2 geom.Vec3
			if group[i].f2 >= 0 {
				n2 = S.facets[group[i].f2].n
				m2 = e.Cross(n2)
				// facet 2 lies on the −m2 side: for a convex edge, m2 points along +n1
				if m2.Dot(f1.n) < 0 {
					m2 = m2.Neg()
				}
			}
			for p := 0; p < len(ivs); {
				q := p
				t1 := ivs[p].t1
				v1 := ivs[p].v1
				for q+1 < len(ivs) && ivs[q+1].t0 <= t1+1e-9*S.scale {
					q++
					if ivs[q].t1 > t1 {
						t1, v1 = ivs[q].t1, ivs[q].v1
					}
				}
				a := a0.AddScaled(ivs[p].t0, e)
				b := a0.AddScaled(t1, e)
				fe := fedge{a: a, e: e, l: t1 - ivs[p].t0, n1: f1.n, n2: n2, m1: m1, m2: m2, boundary: group[i].f2 < 0, f1: group[i].f1, f2: group[i].f2}
				fe.lo, fe.hi = a.Min(b), a.Max(b)
				id := int32(len(S.edges))
				S.edges = append(S.edges, fe)
				endpoint[ivs[p].v0] = append(endpoint[ivs[p].v0], id)
				endpoint[v1] = append(endpoint[v1], id)
				p = q + 1
			}
		}
		lo = hi
	}
	// convex corners: feature-edge endpoints where every neighbour lies on or
	// below every incident facet plane
	nbr := map[int32]map[int32]bool{}
	inc := map[int32]map[int32]bool{}
	for i, t := range tris {
		for j := 0; j < 3; j++ {
			a, b := t[j], t[(j+1)%3]
			if nbr[a] == nil {
				nbr[a], inc[a] = map[int32]bool{}, map[int32]bool{}
			}
			if nbr[b] == nil {
				nbr[b], inc[b] = map[int32]bool{}, map[int32]bool{}
			}
			nbr[a][b], nbr[b][a] = true, true
			inc[a][facetOf[i]] = true
		}
	}
	vs := make([]int32, 0, len(endpoint))
	for v := range endpoint {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	for _, v := range vs {
		c := corner{v: verts[v], es: endpoint[v]}
		convex := true
		for f := range inc[v] {
			c.ns = append(c.ns, S.facets[f].n)
			c.fs = append(c.fs, f)
		}
		for w := range nbr[v] {
			d := verts[w].Sub(verts[v])
			for _, n := range c.ns {
				if n.Dot(d) > 1e-9*d.Norm() {
					convex = false
				}
			}
			c.dirs = append(c.dirs, d.Unit())
		}
		if convex {
			S.corners = append(S.corners, c)
		}
	}
	return S, nil
}

// edgeClass classifies the mesh edge of facet 1 (normal n1, through a) whose
// other triangle has the opposite vertex o: convex when o lies below the plane
// of facet 1, concave when above, flat when on it.
func edgeClass(n1, a, o geom.Vec3) int {
	s := n1.Dot(o.Sub(a))
	d := o.Sub(a).Norm()
	switch {
	case s < -1e-9*d:
		return edgeConvex
	case s > 1e-9*d:
		return edgeConcave
	}
	return edgeFlat
}

// contains reports whether the in-plane point q (coordinates relative to f.p)
// lies in the facet polygon (closed, by the crossing number of its boundary
// cycles, so holes and non-convex facets work, in O(boundary edges) however
// finely the facet is triangulated), or beyond it across a concave edge only
// (there the neighbouring facet rises in front of this one and cannot own the
// contact). Outside the polygon, the boundary edges nearest to q decide: q is
// accepted when one of them is concave and q lies beyond none of the others'
// lines (a polygon corner shared by a concave and a convex edge).
func (f *facet) contains(q [2]float64, eps float64) bool {
	inside := false
	for i := range f.bnd {
		b := &f.bnd[i]
		if (b.a[1] > q[1]) != (b.b[1] > q[1]) {
			x := b.a[0] + (q[1]-b.a[1])*(b.b[0]-b.a[0])/(b.b[1]-b.a[1])
			if q[0] < x {
				inside = !inside
			}
		}
	}
	if inside {
		return true
	}
	best := math.Inf(1)
	for i := range f.bnd {
		best = math.Min(best, segDist2(q, f.bnd[i].a, f.bnd[i].b))
	}
	if best <= eps*eps {
		return true // on the boundary (closed polygon)
	}
	lim := best*(1+1e-9) + eps*eps
	concave := false
	for _, b := range f.bnd {
		if segDist2(q, b.a, b.b) > lim {
			continue
		}
		if b.concave {
			concave = true
		} else if b.out[0]*(q[0]-b.a[0])+b.out[1]*(q[1]-b.a[1]) > eps {
			return false
		}
	}
	return concave
}

// segDist2 returns the squared distance from q to the segment ab.
func segDist2(q, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = math.Max(0, math.Min(1, ((q[0]-a[0])*dx+(q[1]-a[1])*dy)/l2))
	}
	ex, ey := q[0]-a[0]-t*dx, q[1]-a[1]-t*dy
	return ex*ex + ey*ey
}
