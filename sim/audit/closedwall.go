package audit

import "math"

// A wall mesh that is a closed chain (closedChain: watertight and
// consistently oriented) bounds a region, and "behind it" is that region's
// side of its surface, not the unbounded prism behind each triangle (the
// rule for open walls: sheets, floors, a box's separate sides). With
// outward normals (positive volume) the wall is an obstacle and forbids its
// inside; with inward normals (negative volume) it is a container and
// forbids its outside. Either way a solid vertex is behind it iff it is
// (or is not) inside the mesh by the exact point-in-mesh test of the solids
// (insideMesh), more than tol and round-off away from the surface.

// setClosedWall marks the valid wall mesh w closed (chain: closedChain of
// its indices) when it is a closed chain enclosing a volume, with its
// orientation, and gives it what the point-in-mesh test needs: its
// triangles' planes and its dop. A closed chain of no volume (within
// round-off: the sign could not be trusted) stays an open wall.
func (w *mesh) setClosedWall(chain bool) {
	if !chain || len(w.tris) == 0 {
		return
	}
	// Six times the signed volume (divergence theorem), about the box's
	// centre to keep the terms small.
	c := w.box.lo.Add(w.box.hi).Scale(0.5)
	v6, mag := 0.0, 0.0
	for i := range w.tris {
		t := &w.tris[i]
		a, b, d := t[0].Sub(c), t[1].Sub(c), t[2].Sub(c)
		v6 += a.Dot(b.Cross(d))
		mag += a.Norm() * b.Norm() * d.Norm()
	}
	// The float sum is off the exact one by less than about (n+6)·u·mag
	// (u = 2⁻⁵³; each term's products and the n additions, Higham 2002,
	// §3.1), below 1e-9·mag for n < 10⁷ triangles: a volume under that
	// counts as none (a two-sided sheet, say), whose sign is not trusted.
	if !(math.Abs(v6) > 1e-9*mag) {
		return
	}
	w.closed, w.inward = true, v6 < 0
	w.planes = planesOf(w.tris)
	w.setDop(make([][dopDirs]float64, len(w.verts)), make([]tdop, len(w.tris)))
}

// wallVertices records the vertices of solid a behind the closed wall w:
// inside an obstacle (containment, as for a solid), outside a container.
func (sc *scratch) wallVertices(r *record, a, w *mesh, tol float64) {
	if !w.inward {
		sc.containment(r, a, w, tol)
		return
	}
	// A vertex on or outside the container's box, or proved outside its
	// hull by the dops, is outside it: behind it unless on its surface.
	onSurface := onSurfaceOf(w)
	sc.in = sc.in[:0]
	vb := emptyBox()
	for i, v := range a.verts {
		if w.box.containsStrict(v) && !a.vertexOut(int32(i), &w.dop) {
			sc.in = append(sc.in, int32(i))
			vb = vb.add(v)
		} else if d := distance(v, w.tris); d > onSurface && d > tol {
			r.add(d, v)
		}
	}
	if len(sc.in) == 0 {
		return
	}
	sc.raysFrom(w, &vb)
	for _, i := range sc.in {
		v := a.verts[i]
		if insideMesh(v, w, sc.rays) {
			continue // inside the container: allowed
		}
		if d := distance(v, w.tris); d > onSurface && d > tol {
			r.add(d, v)
		}
	}
}

// raysFrom sets sc.rays to the triangles of b that a ray towards +x from a
// point of box vb can meet.
func (sc *scratch) raysFrom(b *mesh, vb *aabb) {
	sc.rays = sc.rays[:0]
	for t := range b.boxes {
		if bt := &b.boxes[t]; bt.hi.X >= vb.lo.X && bt.lo.Y <= vb.hi.Y && bt.hi.Y >= vb.lo.Y &&
			bt.lo.Z <= vb.hi.Z && bt.hi.Z >= vb.lo.Z {
			sc.rays = append(sc.rays, int32(t))
		}
	}
}

// onSurfaceOf is the distance from b's surface within which a point counts
// as on it (round-off of the distance): 1e-12 of b's size.
func onSurfaceOf(b *mesh) float64 {
	size := b.box.hi.Sub(b.box.lo)
	return 1e-12 * max(size.X, size.Y, size.Z)
}
