package shape

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"grainlab/sim/geom"
)

func boxVerts(a, b, c float64, shift geom.Vec3) []geom.Vec3 {
	x, y, z := a/2, b/2, c/2
	v := []geom.Vec3{
		{X: -x, Y: -y, Z: -z}, {X: x, Y: -y, Z: -z}, {X: x, Y: y, Z: -z}, {X: -x, Y: y, Z: -z},
		{X: -x, Y: -y, Z: z}, {X: x, Y: -y, Z: z}, {X: x, Y: y, Z: z}, {X: -x, Y: y, Z: z},
	}
	for i := range v {
		v[i] = v[i].Add(shift)
	}
	return v
}

// boxInertia is the unit-density inertia of an a×b×c box about its centre.
func boxInertia(a, b, c float64) geom.Mat3 {
	m := a * b * c
	return geom.Diag(m*(b*b+c*c)/12, m*(a*a+c*c)/12, m*(a*a+b*b)/12)
}

// parallelAxis moves a unit-density inertia of volume m by d (Steiner).
func parallelAxis(i geom.Mat3, m float64, d geom.Vec3) geom.Mat3 {
	return i.Add(geom.Identity().Scale(d.Norm2()).Sub(geom.Outer(d, d)).Scale(m))
}

func relMatErr(got, want geom.Mat3) float64 {
	scale := 0.0
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			scale = math.Max(scale, math.Abs(want[r][c]))
		}
	}
	return got.MaxAbsDiff(want) / scale
}

// lShape is the L-shaped prism with profile (0,0) (2,0) (2,1) (1,1) (1,3) (0,3)
// extruded over z ∈ [0, h]: non-convex, one concave edge (vertices 3–9).
func lShape(h float64) ([]geom.Vec3, [][3]int32) {
	prof := [][2]float64{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 3}, {0, 3}}
	var v []geom.Vec3
	for _, z := range []float64{0, h} {
		for _, p := range prof {
			v = append(v, geom.Vec3{X: p[0], Y: p[1], Z: z})
		}
	}
	var t [][3]int32
	for k := int32(1); k < 5; k++ {
		t = append(t, [3]int32{0, k + 1, k}, [3]int32{6, 6 + k, 7 + k})
	}
	for i := int32(0); i < 6; i++ {
		j := (i + 1) % 6
		t = append(t, [3]int32{i, j, j + 6}, [3]int32{i, j + 6, i + 6})
	}
	return v, t
}

// Box volume and inertia against the analytic m(b²+c²)/12, to 1e-12 relative,
// for a box centred off the origin (the centroid shift is tested too).
func TestBoxMassProps(t *testing.T) {
	a, b, c := 1.3, 0.7, 2.1
	shift := geom.Vec3{X: 10.5, Y: -3.25, Z: 7}
	p, err := NewPolyhedron("box", boxVerts(a, b, c, shift), boxTris())
	if err != nil {
		t.Fatal(err)
	}
	if e := math.Abs(p.Volume-a*b*c) / (a * b * c); e > 1e-12 {
		t.Errorf("volume %v want %v (rel %g)", p.Volume, a*b*c, e)
	}
	if d := p.Offset.Dist(shift); d > 1e-12*shift.Norm() {
		t.Errorf("offset %v want %v", p.Offset, shift)
	}
	if e := relMatErr(p.InertiaUnit, boxInertia(a, b, c)); e > 1e-12 {
		t.Errorf("inertia %v want %v (rel %g)", p.InertiaUnit, boxInertia(a, b, c), e)
	}
	if nc, nf := p.NumEdges(Convex), p.NumEdges(Flat); nc != 12 || nf != 6 || len(p.Edges) != 18 {
		t.Errorf("edges: %d convex, %d flat of %d; want 12, 6 of 18", nc, nf, len(p.Edges))
	}
	for _, e := range p.Edges {
		want := math.Pi / 2
		if e.Kind == Flat {
			want = math.Pi
		}
		if math.Abs(e.Dihedral-want) > 1e-12 {
			t.Errorf("edge %v: dihedral %v want %v", e.V, e.Dihedral, want)
		}
	}
	half := geom.Vec3{X: a / 2, Y: b / 2, Z: c / 2}
	if p.AABBMax.Dist(half) > 1e-12 || p.AABBMin.Dist(half.Neg()) > 1e-12 {
		t.Errorf("AABB %v %v", p.AABBMin, p.AABBMax)
	}
	if math.Abs(p.Radius-half.Norm()) > 1e-12 || math.Abs(p.MinEdge-b) > 1e-12 {
		t.Errorf("radius %v (want %v), min edge %v (want %v)", p.Radius, half.Norm(), p.MinEdge, b)
	}
	q := Box(a, b, c)
	if relMatErr(q.InertiaUnit, boxInertia(a, b, c)) > 1e-12 || q.Offset.Norm() > 1e-15 {
		t.Errorf("Box(): inertia %v offset %v", q.InertiaUnit, q.Offset)
	}
}

// Single tetrahedron (0, e1, e2, e3) shifted away from the origin: the
// covariance formula ∫x xᵀ = V/20(Σvvᵀ + ssᵀ) used in massProperties against
// hand-integrated values ∫x² = 1/60, ∫xy = 1/120 about the corner, to 1e-12.
func TestTetraCovariance(t *testing.T) {
	s := geom.Vec3{X: 5, Y: -3, Z: 2}
	v := []geom.Vec3{s, s.Add(geom.Vec3{X: 1}), s.Add(geom.Vec3{Y: 1}), s.Add(geom.Vec3{Z: 1})}
	p, err := NewPolyhedron("tet", v, [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	vol := 1.0 / 6
	c := geom.Vec3{X: .25, Y: .25, Z: .25}
	var cov geom.Mat3 // about the corner
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			cov[i][j] = 1.0 / 120
		}
		cov[i][i] = 1.0 / 60
	}
	cov = cov.Sub(geom.Outer(c, c).Scale(vol)) // about the centroid
	want := geom.Identity().Scale(cov.Trace()).Sub(cov)
	if math.Abs(p.Volume-vol) > 1e-12*vol || p.Offset.Dist(s.Add(c)) > 1e-12 {
		t.Errorf("volume %v offset %v", p.Volume, p.Offset)
	}
	if e := relMatErr(p.InertiaUnit, want); e > 1e-12 {
		t.Errorf("inertia %v want %v (rel %g)", p.InertiaUnit, want, e)
	}
}

// Non-convex L prism: mass properties against the composition of two boxes
// (parallel-axis theorem) to 1e-12, and exactly one concave edge at 3π/2.
func TestLShape(t *testing.T) {
	h := 0.8
	v, tr := lShape(h)
	p, err := NewPolyhedron("L", v, tr)
	if err != nil {
		t.Fatal(err)
	}
	ca, cb := geom.Vec3{X: 1, Y: 0.5, Z: h / 2}, geom.Vec3{X: 0.5, Y: 2, Z: h / 2}
	m := 2 * h
	cen := ca.Add(cb).Scale(0.5)
	want := parallelAxis(boxInertia(2, 1, h), m, ca.Sub(cen)).Add(parallelAxis(boxInertia(1, 2, h), m, cb.Sub(cen)))
	if math.Abs(p.Volume-2*m) > 1e-12*2*m || p.Offset.Dist(cen) > 1e-12 {
		t.Errorf("volume %v offset %v, want %v %v", p.Volume, p.Offset, 2*m, cen)
	}
	if e := relMatErr(p.InertiaUnit, want); e > 1e-12 {
		t.Errorf("inertia %v want %v (rel %g)", p.InertiaUnit, want, e)
	}
	if p.NumEdges(Concave) != 1 || p.NumEdges(Flat) != 12 || p.NumEdges(Convex) != 17 {
		t.Fatalf("edges: %d concave %d flat %d convex, want 1 12 17", p.NumEdges(Concave), p.NumEdges(Flat), p.NumEdges(Convex))
	}
	for _, e := range p.Edges {
		if e.Kind == Concave && (e.V != [2]int32{3, 9} || math.Abs(e.Dihedral-1.5*math.Pi) > 1e-12) {
			t.Errorf("concave edge %v dihedral %v, want 3–9 at 3π/2", e.V, e.Dihedral)
		}
	}
	checkTopology(t, p)
}

// checkTopology asserts the structural invariants every Polyhedron promises.
func checkTopology(t *testing.T, p *Polyhedron) {
	t.Helper()
	if p.Closed && len(p.Verts)-len(p.Edges)+len(p.Faces) != 2 {
		t.Errorf("%s: Euler characteristic %d", p.Name, len(p.Verts)-len(p.Edges)+len(p.Faces))
	}
	traverses := func(f int32, a, b int32) bool {
		v := p.Faces[f].V
		for k := 0; k < 3; k++ {
			if v[k] == a && v[(k+1)%3] == b {
				return true
			}
		}
		return false
	}
	for i, e := range p.Edges {
		if e.V[0] >= e.V[1] || !traverses(e.F[0], e.V[0], e.V[1]) && e.Kind != Boundary {
			t.Fatalf("%s: edge %d %+v violates V[0]<V[1] or F[0] direction", p.Name, i, e)
		}
		if e.Kind != Boundary && !traverses(e.F[1], e.V[1], e.V[0]) {
			t.Fatalf("%s: edge %d: F[1] does not traverse V[1]→V[0]", p.Name, i)
		}
	}
	for f, fc := range p.Faces {
		for k := 0; k < 3; k++ {
			e := p.Edges[fc.E[k]]
			a, b := fc.V[k], fc.V[(k+1)%3]
			if !(e.V == [2]int32{a, b} || e.V == [2]int32{b, a}) {
				t.Fatalf("%s: face %d E[%d] is %v, want %d–%d", p.Name, f, k, e.V, a, b)
			}
		}
		if math.Abs(fc.N.Norm()-1) > 1e-12 || fc.Area <= 0 {
			t.Fatalf("%s: face %d normal %v area %v", p.Name, f, fc.N, fc.Area)
		}
	}
	for v := range p.Verts {
		fs, es := p.VertFaces[v], p.VertEdges[v]
		closedFan := len(es) == len(fs)
		if !closedFan && len(es) != len(fs)+1 {
			t.Fatalf("%s: vertex %d: %d faces, %d edges", p.Name, v, len(fs), len(es))
		}
		for i, f := range fs {
			// Counter-clockwise about the outward normal: fs[i+1] lies across
			// the edge by which fs[i] enters v.
			if i+1 == len(fs) && !closedFan {
				break
			}
			g := fs[(i+1)%len(fs)]
			fc := p.Faces[f]
			k := 0
			for fc.V[k] != int32(v) {
				k++
			}
			in := fc.E[(k+2)%3]
			if p.otherFace(in, f) != g {
				t.Fatalf("%s: vertex %d: fan faces %d, %d not adjacent counter-clockwise", p.Name, v, f, g)
			}
		}
		for _, e := range es {
			if p.Edges[e].V[0] != int32(v) && p.Edges[e].V[1] != int32(v) {
				t.Fatalf("%s: vertex %d lists edge %v", p.Name, v, p.Edges[e].V)
			}
		}
	}
}

func randQuat(r *rand.Rand) geom.Quat {
	return geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
}

// Rotating the mesh rotates the inertia tensor: I' = R I Rᵀ to 1e-9 relative,
// volume unchanged to 1e-12, centroid stays at the origin (1e-12·radius).
// Asymmetric bodies only (the default tetrapod's inertia is isotropic).
func TestInertiaRotationInvariance(t *testing.T) {
	v, tr := lShape(0.8)
	l, err := NewPolyhedron("L", v, tr)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := Tetrapod(TetrapodParams{LegLength: 0.7, BaseRadius: 0.2, TipRadius: 0.06, Sides: 5})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(7))
	for _, p := range []*Polyhedron{l, tp} {
		if ev, _ := p.InertiaUnit.SymEigen(); ev.Z-ev.X < 1e-3*ev.Z {
			t.Fatalf("%s: inertia is nearly isotropic, the test would be vacuous", p.Name)
		}
		for i := 0; i < 20; i++ {
			q := randQuat(r)
			p2, err := p.Transformed(q)
			if err != nil {
				t.Fatal(err)
			}
			R := q.Mat()
			if e := relMatErr(p2.InertiaUnit, R.Mul(p.InertiaUnit).Mul(R.T())); e > 1e-9 {
				t.Errorf("%s: I' ≠ R I Rᵀ by %g", p.Name, e)
			}
			if math.Abs(p2.Volume-p.Volume) > 1e-12*p.Volume || p2.Offset.Norm() > 1e-12*p.Radius {
				t.Errorf("%s: volume %v→%v, offset %v", p.Name, p.Volume, p2.Volume, p2.Offset)
			}
			if p2.NumEdges(Concave) != p.NumEdges(Concave) || p2.NumEdges(Flat) != p.NumEdges(Flat) {
				t.Errorf("%s: edge kinds changed under rotation", p.Name)
			}
		}
	}
}

// Scaling by s multiplies volume by s³ and inertia by s⁵ (1e-12 relative).
func TestScaled(t *testing.T) {
	v, tr := lShape(0.8)
	p, err := NewPolyhedron("L", v, tr)
	if err != nil {
		t.Fatal(err)
	}
	s := 0.37
	q, err := p.Scaled(s)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(q.Volume-p.Volume*s*s*s) > 1e-12*q.Volume || relMatErr(q.InertiaUnit, p.InertiaUnit.Scale(math.Pow(s, 5))) > 1e-12 {
		t.Errorf("scaled volume %v inertia %v", q.Volume, q.InertiaUnit)
	}
	if _, err := p.Scaled(-1); err == nil {
		t.Error("negative scale accepted")
	}
}

func flip(t [3]int32) [3]int32 { return [3]int32{t[0], t[2], t[1]} }

// Each defect yields its own error kind, with the input's indices in the
// message. An unused NaN vertex 0 is prepended to every mesh, so the box's
// vertices are 1…8 and renumbering would show in the messages.
func TestValidationErrors(t *testing.T) {
	nan := geom.Vec3{X: math.NaN()}
	bv := append([]geom.Vec3{nan}, boxVerts(1, 1, 1, geom.Vec3{})...)
	bt := boxTris()
	for i := range bt {
		for k := range bt[i] {
			bt[i][k]++
		}
	}
	cp := func() [][3]int32 { return append([][3]int32(nil), bt...) }

	open := cp()[1:] // drop face {0,2,1}+1
	fin := append(cp(), [3]int32{1, 2, 9})
	finV := append(append([]geom.Vec3(nil), bv...), geom.Vec3{X: 2, Y: 2, Z: 2})
	flipped := cp()
	flipped[5] = flip(flipped[5])
	inverted := cp()
	for i := range inverted {
		inverted[i] = flip(inverted[i])
	}
	zeroArea := append([]geom.Vec3(nil), bv...)
	zeroArea[3] = bv[1].Add(bv[2]).Scale(0.5) // face {1,3,2}: collinear
	repeated := cp()
	repeated[0] = [3]int32{1, 1, 2}
	badIdx := cp()
	badIdx[4] = [3]int32{1, 2, 42}
	nanV := append([]geom.Vec3(nil), bv...)
	nanV[7] = geom.Vec3{Y: math.Inf(1)}
	// Four coplanar points with tetrahedron connectivity: closed, zero volume.
	flat := []geom.Vec3{{}, {X: 1}, {X: 1, Y: 1}, {Y: 1}}
	flatT := [][3]int32{{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}}
	// Two tetrahedra touching at vertex 0: edges manifold, vertex not.
	bow := []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}, {X: -1}, {Y: -1}, {Z: -1}}
	bowT := [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}, {0, 4, 5}, {0, 6, 4}, {0, 5, 6}, {4, 6, 5}}

	cases := []struct {
		name  string
		v     []geom.Vec3
		t     [][3]int32
		kind  error
		inMsg string
	}{
		{"open", bv, open, ErrOpen, `mesh "open": edge 1–3: open (used by 1 face: 0)`},
		{"fin", finV, fin, ErrNonManifold, `edge 1–2: non-manifold (used by 3 faces: `},
		{"flipped", bv, flipped, ErrOrientation, "inconsistent orientation (faces "},
		{"inverted", bv, inverted, ErrInverted, "faces point inward"},
		{"zero area", zeroArea, cp(), ErrDegenerate, `mesh "zero area": face 0 (vertices 1,3,2): zero area`},
		{"repeated", bv, repeated, ErrDegenerate, "face 0 (vertices 1,1,2): repeats a vertex"},
		{"too few", bv, cp()[:3], ErrDegenerate, "at least 4 faces"},
		{"index", bv, badIdx, ErrIndex, "face 4 (vertices 1,2,42): vertex index 42 out of range"},
		{"nan", nanV, cp(), ErrNonFinite, "vertex 7: non-finite coordinate"},
		{"flat", flat, flatT, ErrZeroVolume, "zero volume"},
		{"bowtie", bow, bowT, ErrNonManifold, "vertex 0: non-manifold"},
	}
	kinds := []error{ErrOpen, ErrNonManifold, ErrOrientation, ErrDegenerate, ErrZeroVolume, ErrInverted, ErrIndex, ErrNonFinite}
	for _, c := range cases {
		_, err := NewPolyhedron(c.name, c.v, c.t)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		var me *MeshError
		if !errors.As(err, &me) || !errors.Is(err, c.kind) {
			t.Errorf("%s: got %v, want kind %v", c.name, err, c.kind)
		}
		for _, k := range kinds {
			if k != c.kind && errors.Is(err, k) {
				t.Errorf("%s: %v also matches %v", c.name, err, k)
			}
		}
		if !strings.Contains(err.Error(), c.inMsg) {
			t.Errorf("%s: message %q lacks %q", c.name, err, c.inMsg)
		}
	}
	// The same open box is a valid surface.
	s, err := NewSurface("open", bv, open)
	if err != nil {
		t.Fatal(err)
	}
	if s.NumEdges(Boundary) != 3 || s.Closed || s.Volume != 0 || len(s.Verts) != 8 {
		t.Errorf("surface: %d boundary edges, closed %v, volume %v, %d verts", s.NumEdges(Boundary), s.Closed, s.Volume, len(s.Verts))
	}
}

// Walls: an open surface keeps its coordinates, has Boundary edges with one
// face and unit normals from the winding; orientation defects still fail.
func TestSurface(t *testing.T) {
	v := []geom.Vec3{{X: -5, Y: -5}, {X: 5, Y: -5}, {X: 5, Y: 5}, {X: -5, Y: 5}}
	tr := [][3]int32{{0, 1, 2}, {0, 2, 3}}
	s, err := NewSurface("floor", v, tr)
	if err != nil {
		t.Fatal(err)
	}
	if s.NumEdges(Boundary) != 4 || s.NumEdges(Flat) != 1 || s.Verts[0] != v[0] || s.Offset != (geom.Vec3{}) {
		t.Errorf("floor: %d boundary %d flat, v0 %v", s.NumEdges(Boundary), s.NumEdges(Flat), s.Verts[0])
	}
	for _, f := range s.Faces {
		if f.N.Dist(geom.Vec3{Z: 1}) > 1e-15 || math.Abs(f.Area-50) > 1e-12 {
			t.Errorf("floor face normal %v area %v", f.N, f.Area)
		}
	}
	for _, e := range s.Edges {
		if e.Kind == Boundary && e.F[1] != -1 {
			t.Errorf("boundary edge %v has F %v", e.V, e.F)
		}
	}
	checkTopology(t, s)
	if s.PointInside(geom.Vec3{}) {
		t.Error("a surface has no inside")
	}
	if _, err := NewSurface("bad", v, [][3]int32{{0, 1, 2}, {0, 3, 2}}); !errors.Is(err, ErrOrientation) {
		t.Errorf("flipped wall triangle: %v", err)
	}
	if _, err := NewPolyhedron("floor", v, tr); err == nil {
		t.Error("open floor accepted as a solid")
	}
}

// Winding-number inside test on the box: exact answers away from the surface.
func TestPointInsideBox(t *testing.T) {
	p := Box(1, 2, 3)
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		x := geom.Vec3{X: 1.5 * (2*r.Float64() - 1), Y: 2.5 * (2*r.Float64() - 1), Z: 3.5 * (2*r.Float64() - 1)}
		m := math.Min(math.Min(math.Abs(math.Abs(x.X)-0.5), math.Abs(math.Abs(x.Y)-1)), math.Abs(math.Abs(x.Z)-1.5))
		if m < 1e-9 {
			continue
		}
		want := math.Abs(x.X) < 0.5 && math.Abs(x.Y) < 1 && math.Abs(x.Z) < 1.5
		if got := p.PointInside(x); got != want {
			t.Fatalf("PointInside(%v) = %v, winding %v", x, got, p.WindingNumber(x))
		}
	}
	if w := p.WindingNumber(geom.Vec3{X: 0.1, Y: 0.2}); math.Abs(w-1) > 1e-12 {
		t.Errorf("winding number inside %v, want 1", w)
	}
	if i := p.SupportVertex(geom.Vec3{X: 1, Y: 1, Z: 1}); p.Verts[i] != (geom.Vec3{X: 0.5, Y: 1, Z: 1.5}) {
		t.Errorf("support vertex %v", p.Verts[i])
	}
}

// twoBoxes returns one mesh made of two unit cubes, the second shifted by
// d: closed, manifold, consistently oriented.
func twoBoxes(d geom.Vec3) ([]geom.Vec3, [][3]int32) {
	b := Box(1, 1, 1)
	var vs []geom.Vec3
	for _, s := range []geom.Vec3{{}, d} {
		for _, v := range b.Verts {
			vs = append(vs, v.Add(s))
		}
	}
	var tris [][3]int32
	for k := int32(0); k < 2; k++ {
		for _, t := range b.Tris() {
			tris = append(tris, [3]int32{t[0] + 8*k, t[1] + 8*k, t[2] + 8*k})
		}
	}
	return vs, tris
}

// A closed mesh whose triangles cross (two overlapping cubes in one mesh,
// which would count the overlap twice: volume 2 instead of 2 − 0.5·0.7·0.8)
// is refused with ErrSelfIntersect; the same cubes apart build with volume 2.
func TestSelfIntersectingMeshRefused(t *testing.T) {
	vs, tris := twoBoxes(geom.V(0.5, 0.3, 0.2))
	_, err := NewPolyhedron("overlap", vs, tris)
	if !errors.Is(err, ErrSelfIntersect) {
		t.Fatalf("got %v, want ErrSelfIntersect", err)
	}
	vs, tris = twoBoxes(geom.V(2, 0.3, 0.2))
	p, err := NewPolyhedron("apart", vs, tris)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.Volume-2) > 1e-12 {
		t.Fatalf("volume %g, want 2", p.Volume)
	}
	// Faces touching within rounding do not cross: no edge passes through a face.
	vs, tris = twoBoxes(geom.V(1+1e-9, 0.3, 0.2))
	if _, err := NewPolyhedron("touching", vs, tris); err != nil {
		t.Fatalf("cubes 1e-9 apart: %v", err)
	}
}
