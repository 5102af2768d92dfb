package sq

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// Surface is a triangulated wall or polyhedron surface prepared for contact
// with superquadrics: triangles joined by flat edges are merged into planar
// facets, the mesh edges between facets keep the convex or concave kind of
// the shape.Polyhedron (seen from the side the face normals point to), and
// the convex edges (merged along their line) and convex corners are kept as
// contact features.
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

// facet is a maximal set of triangles joined by flat edges (shape.Flat).
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

// NewSurface prepares the contact surface of p, a wall built by
// shape.NewSurface or a body built by shape.NewPolyhedron, in p's frame. The
// mesh checks (indices, finite coordinates, zero-area faces, manifold edges,
// consistent winding) and the edge classification (convex, concave, flat,
// boundary) are p's: faces joined by Flat edges become one facet, and the
// facet boundaries and feature edges take the kind of their mesh edge. It
// returns an error only for a polyhedron without faces or edges.
func NewSurface(p *shape.Polyhedron) (*Surface, error) {
	if p == nil || len(p.Faces) == 0 || len(p.Edges) == 0 {
		return nil, fmt.Errorf("sq: surface polyhedron has no faces or edges (build it with shape.NewSurface or shape.NewPolyhedron)")
	}
	s := &Surface{lo: p.AABBMin, hi: p.AABBMax}
	ext := s.hi.Sub(s.lo)
	s.scale = max(ext.X, max(ext.Y, ext.Z))
	facetOf := s.mergeFacets(p)
	cands := s.facetBoundaries(p, facetOf)
	endpoint := s.featureEdges(p, cands)
	s.convexCorners(p, facetOf, endpoint)
	return s, nil
}

// lowFaces returns the faces of edge ed in index order (t2 = −1 on a boundary):
// t1 is the first face to use the edge.
func lowFaces(ed *shape.Edge) (t1, t2 int32) {
	t1, t2 = ed.F[0], ed.F[1]
	if t2 >= 0 && t2 < t1 {
		t1, t2 = t2, t1
	}
	return t1, t2
}

// apex returns the vertex of face f that is not on edge ed.
func apex(p *shape.Polyhedron, f int32, ed *shape.Edge) geom.Vec3 {
	for _, v := range p.Faces[f].V {
		if v != ed.V[0] && v != ed.V[1] {
			return p.Verts[v]
		}
	}
	return geom.Vec3{}
}

// mergeFacets joins the faces of p across its Flat edges into planar facets
// (union–find; facets numbered in the order of their first face), sets each
// facet's plane (area-weighted normal, the first face's first vertex, an
// in-plane basis) and bounds, and returns each face's facet.
func (s *Surface) mergeFacets(p *shape.Polyhedron) []int32 {
	par := make([]int32, len(p.Faces))
	for i := range par {
		par[i] = int32(i)
	}
	find := func(i int32) int32 {
		for par[i] != i {
			par[i] = par[par[i]]
			i = par[i]
		}
		return i
	}
	for e := range p.Edges {
		ed := &p.Edges[e]
		if ed.Kind != shape.Flat {
			continue
		}
		t1, t2 := lowFaces(ed)
		if ra, rb := find(t1), find(t2); ra != rb {
			par[ra] = rb
		}
	}
	inf := geom.V(math.Inf(1), math.Inf(1), math.Inf(1))
	facetOf := make([]int32, len(p.Faces))
	root := map[int32]int32{}
	for i := range p.Faces {
		r := find(int32(i))
		f, ok := root[r]
		if !ok {
			f = int32(len(s.facets))
			root[r] = f
			s.facets = append(s.facets, facet{lo: inf, hi: inf.Neg()})
		}
		facetOf[i] = f
	}
	for i, fc := range p.Faces {
		f := &s.facets[facetOf[i]]
		a, b, c := p.Verts[fc.V[0]], p.Verts[fc.V[1]], p.Verts[fc.V[2]]
		f.n = f.n.Add(b.Sub(a).Cross(c.Sub(a)))
		if math.IsInf(f.lo.X, 1) { // first face of the facet
			f.p = a
		}
		for _, x := range [3]geom.Vec3{a, b, c} {
			f.lo, f.hi = f.lo.Min(x), f.hi.Max(x)
		}
	}
	for i := range s.facets {
		f := &s.facets[i]
		f.n = f.n.Unit()
		f.u = f.n.AnyPerp()
		f.v = f.n.Cross(f.u)
	}
	return facetOf
}

// to2 returns x in facet f's in-plane coordinates.
func (f *facet) to2(x geom.Vec3) [2]float64 {
	d := x.Sub(f.p)
	return [2]float64{d.Dot(f.u), d.Dot(f.v)}
}

// featureCand is a convex or boundary mesh edge between facets f1 < f2
// (f2 = −1 on a boundary); t1 is its face in facet f1.
type featureCand struct {
	e      int32
	f1, f2 int32
	t1     int32
}

// facetBoundaries adds every mesh edge between two facets (or on the rim) to
// the boundary polygons of its facets, marked concave by p's edge kind, and
// returns the convex and boundary edges as feature-edge candidates.
func (s *Surface) facetBoundaries(p *shape.Polyhedron, facetOf []int32) []featureCand {
	var cands []featureCand
	for e := range p.Edges {
		ed := &p.Edges[e]
		t1, t2 := lowFaces(ed)
		f1 := facetOf[t1]
		a, b := p.Verts[ed.V[0]], p.Verts[ed.V[1]]
		if t2 < 0 {
			f := &s.facets[f1]
			f.bnd = append(f.bnd, newBedge(f.to2(a), f.to2(b), f.to2(apex(p, t1, ed)), false))
			cands = append(cands, featureCand{int32(e), f1, -1, t1})
			continue
		}
		f2 := facetOf[t2]
		if f1 == f2 {
			continue // interior edge of a facet
		}
		for i, fi := range [2]int32{f1, f2} {
			f := &s.facets[fi]
			f.bnd = append(f.bnd, newBedge(f.to2(a), f.to2(b), f.to2(apex(p, [2]int32{t1, t2}[i], ed)), ed.Kind == shape.Concave))
		}
		if ed.Kind == shape.Convex {
			if f2 < f1 {
				f1, f2, t1 = f2, f1, t2
			}
			cands = append(cands, featureCand{int32(e), f1, f2, t1})
		}
	}
	return cands
}

// featureEdges merges the candidates that join the same facets along one line
// into the surface's feature edges and returns, for each mesh vertex at an
// end of one, the feature edges ending there.
func (s *Surface) featureEdges(p *shape.Polyhedron, cands []featureCand) map[int32][]int32 {
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].f1 != cands[j].f1 {
			return cands[i].f1 < cands[j].f1
		}
		return cands[i].f2 < cands[j].f2
	})
	endpoint := map[int32][]int32{}
	for lo := 0; lo < len(cands); {
		hi := lo + 1
		for hi < len(cands) && cands[hi].f1 == cands[lo].f1 && cands[hi].f2 == cands[lo].f2 {
			hi++
		}
		group := cands[lo:hi]
		used := make([]bool, len(group))
		for i := range group {
			if !used[i] {
				s.mergeLine(p, group, i, used, endpoint)
			}
		}
		lo = hi
	}
	return endpoint
}

// lineSpan is one candidate's extent [t0, t1] along a feature line and the
// mesh vertices at its ends.
type lineSpan struct {
	t0, t1 float64
	v0, v1 int32
}

// mergeLine collects the candidates of group (one facet pair) on the line of
// group[i], marks them used, and adds one feature edge per run of touching or
// overlapping spans, with the facet normals and the in-plane directions m1, m2
// leaving the facets across it.
func (s *Surface) mergeLine(p *shape.Polyhedron, group []featureCand, i int, used []bool, endpoint map[int32][]int32) {
	g := group[i]
	ed := &p.Edges[g.e]
	a0, b0 := p.Verts[ed.V[0]], p.Verts[ed.V[1]]
	e := b0.Sub(a0).Unit()
	tol := 1e-9 * s.scale
	var spans []lineSpan
	for j := i; j < len(group); j++ {
		if used[j] {
			continue
		}
		ej := &p.Edges[group[j].e]
		pa, pb := p.Verts[ej.V[0]], p.Verts[ej.V[1]]
		da, db := pa.Sub(a0), pb.Sub(a0)
		if da.Sub(e.Scale(da.Dot(e))).Norm() > tol || db.Sub(e.Scale(db.Dot(e))).Norm() > tol {
			continue
		}
		used[j] = true
		ta, tb := da.Dot(e), db.Dot(e)
		va, vb := ej.V[0], ej.V[1]
		if ta > tb {
			ta, tb, va, vb = tb, ta, vb, va
		}
		spans = append(spans, lineSpan{ta, tb, va, vb})
	}
	sort.Slice(spans, func(x, y int) bool { return spans[x].t0 < spans[y].t0 })
	f1 := &s.facets[g.f1]
	m1 := e.Cross(f1.n)
	if m1.Dot(apex(p, g.t1, ed).Sub(a0)) > 0 {
		m1 = m1.Neg()
	}
	var n2, m2 geom.Vec3
	if g.f2 >= 0 {
		n2 = s.facets[g.f2].n
		m2 = e.Cross(n2)
		// facet 2 lies on the −m2 side: for a convex edge, m2 points along +n1
		if m2.Dot(f1.n) < 0 {
			m2 = m2.Neg()
		}
	}
	for k := 0; k < len(spans); {
		q := k
		t1, v1 := spans[k].t1, spans[k].v1
		for q+1 < len(spans) && spans[q+1].t0 <= t1+tol {
			q++
			if spans[q].t1 > t1 {
				t1, v1 = spans[q].t1, spans[q].v1
			}
		}
		a := a0.AddScaled(spans[k].t0, e)
		b := a0.AddScaled(t1, e)
		fe := fedge{a: a, e: e, l: t1 - spans[k].t0, n1: f1.n, n2: n2, m1: m1, m2: m2, boundary: g.f2 < 0, f1: g.f1, f2: g.f2}
		fe.lo, fe.hi = a.Min(b), a.Max(b)
		id := int32(len(s.edges))
		s.edges = append(s.edges, fe)
		endpoint[spans[k].v0] = append(endpoint[spans[k].v0], id)
		endpoint[v1] = append(endpoint[v1], id)
		k = q + 1
	}
}

// convexCorners keeps, in vertex order, the feature-edge endpoints where
// every neighbour lies on or below every incident facet plane, with the
// directions to the neighbours and the facet normals that bound the corner's
// Voronoi cone.
func (s *Surface) convexCorners(p *shape.Polyhedron, facetOf []int32, endpoint map[int32][]int32) {
	vs := make([]int32, 0, len(endpoint))
	for v := range endpoint {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	for _, v := range vs {
		c := corner{v: p.Verts[v], es: endpoint[v]}
		for _, fc := range p.VertFaces[v] {
			if f := facetOf[fc]; !slices.Contains(c.fs, f) {
				c.fs = append(c.fs, f)
				c.ns = append(c.ns, s.facets[f].n)
			}
		}
		convex := true
		for _, e := range p.VertEdges[v] {
			ed := &p.Edges[e]
			w := ed.V[0]
			if w == v {
				w = ed.V[1]
			}
			d := p.Verts[w].Sub(p.Verts[v])
			for _, n := range c.ns {
				if n.Dot(d) > 1e-9*d.Norm() {
					convex = false
				}
			}
			c.dirs = append(c.dirs, d.Unit())
		}
		if convex {
			s.corners = append(s.corners, c)
		}
	}
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
		best = min(best, segDist2(q, f.bnd[i].a, f.bnd[i].b))
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
		t = max(0, min(1, ((q[0]-a[0])*dx+(q[1]-a[1])*dy)/l2))
	}
	ex, ey := q[0]-a[0]-t*dx, q[1]-a[1]-t*dy
	return ex*ex + ey*ey
}
