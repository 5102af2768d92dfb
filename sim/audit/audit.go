// Package audit is an independent penetration checker for simulation output:
// it shares no code with contact detection (only sim/geom value types) and
// re-derives, from world-space triangle meshes alone, whether any two solids
// interpenetrate or any solid crosses a wall. Decisions about triangle
// crossings use exact orientation predicates (float filter + rational
// fallback), so "no violation" at tol = 0 is a statement about the exact
// float64 geometry, not about a tolerance.
package audit

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"grainlab/sim/geom"
)

// Violation kinds.
const (
	// KindTriangle: a triangle of solid A and one of solid B penetrate (proper
	// crossing, or coplanar same-facing faces with overlapping interiors).
	KindTriangle = "triangle-intersection"
	// KindVertexInside: a vertex of one solid lies strictly inside the other.
	KindVertexInside = "vertex-inside"
	// KindWall: a vertex of solid A lies behind wall B (inside the prism
	// behind one of its triangles for an open wall; inside a closed
	// obstacle, outside a closed container), or a triangle of A crosses a
	// triangle of B.
	KindWall = "wall-crossing"
	// KindInvalid: mesh A (a solid, or wall B when A is −1) has a non-finite
	// vertex or an out-of-range index; it is skipped otherwise.
	KindInvalid = "invalid-mesh"
)

// Solid is a closed, consistently oriented (counter-clockwise seen from
// outside, i.e. outward normals) triangle mesh in world coordinates.
type Solid struct {
	Name  string
	Verts []geom.Vec3
	Tris  [][3]int32
}

// Surface is a triangle mesh (a wall) in world coordinates; the normal
// (b−a)×(c−a) of each triangle (a, b, c) points to the allowed side. It
// may be open (a sheet, a floor) or closed (closedwall.go: an obstacle,
// or with inward normals a container).
type Surface struct {
	Name  string
	Verts []geom.Vec3
	Tris  [][3]int32
}

// Violation is one offending pair. For solid pairs A < B index solids; for
// KindWall A is the solid and B the wall. Point is a representative point of
// the deepest detected contact and Depth an estimate of the penetration
// depth there (see Check); one Violation is reported per pair and kind.
type Violation struct {
	A, B  int
	Kind  string
	Point geom.Vec3
	Depth float64
}

// aabb is an axis-aligned box.
type aabb struct{ lo, hi geom.Vec3 }

func (b aabb) overlaps(c aabb) bool {
	return b.lo.X <= c.hi.X && c.lo.X <= b.hi.X && b.lo.Y <= c.hi.Y && c.lo.Y <= b.hi.Y &&
		b.lo.Z <= c.hi.Z && c.lo.Z <= b.hi.Z
}

// containsStrict reports whether p is in the open box.
func (b aabb) containsStrict(p geom.Vec3) bool {
	return p.X > b.lo.X && p.X < b.hi.X && p.Y > b.lo.Y && p.Y < b.hi.Y && p.Z > b.lo.Z && p.Z < b.hi.Z
}

func (b aabb) intersect(c aabb) aabb { return aabb{b.lo.Max(c.lo), b.hi.Min(c.hi)} }

func emptyBox() aabb {
	inf := math.Inf(1)
	return aabb{geom.V(inf, inf, inf), geom.V(-inf, -inf, -inf)}
}

func (b aabb) add(p geom.Vec3) aabb { return aabb{b.lo.Min(p), b.hi.Max(p)} }

// mesh is a validated mesh with per-triangle boxes; a solid's also has its
// triangles' planes and whether it is a closed chain (closedChain), as has
// a closed wall's (setClosedWall).
type mesh struct {
	verts  []geom.Vec3
	idx    [][3]int32 // the triangles' vertex indices
	tris   [][3]geom.Vec3
	boxes  []aabb
	planes []plane
	order  []int32 // triangles by lo.X (byLoX)
	box    aabb
	ok     bool
	closed bool
	inward bool // a closed wall's normals point inwards: it encloses the bodies
	// A solid's dop (dop.go): its vertices' projections, their rounding
	// bound and the widened dop of them all.
	proj  [][dopDirs]float64
	tdop  []tdop // each triangle's
	slack float64
	dop   dop
}

func prepare(verts []geom.Vec3, tris [][3]int32) mesh {
	m := mesh{verts: verts, idx: tris, box: emptyBox(), ok: true}
	for _, v := range verts {
		if !finite3(v) {
			m.ok = false
			return m
		}
		m.box = m.box.add(v)
	}
	m.tris = make([][3]geom.Vec3, len(tris))
	m.boxes = make([]aabb, len(tris))
	for i, t := range tris {
		for k, vi := range t {
			if vi < 0 || int(vi) >= len(verts) {
				m.ok = false
				return m
			}
			m.tris[i][k] = verts[vi]
		}
		m.boxes[i] = emptyBox().add(m.tris[i][0]).add(m.tris[i][1]).add(m.tris[i][2])
	}
	return m
}

func finite3(v geom.Vec3) bool {
	return !math.IsNaN(v.X) && !math.IsInf(v.X, 0) && !math.IsNaN(v.Y) && !math.IsInf(v.Y, 0) &&
		!math.IsNaN(v.Z) && !math.IsInf(v.Z, 0)
}

// Check returns every penetration among solids and between solids and walls:
// KindInvalid entries first, then solid pairs sorted by (A, B), then
// solid–wall pairs sorted by (A, B). A pair of solids whose boxes overlap
// is examined by
//
//  1. exact triangle–triangle tests on triangle pairs with overlapping boxes
//     (sort-and-sweep): a proper crossing, or coplanar same-facing faces with
//     overlapping interiors, is a KindTriangle violation when its local
//     depth — the separating-axis penetration depth of the two triangles
//     (in-plane for coplanar ones), a lower bound of the solids' depth — exceeds tol;
//  2. a point-in-mesh test of every vertex of one solid lying strictly
//     inside the other's box: a vertex farther than tol (and than 1e-12 ×
//     the solid's size) from the other surface with |winding| > 1/2 is a
//     KindVertexInside violation, Depth = that distance. The winding number
//     is counted exactly along a ray (rayWinding) when the other solid is a
//     closed chain and the ray meets no edge or vertex, else it is the
//     generalised winding number; the two agree off the surface. This
//     catches full containment, which has no crossing.
//
// For walls, a solid vertex behind the wall by more than tol, or a solid
// triangle properly crossing a wall triangle with local depth above tol, is
// a KindWall violation (as is a solid face lying on a wall triangle and
// facing the same way, i.e. the solid behind it). Behind an open wall is
// the unbounded prism behind each triangle: a vertex behind the triangle's
// plane whose projection falls inside the triangle, Depth its distance from
// the plane (a sheet or a floor forbids everything behind it). A closed
// wall (closedChain, enclosing a volume) bounds what it forbids
// (closedwall.go): its inside when its normals point outwards (an obstacle:
// an STL block or tetrapod), its outside when they point inwards (a
// container); a vertex is behind it by the point-in-mesh test of the solids
// (as in 2.), Depth its distance from the wall's surface.
//
// tol ≥ 0 lets touching and grazing contacts up to that depth pass; since
// the simulation keeps a positive gap, tol = 0 is the natural default and
// then exact touching (shared points, edges or back-to-back faces) passes and
// any proper crossing fails. A NaN or negative tol is treated as 0. Meshes
// with non-finite vertices or bad indices are reported as KindInvalid.
func Check(solids []Solid, walls []Surface, tol float64) []Violation {
	return CheckWorkers(solids, walls, tol, 1)
}

// pairChunk is how many solid pairs a worker of CheckWorkers claims at a time.
const pairChunk = 8

// CheckWorkers is Check shared out over workers goroutines (1 or less:
// the caller alone): the solids' preparation, the solid pairs and the
// solids' wall pairs, each in chunks of consecutive items claimed from a
// counter. Each item is examined alone and the findings are kept in item
// order, so the result is the same for any number of workers.
func CheckWorkers(solids []Solid, walls []Surface, tol float64, workers int) []Violation {
	if !(tol >= 0) {
		tol = 0
	}
	var out []Violation
	ms := make([]mesh, len(solids))
	nv, nt := 0, 0
	for _, s := range solids {
		nv, nt = nv+len(s.Verts), nt+len(s.Tris)
	}
	// Every solid's projections and triangle dops, in two allocations.
	proj, tdop := make([][dopDirs]float64, nv), make([]tdop, nt)
	vat, tat := make([]int, len(solids)+1), make([]int, len(solids)+1)
	for i, s := range solids {
		vat[i+1], tat[i+1] = vat[i]+len(s.Verts), tat[i]+len(s.Tris)
	}
	shareOut((len(solids)+solidChunk-1)/solidChunk, workers, func(c int, _ *scratch) {
		for i := c * solidChunk; i < min((c+1)*solidChunk, len(solids)); i++ {
			s := &solids[i]
			if ms[i] = prepare(s.Verts, s.Tris); ms[i].ok {
				ms[i].setDop(proj[vat[i]:vat[i+1]:vat[i+1]], tdop[tat[i]:tat[i+1]:tat[i+1]])
				ms[i].planes = planesOf(ms[i].tris)
				ms[i].order = byLoX(ms[i].boxes)
			}
		}
	})
	var cc closedCache
	for i := range ms {
		if !ms[i].ok {
			out = append(out, Violation{A: i, B: i, Kind: KindInvalid})
			continue
		}
		ms[i].closed = cc.get(solids[i].Tris)
	}
	ws := make([]mesh, len(walls))
	for i, w := range walls {
		ws[i] = prepare(w.Verts, w.Tris)
		if !ws[i].ok {
			out = append(out, Violation{A: -1, B: i, Kind: KindInvalid})
			continue
		}
		ws[i].setClosedWall(cc.get(w.Tris))
	}
	out = solidPairs(out, ms, boxPairs(ms), tol, workers)
	nc := (len(ms) + solidChunk - 1) / solidChunk
	found := make([][]Violation, nc)
	shareOut(nc, workers, func(c int, sc *scratch) {
		for i := c * solidChunk; i < min((c+1)*solidChunk, len(ms)); i++ {
			if !ms[i].ok {
				continue
			}
			for j := range ws {
				if ws[j].ok {
					found[c] = sc.wallPair(found[c], &ms[i], &ws[j], i, j, tol)
				}
			}
		}
	})
	for _, f := range found {
		out = append(out, f...)
	}
	return out
}

// solidChunk is how many solids a worker of CheckWorkers prepares, or
// checks against the walls, at a time.
const solidChunk = 16

// shareOut calls f(c, sc) for every chunk c in [0, n), on up to workers
// goroutines (the caller one of them), each claiming the next chunk from a
// counter and keeping its own scratch.
func shareOut(n, workers int, f func(c int, sc *scratch)) {
	workers = min(workers, n)
	if workers <= 1 {
		var sc scratch
		for c := range n {
			f(c, &sc)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func() {
		var sc scratch
		for c := int(next.Add(1)) - 1; c < n; c = int(next.Add(1)) - 1 {
			f(c, &sc)
		}
	}
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() { defer wg.Done(); work() }()
	}
	work()
	wg.Wait()
}

// solidPairs appends the violations of the solid pairs (solidPair), in
// pair order, examined by up to workers goroutines (shareOut): chunk c of
// pairChunk pairs writes its findings to found[c] only.
func solidPairs(out []Violation, ms []mesh, pairs [][2]int, tol float64, workers int) []Violation {
	nc := (len(pairs) + pairChunk - 1) / pairChunk
	found := make([][]Violation, nc)
	shareOut(nc, workers, func(c int, sc *scratch) {
		for _, p := range pairs[c*pairChunk : min((c+1)*pairChunk, len(pairs))] {
			found[c] = sc.solidPair(found[c], &ms[p[0]], &ms[p[1]], p[0], p[1], tol)
		}
	})
	for _, f := range found {
		out = append(out, f...)
	}
	return out
}

// boxPairs returns the pairs (i < j) of valid meshes whose boxes overlap, by
// sort-and-sweep along x, sorted.
func boxPairs(ms []mesh) [][2]int {
	idx := make([]int, 0, len(ms))
	for i := range ms {
		if ms[i].ok && len(ms[i].tris) > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(ms[a].box.lo.X, ms[b].box.lo.X) })
	var pairs [][2]int
	for k, i := range idx {
		for _, j := range idx[k+1:] {
			if ms[j].box.lo.X > ms[i].box.hi.X {
				break
			}
			if ms[i].box.overlaps(ms[j].box) {
				pairs = append(pairs, [2]int{min(i, j), max(i, j)})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	return pairs
}

// scratch holds reusable candidate lists.
type scratch struct {
	ca, cb []int32 // candidate triangles of a pair's two solids
	ba, bb []aabb  // their boxes, in the same order
	in     []int32 // vertices of one solid strictly inside the other's box
	rays   []int32 // triangles of the other a ray from them may meet
}

// record keeps the deepest hit of one kind for one pair.
type record struct {
	hit   bool
	depth float64
	point geom.Vec3
}

func (r *record) add(d float64, p geom.Vec3) {
	if !r.hit || d > r.depth {
		r.hit, r.depth, r.point = true, d, p
	}
}

// candidates returns the triangles of m whose boxes meet box, sorted by lo.X.
func candidates(dst []int32, m *mesh, box aabb) []int32 {
	dst = dst[:0]
	for t := range m.boxes {
		if m.boxes[t].overlaps(box) {
			dst = append(dst, int32(t))
		}
	}
	slices.SortFunc(dst, func(a, b int32) int { return cmp.Compare(m.boxes[a].lo.X, m.boxes[b].lo.X) })
	return dst
}

// byLoX returns the indices of the boxes sorted by lo.X (ties by index).
func byLoX(boxes []aabb) []int32 {
	order := make([]int32, len(boxes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Or(cmp.Compare(boxes[a].lo.X, boxes[b].lo.X), cmp.Compare(a, b)) })
	return order
}

// candidatesInOrder is candidates taken in the order m.order (sorted by
// lo.X once per mesh, so nothing is sorted per pair), with their boxes.
func candidatesInOrder(dst []int32, boxes []aabb, m *mesh, box *aabb) ([]int32, []aabb) {
	dst, boxes = dst[:0], boxes[:0]
	for _, t := range m.order {
		bt := &m.boxes[t]
		if bt.lo.X > box.hi.X {
			break // so are all the rest
		}
		if box.lo.X <= bt.hi.X && bt.lo.Y <= box.hi.Y && box.lo.Y <= bt.hi.Y && bt.lo.Z <= box.hi.Z && box.lo.Z <= bt.hi.Z {
			dst = append(dst, t)
			boxes = append(boxes, *bt)
		}
	}
	return dst, boxes
}

// candidatesNear is candidatesInOrder less the triangles whose dops miss
// pd (the common part of the two solids' dops: such a triangle meets
// nothing of the other solid's hull; box is pd's first three directions,
// unwidened).
func candidatesNear(dst []int32, boxes []aabb, m *mesh, box *aabb, pd *dop) ([]int32, []aabb) {
	dst, boxes = dst[:0], boxes[:0]
	for _, t := range m.order {
		bt := &m.boxes[t]
		if bt.lo.X > box.hi.X {
			break // so are all the rest
		}
		if box.lo.X <= bt.hi.X && bt.lo.Y <= box.hi.Y && box.lo.Y <= bt.hi.Y && bt.lo.Z <= box.hi.Z && box.lo.Z <= bt.hi.Z &&
			m.tdop[t].meetsDop(pd) {
			dst = append(dst, t)
			boxes = append(boxes, *bt)
		}
	}
	return dst, boxes
}

// boxesOf returns the boxes of the triangles ts of m, in that order.
func boxesOf(dst []aabb, m *mesh, ts []int32) []aabb {
	dst = dst[:0]
	for _, t := range ts {
		dst = append(dst, m.boxes[t])
	}
	return dst
}

// sweepTriangles calls f(i, k) for every pair of candidate triangles ca[i]
// and cb[k] whose boxes overlap; ca and cb are sorted by lo.X and ba, bb
// are their boxes. In the inner loops the x ranges overlap by construction
// (lo.X of the one between lo.X and hi.X of the other): y and z decide.
func sweepTriangles(ba, bb []aabb, f func(i, k int)) {
	i, j := 0, 0
	for i < len(ba) && j < len(bb) {
		if p := &ba[i]; p.lo.X <= bb[j].lo.X {
			for k := j; k < len(bb) && bb[k].lo.X <= p.hi.X; k++ {
				if q := &bb[k]; overlapsYZ(p, q) {
					f(i, k)
				}
			}
			i++
		} else {
			q := &bb[j]
			for k := i; k < len(ba) && ba[k].lo.X <= q.hi.X; k++ {
				if p := &ba[k]; overlapsYZ(q, p) {
					f(k, j)
				}
			}
			j++
		}
	}
}

// overlapsYZ is overlaps without the x axis.
func overlapsYZ(b, c *aabb) bool {
	return b.lo.Y <= c.hi.Y && c.lo.Y <= b.hi.Y && b.lo.Z <= c.hi.Z && c.lo.Z <= b.hi.Z
}

// solidPair appends the violations of solids a and b. The triangle pairs
// are first swept in the meshes' own lo.X order, only to learn whether any
// penetrates; the pairs that do (rare: each is an error) are swept again
// in the order of candidates (each pair's list sorted by lo.X), which
// decides which of equally deep hits is reported.
//
// The dops (dop.go) skip what cannot penetrate: a pair whose dops are apart
// (their hulls are: no triangle crossing, no vertex inside), in the first
// sweep the triangles whose dops miss the two solids' common part and the
// triangle pairs whose dops are apart; in containment the vertices outside
// the other's dop.
func (sc *scratch) solidPair(out []Violation, a, b *mesh, ia, ib int, tol float64) []Violation {
	var tri, inside record
	apart := !a.dop.overlaps(&b.dop)
	if apart && a.closed && b.closed {
		return out // nothing can cross, no vertex lies inside the other's hull
	}
	box := a.box.intersect(b.box)
	hit := false
	if !apart {
		pd := a.dop.intersect(&b.dop)
		if sc.ca, sc.ba = candidatesNear(sc.ca, sc.ba, a, &box, &pd); len(sc.ca) > 0 {
			if sc.cb, sc.bb = candidatesNear(sc.cb, sc.bb, b, &box, &pd); len(sc.cb) > 0 {
				ca, cb := sc.ca, sc.cb
				sweepTriangles(sc.ba, sc.bb, func(i, k int) {
					if ta, tb := ca[i], cb[k]; !hit && a.tdop[ta].meets(&b.tdop[tb]) {
						hit = penetrates(&a.tris[ta], &b.tris[tb], &a.planes[ta], &b.planes[tb], tol)
					}
				})
			}
		}
	}
	if hit {
		sc.ca = candidates(sc.ca, a, box)
		sc.cb = candidates(sc.cb, b, box)
		sc.ba, sc.bb = boxesOf(sc.ba, a, sc.ca), boxesOf(sc.bb, b, sc.cb)
		sweepTriangles(sc.ba, sc.bb, func(i, k int) {
			ta, tb := sc.ca[i], sc.cb[k]
			pa, pb := &a.tris[ta], &b.tris[tb]
			switch classifyPlanes(pa, pb, &a.planes[ta], &b.planes[tb]) {
			case triCrossing:
				d, p := crossDepth(pa, pb)
				if tol == 0 || d > tol {
					tri.add(d, p)
				}
			case triCoplanar:
				d, p := coplanarDepth(pa, pb)
				if tol == 0 || d > tol {
					tri.add(d, p)
				}
			}
		})
	}
	sc.containment(&inside, a, b, tol)
	sc.containment(&inside, b, a, tol)
	if tri.hit {
		out = append(out, Violation{A: ia, B: ib, Kind: KindTriangle, Point: tri.point, Depth: tri.depth})
	}
	if inside.hit {
		out = append(out, Violation{A: ia, B: ib, Kind: KindVertexInside, Point: inside.point, Depth: inside.depth})
	}
	return out
}

// penetrates reports whether triangles pa and pb (planes la, lb) cross or
// overlap coplanar with a local depth above tol (any depth when tol = 0).
func penetrates(pa, pb *[3]geom.Vec3, la, lb *plane, tol float64) bool {
	switch classifyPlanes(pa, pb, la, lb) {
	case triCrossing:
		d, _ := crossDepth(pa, pb)
		return tol == 0 || d > tol
	case triCoplanar:
		d, _ := coplanarDepth(pa, pb)
		return tol == 0 || d > tol
	}
	return false
}

// containment records the vertices of a strictly inside solid b. The ray
// test (insideMesh) of each is given the triangles of b that a ray towards
// +x from a point of the box around those vertices can meet (raysFrom).
func (sc *scratch) containment(r *record, a, b *mesh, tol float64) {
	sc.in = sc.in[:0]
	vb := emptyBox()
	for i, v := range a.verts {
		if b.box.containsStrict(v) && !(b.closed && a.vertexOut(int32(i), &b.dop)) {
			sc.in = append(sc.in, int32(i))
			vb = vb.add(v)
		}
	}
	if len(sc.in) == 0 {
		return
	}
	sc.raysFrom(b, &vb)
	onSurface := onSurfaceOf(b)
	for _, i := range sc.in {
		v := a.verts[i]
		if !insideMesh(v, b, sc.rays) {
			continue // outside: the distance is not needed
		}
		if d := distance(v, b.tris); d > onSurface && d > tol {
			r.add(d, v)
		}
	}
}

// winding returns the generalised winding number of the triangles about p
// (1 inside a closed outward mesh, 0 outside).
func winding(p geom.Vec3, tris [][3]geom.Vec3) float64 {
	omega := 0.0
	for i := range tris {
		omega += solidAngle(p, &tris[i])
	}
	return omega / (4 * math.Pi)
}

// distance returns the distance from p to the triangles.
func distance(p geom.Vec3, tris [][3]geom.Vec3) float64 {
	d2 := math.Inf(1)
	for i := range tris {
		d2 = min(d2, closestPoint(p, &tris[i]).Sub(p).Norm2())
	}
	return math.Sqrt(d2)
}

// solidAngle returns the signed solid angle of triangle t seen from p (van
// Oosterom & Strackee), positive when p is behind the triangle's normal.
func solidAngle(p geom.Vec3, t *[3]geom.Vec3) float64 {
	a, b, c := t[0].Sub(p), t[1].Sub(p), t[2].Sub(p)
	la, lb, lc := a.Norm(), b.Norm(), c.Norm()
	num := a.Dot(b.Cross(c))
	den := la*lb*lc + a.Dot(b)*lc + a.Dot(c)*lb + b.Dot(c)*la
	return 2 * math.Atan2(num, den)
}

// closestPoint returns the point of triangle t closest to p (Ericson, RTCD §5.1.5).
func closestPoint(p geom.Vec3, t *[3]geom.Vec3) geom.Vec3 {
	a, b, c := t[0], t[1], t[2]
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.AddScaled(d1/(d1-d3), ab)
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.AddScaled(d2/(d2-d6), ac)
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.AddScaled((d4-d3)/((d4-d3)+(d5-d6)), c.Sub(b))
	}
	den := va + vb + vc
	if !(den > 0) { // degenerate triangle: fall back to the closest vertex
		best := a
		for _, q := range [2]geom.Vec3{b, c} {
			if q.Sub(p).Norm2() < best.Sub(p).Norm2() {
				best = q
			}
		}
		return best
	}
	v, w := vb/den, vc/den
	return a.AddScaled(v, ab).AddScaled(w, ac)
}

// wallPair checks solid a against wall w: its vertices behind w (inPrism
// for an open wall; wallVertices for a closed one) and its triangles
// crossing w's.
func (sc *scratch) wallPair(out []Violation, a, w *mesh, ia, iw int, tol float64) []Violation {
	var rec record
	if w.closed && !w.inward && !a.dop.overlaps(&w.dop) {
		return out // apart from a closed obstacle's hull: nothing crosses, no vertex inside
	}
	half := a.box.hi.Sub(a.box.lo).Scale(0.5)
	mid := a.box.lo.Add(half)
	for t := range w.tris {
		tri := &w.tris[t]
		n := tri[1].Sub(tri[0]).Cross(tri[2].Sub(tri[0]))
		nn := n.Norm()
		if !(nn > 0) {
			continue
		}
		n = n.Scale(1 / nn)
		// The whole solid box in front (within tol): nothing can be behind or cross.
		if n.Dot(mid.Sub(tri[0]))-(abs(n.X)*half.X+abs(n.Y)*half.Y+abs(n.Z)*half.Z) >= -tol {
			continue
		}
		if !w.closed { // a closed wall's vertices: wallVertices below
			for _, v := range a.verts {
				d := n.Dot(v.Sub(tri[0]))
				if d < -tol && inPrism(v, tri, n) {
					rec.add(-d, v)
				}
			}
		}
		if !w.boxes[t].overlaps(a.box) {
			continue
		}
		for s := range a.tris {
			if !a.boxes[s].overlaps(w.boxes[t]) {
				continue
			}
			switch classify(&a.tris[s], tri) {
			case triCrossing:
				if d, p := crossDepth(&a.tris[s], tri); tol == 0 || d > tol {
					rec.add(d, p)
				}
			case triCoplanar: // a solid face on the wall, facing the same way: solid behind it
				if d, p := coplanarDepth(&a.tris[s], tri); tol == 0 || d > tol {
					rec.add(d, p)
				}
			}
		}
	}
	if w.closed {
		sc.wallVertices(&rec, a, w, tol)
	}
	if rec.hit {
		out = append(out, Violation{A: ia, B: iw, Kind: KindWall, Point: rec.point, Depth: rec.depth})
	}
	return out
}

// inPrism reports whether the projection of p along n falls in triangle t (closed).
func inPrism(p geom.Vec3, t *[3]geom.Vec3, n geom.Vec3) bool {
	for k := range 3 {
		a, b := t[k], t[(k+1)%3]
		if b.Sub(a).Cross(p.Sub(a)).Dot(n) < 0 {
			return false
		}
	}
	return true
}
