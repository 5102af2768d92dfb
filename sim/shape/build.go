package shape

import (
	"math"

	"grainlab/sim/geom"
)

// Tolerances of mesh validation and edge classification, all relative to the
// mesh's bounding-box diagonal d.
const (
	// degenerateAreaRel: a face with area ≤ degenerateAreaRel·d² is degenerate.
	degenerateAreaRel = 1e-12
	// zeroVolumeRel: a closed mesh with |volume| ≤ zeroVolumeRel·d³ encloses nothing.
	zeroVolumeRel = 1e-12
	// flatAngle: two faces whose normals differ by at most this angle (rad) are coplanar.
	flatAngle = 1e-6
	// flatDistRel, flatNoiseAngle: … or whose normals differ by at most
	// flatNoiseAngle while a far vertex lies within flatDistRel·d of the other
	// face's plane (sliver triangles of float32 STL files have noisy normals).
	flatDistRel    = 1e-6
	flatNoiseAngle = 1e-3
)

// MinSize and MaxSize bound a solid's size (m): the bounding-box diagonal of
// a mesh, the bounding diameter of a smooth body in the scene builder. The
// mass properties scale as d³ (volume) and d⁵ (inertia) and the tolerances
// above as d², all of which must stay normal float64 numbers.
const (
	MinSize = 1e-30
	MaxSize = 1e30
)

// NewPolyhedron validates a closed triangle mesh and builds the contact
// topology and the mass properties of the solid it bounds. Triangles must be
// counter-clockwise seen from outside. Vertices no triangle uses are dropped
// (indices are renumbered); the remaining ones are shifted so that the
// centroid is the origin (see Polyhedron.Offset). Failures are *MeshError.
func NewPolyhedron(name string, verts []geom.Vec3, tris [][3]int32) (*Polyhedron, error) {
	return build(name, verts, tris, true)
}

// NewSurface validates an open (or closed) oriented surface such as a wall:
// edges with a single face are allowed and become Boundary edges, normals come
// from the winding, vertices are not shifted and Volume, Offset and
// InertiaUnit are zero. It must still be manifold and consistently oriented.
func NewSurface(name string, verts []geom.Vec3, tris [][3]int32) (*Polyhedron, error) {
	return build(name, verts, tris, false)
}

// halfEdge records one face's use of an edge.
type halfEdge struct {
	face int32
	fwd  bool // the face traverses V[0]→V[1]
}

func build(name string, verts []geom.Vec3, tris [][3]int32, closed bool) (*Polyhedron, error) {
	if len(tris) == 0 {
		return nil, meshErr(name, ErrDegenerate, "no faces")
	}
	if closed && len(tris) < 4 {
		return nil, meshErr(name, ErrDegenerate, "a closed solid needs at least 4 faces, got %d", len(tris))
	}
	// Index range and repeated vertices.
	used := make([]bool, len(verts))
	for f, t := range tris {
		for _, v := range t {
			if v < 0 || int(v) >= len(verts) {
				return nil, faceErr(name, ErrIndex, f, t, "vertex index %d out of range (mesh has %d vertices)", v, len(verts))
			}
			used[v] = true
		}
		if t[0] == t[1] || t[1] == t[2] || t[2] == t[0] {
			return nil, faceErr(name, ErrDegenerate, f, t, "repeats a vertex")
		}
	}
	// Finite coordinates; drop unreferenced vertices.
	newIdx := make([]int32, len(verts))
	var orig []int32 // new → input index
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	for i, v := range verts {
		newIdx[i] = -1
		if !used[i] {
			continue
		}
		if !v.IsFinite() {
			return nil, vertErr(name, ErrNonFinite, i, "non-finite coordinate (%g, %g, %g)", v.X, v.Y, v.Z)
		}
		newIdx[i] = int32(len(orig))
		orig = append(orig, int32(i))
		lo, hi = lo.Min(v), hi.Max(v)
	}
	diag := hi.Sub(lo).Norm()
	if !(diag >= MinSize && diag <= MaxSize) {
		return nil, meshErr(name, ErrScale, "size out of range: bounding-box diagonal %.3g m, want %g…%g m", diag, MinSize, MaxSize)
	}
	p := &Polyhedron{Name: name, Closed: closed, Verts: make([]geom.Vec3, len(orig)), Faces: make([]Face, len(tris))}
	for i, o := range orig {
		p.Verts[i] = verts[o]
	}
	areaTol := degenerateAreaRel * diag * diag
	for f, t := range tris {
		a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
		area := 0.5 * b.Sub(a).Cross(c.Sub(a)).Norm()
		if !(area > areaTol) {
			return nil, faceErr(name, ErrDegenerate, f, t, "zero area (%.3g, mesh diagonal %.3g)", area, diag)
		}
		p.Faces[f].V = [3]int32{newIdx[t[0]], newIdx[t[1]], newIdx[t[2]]}
	}

	if err := p.buildEdges(orig); err != nil {
		return nil, err
	}
	if err := p.buildFans(orig); err != nil {
		return nil, err
	}
	if closed {
		if err := p.checkSelfIntersection(diag, orig); err != nil {
			return nil, err
		}
		if err := p.massProperties(lo.Add(hi).Scale(0.5), diag); err != nil {
			return nil, err
		}
	}
	p.geometry(diag)
	return p, nil
}

// buildEdges creates the unique edges, checks that each has one (surface) or
// two faces traversing it in opposite directions, and fills Face.E.
func (p *Polyhedron) buildEdges(orig []int32) error {
	key := func(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }
	index := make(map[uint64]int32, 3*len(p.Faces)/2)
	var uses [][]halfEdge
	for f := range p.Faces {
		fc := &p.Faces[f]
		for k := 0; k < 3; k++ {
			a, b := fc.V[k], fc.V[(k+1)%3]
			fwd := a < b
			if !fwd {
				a, b = b, a
			}
			e, ok := index[key(a, b)]
			if !ok {
				e = int32(len(p.Edges))
				index[key(a, b)] = e
				p.Edges = append(p.Edges, Edge{V: [2]int32{a, b}, F: [2]int32{-1, -1}})
				uses = append(uses, nil)
			}
			uses[e] = append(uses[e], halfEdge{int32(f), fwd})
			fc.E[k] = e
		}
	}
	name := p.Name
	faces := func(hs []halfEdge) []int32 {
		fs := make([]int32, len(hs))
		for i, h := range hs {
			fs[i] = h.face
		}
		return fs
	}
	// Report the most specific defect first: non-manifold, orientation, open.
	for e, hs := range uses {
		if len(hs) > 2 {
			ed := p.Edges[e]
			return edgeErr(name, ErrNonManifold, orig[ed.V[0]], orig[ed.V[1]], "non-manifold (used by %d faces: %s)", len(hs), faceList(faces(hs)))
		}
	}
	for e, hs := range uses {
		if len(hs) == 2 && hs[0].fwd == hs[1].fwd {
			ed := p.Edges[e]
			return edgeErr(name, ErrOrientation, orig[ed.V[0]], orig[ed.V[1]], "inconsistent orientation (faces %d and %d traverse it the same way)", hs[0].face, hs[1].face)
		}
	}
	for e, hs := range uses {
		ed := &p.Edges[e]
		if len(hs) == 1 {
			if p.Closed {
				return edgeErr(name, ErrOpen, orig[ed.V[0]], orig[ed.V[1]], "open (used by 1 face: %d)", hs[0].face)
			}
			ed.F = [2]int32{hs[0].face, -1}
			ed.Kind = Boundary
			continue
		}
		if hs[0].fwd {
			ed.F = [2]int32{hs[0].face, hs[1].face}
		} else {
			ed.F = [2]int32{hs[1].face, hs[0].face}
		}
	}
	return nil
}

// otherFace returns the face across edge e from face f (−1 on a boundary).
func (p *Polyhedron) otherFace(e, f int32) int32 {
	if p.Edges[e].F[0] == f {
		return p.Edges[e].F[1]
	}
	return p.Edges[e].F[0]
}

// buildFans fills VertFaces and VertEdges in counter-clockwise order around
// each vertex seen from outside, and rejects vertices whose faces do not form
// a single fan (two cones touching at their apex).
func (p *Polyhedron) buildFans(orig []int32) error {
	nv := len(p.Verts)
	incident := make([][]int32, nv)
	for f, fc := range p.Faces {
		for _, v := range fc.V {
			incident[v] = append(incident[v], int32(f))
		}
	}
	p.VertFaces = make([][]int32, nv)
	p.VertEdges = make([][]int32, nv)
	corner := func(f, v int32) int {
		fc := &p.Faces[f]
		switch v {
		case fc.V[0]:
			return 0
		case fc.V[1]:
			return 1
		}
		return 2
	}
	for v := int32(0); v < int32(nv); v++ {
		inc := incident[v]
		// Going counter-clockwise about v crosses each face's incoming edge
		// V[k+2]→V[k]; an open fan starts at the face whose outgoing edge V[k]→V[k+1]
		// is a boundary.
		start := inc[0]
		for _, f := range inc {
			if p.otherFace(p.Faces[f].E[corner(f, v)], f) < 0 {
				start = f
				break
			}
		}
		fs := make([]int32, 0, len(inc))
		es := make([]int32, 0, len(inc)+1)
		f := start
		for len(fs) <= len(inc) {
			k := corner(f, v)
			fs = append(fs, f)
			es = append(es, p.Faces[f].E[k])
			in := p.Faces[f].E[(k+2)%3]
			next := p.otherFace(in, f)
			if next < 0 {
				es = append(es, in)
				break
			}
			if next == start {
				break
			}
			f = next
		}
		if len(fs) != len(inc) {
			return vertErr(p.Name, ErrNonManifold, int(orig[v]), "non-manifold (its %d faces do not form a single fan; %d of them do)", len(inc), len(fs))
		}
		p.VertFaces[v], p.VertEdges[v] = fs, es
	}
	return nil
}

// massProperties integrates volume, centroid and inertia of the enclosed
// solid by summing signed tetrahedra (ref, a, b, c) over the faces (the
// divergence theorem), then moves the origin to the centroid.
func (p *Polyhedron) massProperties(ref geom.Vec3, diag float64) error {
	var vol6 float64 // 6·volume
	var m1 geom.Vec3 // 24·first moment
	var c120 geom.Mat3
	for _, fc := range p.Faces {
		a, b, c := p.Verts[fc.V[0]].Sub(ref), p.Verts[fc.V[1]].Sub(ref), p.Verts[fc.V[2]].Sub(ref)
		d := a.Dot(b.Cross(c)) // 6·signed volume of tetrahedron (0, a, b, c)
		s := a.Add(b).Add(c)
		vol6 += d
		m1 = m1.AddScaled(d, s) // ∫x dV = V·(a+b+c)/4 = d·s/24
		// ∫x xᵀ dV over a tetrahedron with vertex 0 = V/20·(Σ vᵢvᵢᵀ + s sᵀ) = d/120·(…); derived in TestTetraCovariance.
		c120 = c120.Add(geom.Outer(a, a).Add(geom.Outer(b, b)).Add(geom.Outer(c, c)).Add(geom.Outer(s, s)).Scale(d))
	}
	vol := vol6 / 6
	if math.Abs(vol) <= zeroVolumeRel*diag*diag*diag || math.IsNaN(vol) {
		return meshErr(p.Name, ErrZeroVolume, "zero volume (%.3g, mesh diagonal %.3g)", vol, diag)
	}
	if vol < 0 {
		return meshErr(p.Name, ErrInverted, "faces point inward (signed volume %.6g): reverse the triangle winding", vol)
	}
	cen := m1.Scale(1 / (24 * vol))
	cov := c120.Scale(1.0 / 120).Sub(geom.Outer(cen, cen).Scale(vol)) // about the centroid (parallel axis)
	p.Volume = vol
	p.Offset = ref.Add(cen)
	p.InertiaUnit = geom.Identity().Scale(cov.Trace()).Sub(cov) // I = tr(C)·1 − C
	for i := range p.Verts {
		p.Verts[i] = p.Verts[i].Sub(p.Offset)
	}
	return nil
}

// geometry fills normals, areas, edge kinds and the bounding quantities.
func (p *Polyhedron) geometry(diag float64) {
	for f := range p.Faces {
		fc := &p.Faces[f]
		a, b, c := p.Verts[fc.V[0]], p.Verts[fc.V[1]], p.Verts[fc.V[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		fc.Area = 0.5 * n.Norm()
		fc.N = n.Unit()
	}
	flatDist := flatDistRel * diag
	for e := range p.Edges {
		ed := &p.Edges[e]
		if ed.Kind == Boundary {
			ed.Dihedral = 0
			continue
		}
		f0, f1 := &p.Faces[ed.F[0]], &p.Faces[ed.F[1]]
		theta := math.Atan2(f0.N.Cross(f1.N).Norm(), f0.N.Dot(f1.N)) // angle between the normals
		v0 := p.Verts[ed.V[0]]
		d1 := f0.N.Dot(p.Verts[p.apex(ed.F[1], ed)].Sub(v0)) // F1's far vertex above F0's plane
		d0 := f1.N.Dot(p.Verts[p.apex(ed.F[0], ed)].Sub(v0)) // F0's far vertex above F1's plane
		d := d1
		if math.Abs(d0) > math.Abs(d1) {
			d = d0
		}
		switch {
		case theta <= flatAngle || (theta <= flatNoiseAngle && min(math.Abs(d0), math.Abs(d1)) <= flatDist):
			ed.Kind, ed.Dihedral = Flat, math.Pi
		case d > 0: // re-entrant: each face's far vertex lies outside the other's plane
			ed.Kind, ed.Dihedral = Concave, math.Pi+theta
		default:
			ed.Kind, ed.Dihedral = Convex, math.Pi-theta
		}
	}
	p.MinEdge = math.Inf(1)
	for _, ed := range p.Edges {
		p.MinEdge = min(p.MinEdge, p.Verts[ed.V[0]].Dist(p.Verts[ed.V[1]]))
	}
	p.AABBMin = geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	p.AABBMax = p.AABBMin.Neg()
	p.Radius = 0
	for _, v := range p.Verts {
		p.AABBMin, p.AABBMax = p.AABBMin.Min(v), p.AABBMax.Max(v)
		p.Radius = max(p.Radius, v.Norm())
	}
}

// apex returns the vertex of face f that is not on edge ed.
func (p *Polyhedron) apex(f int32, ed *Edge) int32 {
	for _, v := range p.Faces[f].V {
		if v != ed.V[0] && v != ed.V[1] {
			return v
		}
	}
	return -1
}
