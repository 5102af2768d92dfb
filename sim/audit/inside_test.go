package audit

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/scene"
	"grainlab/sim/state"
)

// Tests of session 10's start-up audit: the exact ray-crossing point-in-mesh
// test (rayWinding) and the triangles' prepared planes (plane.side) must give
// the verdicts, depths and points of the audit as it was (oracleCheck).

// tetrapodShape returns the body-frame mesh of box-of-tetrapods' tetrapod
// (28 vertices, 52 triangles, about 1 m across, non-convex).
func tetrapodShape(tb testing.TB) ([]geom.Vec3, [][3]int32) {
	tb.Helper()
	s, err := scene.LoadBuiltin("box-of-tetrapods", "generators.fill.count=1")
	if err != nil {
		tb.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range w.Bodies() {
		if b.Kind == body.Polyhedral && b.Wall < 0 {
			return b.Poly().Verts, b.Poly().Tris()
		}
	}
	tb.Fatal("no tetrapod in box-of-tetrapods")
	return nil, nil
}

// posed returns the mesh (verts, tris) scaled by s, rotated by q and moved to c.
func posed(name string, verts []geom.Vec3, tris [][3]int32, c geom.Vec3, q geom.Quat, s float64) Solid {
	out := Solid{Name: name, Verts: make([]geom.Vec3, len(verts)), Tris: tris}
	for i, v := range verts {
		out.Verts[i] = c.Add(q.Rotate(v.Scale(s)))
	}
	return out
}

// packedCollapse returns the meshes of the shipped 300-tetrapod packed state
// (the collapse's start: the start audit's main production input).
func packedCollapse(tb testing.TB) ([]Solid, []Surface) {
	tb.Helper()
	s, err := scene.LoadBuiltin("box-of-tetrapods")
	if err != nil {
		tb.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := state.Read("builtin:box-of-tetrapods-300-packed")
	if err != nil {
		tb.Fatal(err)
	}
	if err := state.Apply(w, f, "packed"); err != nil {
		tb.Fatal(err)
	}
	return WorldMeshes(w)
}

// sameAsOracle fails unless Check (one and two workers) returns exactly
// oracleCheck's violations; it returns them.
func sameAsOracle(t *testing.T, what string, solids []Solid, walls []Surface, tol float64) []Violation {
	t.Helper()
	want := oracleCheck(solids, walls, tol)
	for _, nw := range []int{1, 2} {
		got := CheckWorkers(solids, walls, tol, nw)
		if len(got) != len(want) {
			t.Fatalf("%s, tol %g, %d workers: %d violations %+v, oracle %d %+v", what, tol, nw, len(got), got, len(want), want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s, tol %g, %d workers: violation %d is %+v, oracle's %+v", what, tol, nw, i, got[i], want[i])
			}
		}
	}
	return want
}

// maxInnerDepth returns the largest distance from a vertex of s strictly
// inside the axis-aligned box [lo, hi] to the box's surface (0 if none).
func maxInnerDepth(s Solid, lo, hi geom.Vec3) float64 {
	d := 0.0
	for _, v := range s.Verts {
		in := min(v.X-lo.X, hi.X-v.X, v.Y-lo.Y, hi.Y-v.Y, v.Z-lo.Z, hi.Z-v.Z)
		d = max(d, in)
	}
	return d
}

// plane.side is orient3d's sign exactly: random points, points on and
// within a few ulps of the plane (lattice and rotated triangles), and the
// triangle's own vertices.
func TestPlaneSideExact(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	n, near := 0, 0
	for i := range 4000 {
		var tri [3]geom.Vec3
		for k := range 3 {
			if i%2 == 0 { // small integer lattice: many exact zeros
				tri[k] = geom.V(float64(rng.Intn(5)), float64(rng.Intn(5)), float64(rng.Intn(5)))
			} else {
				tri[k] = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(math.Pow(10, float64(rng.Intn(7)-3)))
			}
		}
		pl := newPlane(&tri)
		for range 8 {
			// a point of the plane (affine combination), nudged by a few ulps or not
			u, v := rng.NormFloat64(), rng.NormFloat64()
			if i%2 == 0 {
				u, v = float64(rng.Intn(5)-2), float64(rng.Intn(5)-2)
			}
			p := tri[0].AddScaled(u, tri[1].Sub(tri[0])).AddScaled(v, tri[2].Sub(tri[0]))
			switch rng.Intn(3) {
			case 1:
				p.X = math.Nextafter(p.X, math.Inf(1))
			case 2:
				p = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			}
			got, want := pl.side(&tri, p), orient3d(tri[0], tri[1], tri[2], p)
			if got != want {
				t.Fatalf("triangle %v, point %v: side %d, orient3d %d", tri, p, got, want)
			}
			n++
			if want == 0 {
				near++
			}
		}
		for k := range 3 {
			if s := pl.side(&tri, tri[k]); s != 0 {
				t.Fatalf("triangle %v: its vertex %d on side %d", tri, k, s)
			}
		}
	}
	t.Logf("%d points, %d exactly on their plane", n, near)
	if near < 1000 {
		t.Fatalf("only %d of %d points exactly on their plane", near, n)
	}
}

// closedChain accepts closed meshes (a cube, a tetrapod, two cubes in one
// list) and refuses a missing triangle, a flipped one, a doubled one.
func TestClosedChain(t *testing.T) {
	cube := unitCube("c", geom.V(0, 0, 0))
	_, tp := tetrapodShape(t)
	two := append(append([][3]int32(nil), cube.Tris...), cube.Tris...)
	for i := len(cube.Tris); i < len(two); i++ {
		for k := range 3 {
			two[i][k] += 8
		}
	}
	for name, tris := range map[string][][3]int32{"cube": cube.Tris, "tetrapod": tp, "two cubes": two} {
		if !closedChain(tris) {
			t.Errorf("%s: not closed", name)
		}
	}
	flipped := append([][3]int32(nil), cube.Tris...)
	flipped[3] = [3]int32{flipped[3][0], flipped[3][2], flipped[3][1]}
	doubled := append(append([][3]int32(nil), cube.Tris...), cube.Tris[5])
	for name, tris := range map[string][][3]int32{"missing": cube.Tris[1:], "flipped": flipped, "doubled": doubled} {
		if closedChain(tris) {
			t.Errorf("%s: closed", name)
		}
	}
	var cc closedCache
	if !cc.get(cube.Tris) || cc.get(cube.Tris[1:]) || !cc.get(append([][3]int32(nil), cube.Tris...)) || len(cc.tris) != 2 {
		t.Fatalf("cache: %d lists", len(cc.tris))
	}
}

// rayWinding is the exact winding number where the ray is clean (1 inside
// a cube or tetrapod, 0 outside, 2 inside two overlapping copies in one
// mesh), and declines (ok false) when the ray runs along an edge, through
// a vertex or starts on a face.
func TestRayWinding(t *testing.T) {
	cube := unitCube("c", geom.V(0, 0, 0))
	m := prepareSolid(cube)
	for _, c := range []struct {
		p  geom.Vec3
		w  int
		ok bool
	}{
		{geom.V(0.3, 0.4, 0.6), 1, true},
		{geom.V(-0.3, 0.4, 0.6), 0, true},
		{geom.V(1.3, 0.4, 0.6), 0, true},
		{geom.V(0.3, 1.4, 0.6), 0, true},
		{geom.V(0.3, 0.5, 0.5), 0, false}, // along the +x face's diagonal
		{geom.V(0.3, 0, 0.6), 0, false},   // along the y = 0 face
		{geom.V(0.3, 1, 1), 0, false},     // along an edge
		{geom.V(1, 0.4, 0.6), 0, false},   // on a face
		{geom.V(-2, 0.2, 0.1), 0, true},   // through both x faces: −1 + 1
	} {
		w, ok := rayWinding(c.p, &m, all(&m))
		if ok != c.ok || (ok && w != c.w) {
			t.Errorf("%v: winding %d ok %v, want %d %v", c.p, w, ok, c.w, c.ok)
		}
	}
	// Two overlapping cubes in one closed mesh: 2 in the common part.
	two := unitCube("2", geom.V(0, 0, 0))
	other := unitCube("o", geom.V(0.5, 0.31, 0.27))
	for _, tr := range other.Tris {
		two.Tris = append(two.Tris, [3]int32{tr[0] + 8, tr[1] + 8, tr[2] + 8})
	}
	two.Verts = append(two.Verts, other.Verts...)
	m2 := prepareSolid(two)
	if w, ok := rayWinding(geom.V(0.7, 0.63, 0.61), &m2, all(&m2)); !ok || w != 2 {
		t.Errorf("overlap: %d %v", w, ok)
	}
	// A tetrapod: the exact count agrees with the generalised winding number
	// at random points of its box (and around it) off its surface.
	v, tr := tetrapodShape(t)
	tp := prepareSolid(posed("tp", v, tr, geom.V(0.1, -0.2, 0.3), geom.QAxisAngle(geom.V(1, 2, 3), 0.7), 1))
	rng := rand.New(rand.NewSource(5))
	in, declined := 0, 0
	size := tp.box.hi.Sub(tp.box.lo)
	for range 20000 {
		p := tp.box.lo.Add(geom.V(size.X*(1.2*rng.Float64()-0.1), size.Y*(1.2*rng.Float64()-0.1), size.Z*(1.2*rng.Float64()-0.1)))
		w, ok := rayWinding(p, &tp, all(&tp))
		if !ok {
			declined++
			continue
		}
		g := winding(p, tp.tris)
		if math.Abs(g-float64(w)) > 1e-9 {
			t.Fatalf("%v: ray %d, generalised %g", p, w, g)
		}
		in += w
	}
	t.Logf("20000 points: %d inside, %d rays declined", in, declined)
	if in < 500 || declined > 0 {
		t.Fatalf("%d inside, %d declined of 20000", in, declined)
	}
}

// all returns the indices of m's triangles.
func all(m *mesh) []int32 {
	ts := make([]int32, len(m.tris))
	for i := range ts {
		ts[i] = int32(i)
	}
	return ts
}

// prepareSolid returns s prepared as CheckWorkers prepares a solid.
func prepareSolid(s Solid) mesh {
	m := prepare(s.Verts, s.Tris)
	m.planes = planesOf(m.tris)
	m.order = byLoX(m.boxes)
	m.closed = closedChain(s.Tris)
	return m
}

// Points within 1e-13 … 1e-6 of the tetrapod's size from its faces, edges
// and vertices, on both sides: wherever the point is farther from the
// surface than containment's on-surface distance (1e-12 of the size),
// insideMesh (the exact ray count, or the winding number where the ray
// declines) gives the float generalised winding number's verdict.
func TestInsideMeshNearSurface(t *testing.T) {
	v, tr := tetrapodShape(t)
	m := prepareSolid(posed("tp", v, tr, geom.V(0.4, 0.1, -0.2), geom.QAxisAngle(geom.V(-1, 2, 1), 2.1), 1))
	size := m.box.hi.Sub(m.box.lo)
	onSurface := 1e-12 * max(size.X, size.Y, size.Z)
	rng := rand.New(rand.NewSource(11))
	compared, ins := 0, 0
	for range 30000 {
		tri := &m.tris[rng.Intn(len(m.tris))]
		var u, w float64
		switch rng.Intn(3) {
		case 0: // inside the face
			u, w = rng.Float64(), rng.Float64()
			if u+w > 1 {
				u, w = 1-u, 1-w
			}
		case 1: // on an edge
			u = rng.Float64()
		default: // a vertex
		}
		p := tri[0].AddScaled(u, tri[1].Sub(tri[0])).AddScaled(w, tri[2].Sub(tri[0]))
		dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		p = p.AddScaled(math.Pow(10, -13+7*rng.Float64())*max(size.X, size.Y, size.Z), dir)
		if d := distance(p, m.tris); !(d > onSurface) {
			continue
		}
		got, want := insideMesh(p, &m, all(&m)), math.Abs(winding(p, m.tris)) > 0.5
		if got != want {
			t.Fatalf("%v: insideMesh %v, winding %v", p, got, want)
		}
		compared++
		if got {
			ins++
		}
	}
	t.Logf("%d points compared, %d inside", compared, ins)
	if compared < 20000 || ins < 5000 || compared-ins < 5000 {
		t.Fatalf("%d compared, %d inside", compared, ins)
	}
}

// A tetrapod nested entirely inside a cube (no triangle crosses): one
// vertex-inside violation, its depth the deepest vertex's distance to the
// cube's faces; the same with a cube nested inside an arm of a tetrapod.
func TestNestedTetrapod(t *testing.T) {
	v, tr := tetrapodShape(t)
	big := box("big", geom.V(0, 0, 0), geom.V(1, 1, 1), geom.QIdent())
	tp := posed("tp", v, tr, geom.V(0.05, -0.03, 0.02), geom.QAxisAngle(geom.V(1, 1, 0), 0.3), 0.8)
	got := sameAsOracle(t, "tetrapod in cube", []Solid{big, tp}, nil, 0)
	want := maxInnerDepth(tp, geom.V(-1, -1, -1), geom.V(1, 1, 1))
	if len(got) != 1 || got[0].Kind != KindVertexInside || math.Abs(got[0].Depth-want) > 1e-12 {
		t.Fatalf("%+v, want one vertex-inside of depth %g", got, want)
	}
	// A small cube in an arm's tip region: find the tetrapod vertex farthest
	// from the centre and put the cube on the segment to it, well inside.
	tp = posed("tp", v, tr, geom.V(0, 0, 0), geom.QIdent(), 1)
	tip := tp.Verts[0]
	for _, p := range tp.Verts {
		if p.Norm() > tip.Norm() {
			tip = p
		}
	}
	c := tip.Scale(0.5)
	small := box("small", c, geom.V(0.02, 0.02, 0.02), geom.QAxisAngle(geom.V(0, 1, 1), 0.2))
	got = sameAsOracle(t, "cube in an arm", []Solid{small, tp}, nil, 0)
	if len(got) != 1 || got[0].Kind != KindVertexInside || got[0].Depth < 0.02 {
		t.Fatalf("cube in an arm: %+v", got)
	}
}

// A solid inside another touching its surface from inside: a cube on the
// inner side of the big cube's top face (coplanar same-facing faces: a
// triangle violation, and its lower vertices inside at depth 0.5), and a
// tetrahedron with one vertex exactly on the face and the rest inside (no
// crossing: vertex-inside only, at the analytic depth).
func TestInsideTouching(t *testing.T) {
	big := box("big", geom.V(0, 0, 0), geom.V(1, 1, 1), geom.QIdent())
	small := box("small", geom.V(0.25, 0.25, 0.75), geom.V(0.25, 0.25, 0.25), geom.QIdent())
	got := sameAsOracle(t, "cube under the lid", []Solid{big, small}, nil, 0)
	k := kinds(got)
	if len(got) != 2 || k[KindTriangle] != 1 || k[KindVertexInside] != 1 || got[1].Depth != 0.5 {
		t.Fatalf("cube under the lid: %+v", got)
	}
	tet := Solid{Name: "tet", Verts: []geom.Vec3{{X: 0.1, Y: 0.2, Z: 1}, {X: -0.3, Y: 0.1, Z: 0.4}, {X: 0.4, Y: -0.3, Z: 0.5}, {X: 0.2, Y: 0.5, Z: 0.3}},
		Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}}}
	orientOutward(&tet, geom.V(0.1, 0.125, 0.55))
	got = sameAsOracle(t, "tetrahedron's vertex on the lid", []Solid{big, tet}, nil, 0)
	want := maxInnerDepth(tet, geom.V(-1, -1, -1), geom.V(1, 1, 1))
	if len(got) != 1 || got[0].Kind != KindVertexInside || math.Abs(got[0].Depth-want) > 1e-15 {
		t.Fatalf("tetrahedron: %+v, want vertex-inside %g", got, want)
	}
}

// Touching from outside — a vertex, an edge or a face exactly on the other
// solid's face, tetrapods resting on a cube's face by a vertex — is no
// violation.
func TestTouchingOutside(t *testing.T) {
	big := box("big", geom.V(0, 0, 0), geom.V(1, 1, 1), geom.QIdent())
	tet := Solid{Name: "tet", Verts: []geom.Vec3{{X: 0.1, Y: 0.2, Z: 1}, {X: -0.3, Y: 0.1, Z: 1.6}, {X: 0.4, Y: -0.3, Z: 1.5}, {X: 0.2, Y: 0.5, Z: 1.7}},
		Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}}}
	orientOutward(&tet, geom.V(0.1, 0.125, 1.45))
	edge := box("edge", geom.V(0.2, 0.1, 1+math.Sqrt2/4), geom.V(0.25, 0.25, 0.25), geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4))
	face := box("face", geom.V(0.3, -0.6, 1.5), geom.V(0.25, 0.25, 0.5), geom.QIdent())
	for _, s := range []Solid{tet, edge, face} {
		if got := sameAsOracle(t, s.Name, []Solid{big, s}, nil, 0); len(got) != 0 {
			t.Fatalf("%s: %+v", s.Name, got)
		}
	}
	// Tetrapods turned at random, each lowered until its lowest vertex is
	// exactly on the cube's top face (the rest above it).
	v, tr := tetrapodShape(t)
	rng := rand.New(rand.NewSource(13))
	for i := range 50 {
		tp := posed("tp", v, tr, geom.V(0.6*rng.Float64()-0.3, 0.6*rng.Float64()-0.3, 0), randQuat(rng), 0.5)
		low := math.Inf(1)
		for _, p := range tp.Verts {
			low = min(low, p.Z)
		}
		for j := range tp.Verts {
			tp.Verts[j].Z += 1 - low
		}
		for j := range tp.Verts {
			if tp.Verts[j].Z < 1 {
				tp.Verts[j].Z = 1 // the shift's rounding
			}
		}
		if got := sameAsOracle(t, "tetrapod on a vertex", []Solid{big, tp}, nil, 0); len(got) != 0 {
			t.Fatalf("pose %d: %+v", i, got)
		}
	}
}

// tol > 0 with shallow crossings: a tilted cube sunk δ = 1e-4 into another
// is reported (triangle crossing and vertex inside, depths ≈ δ) at tol 0
// and δ/2, not at 2δ — the same as the oracle at each.
func TestShallowCrossingTol(t *testing.T) {
	const delta = 1e-4
	q := geom.QAxisAngle(geom.V(0.3, -0.2, 1), 0.4)
	big := box("big", geom.V(0, 0, 0), geom.V(1, 1, 1), geom.QIdent())
	// a cube tilted by 0.01 rad about x, lowest corner δ below the face z = 1
	tilt := q.Mul(geom.QAxisAngle(geom.V(1, 0, 0), 0.01))
	a := box("a", geom.V(0.2, -0.1, 0), geom.V(0.2, 0.2, 0.2), tilt)
	low := math.Inf(1)
	for _, p := range a.Verts {
		low = min(low, p.Z)
	}
	for j := range a.Verts {
		a.Verts[j].Z += 1 - delta - low
	}
	for _, c := range []struct {
		tol float64
		n   int
	}{{0, 2}, {delta / 2, 2}, {2 * delta, 0}} {
		got := sameAsOracle(t, "shallow", []Solid{big, a}, nil, c.tol)
		if len(got) != c.n {
			t.Fatalf("tol %g: %+v", c.tol, got)
		}
		for _, x := range got {
			if math.Abs(x.Depth-delta) > 1e-3*delta {
				t.Fatalf("tol %g: depth %g, want %g", c.tol, x.Depth, delta)
			}
		}
	}
}

// stepSolid returns an L-shaped closed mesh: the profile (0,0) (2,0) (2,2)
// (1,2) (1,1) (0,1) in x–z extruded over y ∈ [0, 1] — a low part with its
// top face at z = 1 for x < 1, a high part up to z = 2 for x > 1 — so that
// points above the low part are in its box but outside it.
func stepSolid() Solid {
	prof := [][2]float64{{0, 0}, {2, 0}, {2, 2}, {1, 2}, {1, 1}, {0, 1}}
	s := Solid{Name: "step"}
	for _, y := range []float64{0, 1} {
		for _, p := range prof {
			s.Verts = append(s.Verts, geom.V(p[0], y, p[1]))
		}
	}
	add := func(out geom.Vec3, t [3]int32) { // t with its normal along out
		a, b, c := s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]
		if b.Sub(a).Cross(c.Sub(a)).Dot(out) < 0 {
			t[1], t[2] = t[2], t[1]
		}
		s.Tris = append(s.Tris, t)
	}
	for _, f := range [][3]int32{{4, 5, 0}, {4, 0, 1}, {4, 1, 2}, {4, 2, 3}} { // fan from the reflex vertex
		add(geom.V(0, -1, 0), f)
		add(geom.V(0, 1, 0), [3]int32{f[0] + 6, f[1] + 6, f[2] + 6})
	}
	for i := range int32(6) {
		j := (i + 1) % 6
		e := s.Verts[j].Sub(s.Verts[i])
		out := geom.V(e.Z, 0, -e.X) // the profile runs counter-clockwise seen from −y
		add(out, [3]int32{i, j, j + 6})
		add(out, [3]int32{i, j + 6, i + 6})
	}
	return s
}

// A prism crossing the step's low top face (z = 1) with its crossing ring of
// edges lying exactly in the face: every triangle of either is only touching
// the other (each prism triangle has its other vertices on one side of the
// face), yet the prism's lower end is inside the step, 0.25 from its sides,
// while its upper end is in the step's box but outside the step. No triangle
// test finds the penetration; only a per-vertex point-in-mesh test does —
// the counterexample to letting one vertex decide for all the vertices of a
// pair with no crossing.
func TestCrossingAlongEdgesInFace(t *testing.T) {
	step := stepSolid()
	if !closedChain(step.Tris) {
		t.Fatal("step not closed")
	}
	ring := []geom.Vec3{{X: 0.25, Y: 0.25, Z: 1}, {X: 0.75, Y: 0.25, Z: 1}, {X: 0.5, Y: 0.75, Z: 1}}
	pr := Solid{Name: "prism"}
	for _, r := range ring { // ring 0–2, up 3–5, down 6–8
		pr.Verts = append(pr.Verts, r)
	}
	for _, r := range ring {
		pr.Verts = append(pr.Verts, r.Add(geom.V(0, 0, 0.25)))
	}
	for _, r := range ring {
		pr.Verts = append(pr.Verts, r.Sub(geom.V(0, 0, 0.3125)))
	}
	pr.Tris = [][3]int32{{3, 4, 5}, {6, 8, 7}}
	for i := range int32(3) {
		j := (i + 1) % 3
		pr.Tris = append(pr.Tris, [3]int32{i, j, 3 + j}, [3]int32{i, 3 + j, 3 + i}, [3]int32{6 + i, 6 + j, j}, [3]int32{6 + i, j, i})
	}
	orientOutward(&pr, geom.V(0.5, 0.4, 0.95))
	if !closedChain(pr.Tris) {
		t.Fatal("prism not closed")
	}
	ma, mb := prepareSolid(pr), prepareSolid(step)
	for i := range ma.tris {
		for j := range mb.tris {
			if c := classify(&ma.tris[i], &mb.tris[j]); c != triApart {
				t.Fatalf("prism triangle %d and step triangle %d: class %d", i, j, c)
			}
		}
	}
	for _, p := range pr.Verts[3:6] {
		if !mb.box.containsStrict(p) || insideMesh(p, &mb, all(&mb)) {
			t.Fatalf("upper vertex %v should be in the step's box, outside the step", p)
		}
	}
	for _, order := range [][]Solid{{step, pr}, {pr, step}} {
		got := sameAsOracle(t, "prism", order, nil, 0)
		if len(got) != 1 || got[0].Kind != KindVertexInside || got[0].Depth != 0.25 {
			t.Fatalf("%+v, want vertex-inside 0.25 (the lower ring's distance to the step's sides)", got)
		}
	}
}

// Small tetrapods in a big one's box: nested in its concavities (clear of
// it), touching, poking into an arm, or inside an arm — at random, and the
// audit agrees with the oracle on each.
func TestTetrapodInConcavity(t *testing.T) {
	v, tr := tetrapodShape(t)
	big := posed("big", v, tr, geom.V(0, 0, 0), geom.QAxisAngle(geom.V(2, -1, 1), 0.9), 1)
	mb := prepareSolid(big)
	rng := rand.New(rand.NewSource(17))
	clear, hit := 0, 0
	for i := range 600 {
		s := 0.05 + 0.25*rng.Float64()
		c := mb.box.lo.Add(mb.box.hi.Sub(mb.box.lo).Mul(geom.V(rng.Float64(), rng.Float64(), rng.Float64())))
		small := posed("small", v, tr, c, randQuat(rng), s)
		ms := prepareSolid(small)
		if !(ms.box.lo.X > mb.box.lo.X && ms.box.lo.Y > mb.box.lo.Y && ms.box.lo.Z > mb.box.lo.Z &&
			ms.box.hi.X < mb.box.hi.X && ms.box.hi.Y < mb.box.hi.Y && ms.box.hi.Z < mb.box.hi.Z) {
			continue // not nested in the big one's box
		}
		if got := sameAsOracle(t, "nested tetrapods", []Solid{big, small}, nil, 0); len(got) == 0 {
			clear++
		} else {
			hit++
		}
		_ = i
	}
	t.Logf("%d nested poses: %d clear, %d overlapping", clear+hit, clear, hit)
	if clear < 50 || hit < 50 {
		t.Fatalf("%d clear, %d overlapping: too few of one", clear, hit)
	}
}

// Many random poses of tetrapods and cubes, packed tightly (crossings,
// containment, touching and near misses), at tol 0 and 1e-3: Check with
// one and two workers finds exactly the oracle's violations.
func TestCheckSameAsOracleRandom(t *testing.T) {
	v, tr := tetrapodShape(t)
	rng := rand.New(rand.NewSource(19))
	count := map[string]int{}
	for round := range 40 {
		var solids []Solid
		for i := range 30 {
			c := geom.V(2.5*rng.Float64(), 2.5*rng.Float64(), 2.5*rng.Float64())
			if i%3 == 0 {
				h := 0.05 + 0.4*rng.Float64()
				solids = append(solids, box("cube", c, geom.V(h, h*(0.5+rng.Float64()), h), randQuat(rng)))
			} else {
				solids = append(solids, posed("tp", v, tr, c, randQuat(rng), 0.1+0.8*rng.Float64()))
			}
		}
		walls := []Surface{ground(0.3, 10)}
		for _, tol := range []float64{0, 1e-3} {
			for _, x := range sameAsOracle(t, "random", solids, walls, tol) {
				count[x.Kind]++
			}
		}
		_ = round
	}
	t.Logf("violations: %v", count)
	if count[KindTriangle] < 500 || count[KindVertexInside] < 500 || count[KindWall] < 100 {
		t.Fatalf("too few of a kind: %v", count)
	}
}

// The shipped packed state (the collapse's start) is clean, as the oracle says.
func TestPackedCollapseClean(t *testing.T) {
	solids, walls := packedCollapse(t)
	if got := sameAsOracle(t, "packed collapse", solids, walls, 0); len(got) != 0 {
		t.Fatalf("%+v", got)
	}
}

// BenchmarkCheckPackedCollapse audits the collapse's start (300 tetrapods, 5 walls).
func BenchmarkCheckPackedCollapse(b *testing.B) {
	solids, walls := packedCollapse(b)
	b.ResetTimer()
	for range b.N {
		if v := Check(solids, walls, 0); len(v) != 0 {
			b.Fatal(v)
		}
	}
}
