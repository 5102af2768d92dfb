package audit

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// box returns the closed outward mesh of the box centre c, half extents h, rotation q.
func box(name string, c, h geom.Vec3, q geom.Quat) Solid {
	s := Solid{Name: name}
	for i := 0; i < 8; i++ {
		p := geom.V(h.X*sgn(i&1), h.Y*sgn(i&2), h.Z*sgn(i&4))
		s.Verts = append(s.Verts, c.Add(q.Rotate(p)))
	}
	quads := [6][4]int32{{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}}
	for _, f := range quads {
		s.Tris = append(s.Tris, [3]int32{f[0], f[1], f[2]}, [3]int32{f[0], f[2], f[3]})
	}
	orientOutward(&s, c)
	return s
}

func sgn(b int) float64 {
	if b != 0 {
		return 1
	}
	return -1
}

// orientOutward flips triangles whose normal points towards the interior point c.
func orientOutward(s *Solid, c geom.Vec3) {
	for i, t := range s.Tris {
		a, b, d := s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]
		if b.Sub(a).Cross(d.Sub(a)).Dot(a.Sub(c)) < 0 {
			s.Tris[i] = [3]int32{t[0], t[2], t[1]}
		}
	}
}

func unitCube(name string, corner geom.Vec3) Solid {
	h := geom.V(0.5, 0.5, 0.5)
	return box(name, corner.Add(h), h, geom.QIdent())
}

func kinds(v []Violation) map[string]int {
	m := map[string]int{}
	for _, x := range v {
		m[x.Kind]++
	}
	return m
}

func ground(z, half float64) Surface {
	return Surface{Name: "ground",
		Verts: []geom.Vec3{geom.V(-half, -half, z), geom.V(half, -half, z), geom.V(half, half, z), geom.V(-half, half, z)},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}}}
}

// Two unit cubes 1e-6 apart (aligned and in general position): no violation.
func TestSeparatedCubes(t *testing.T) {
	a := unitCube("a", geom.V(0, 0, 0))
	for _, off := range []geom.Vec3{geom.V(1+1e-6, 0, 0), geom.V(1+1e-6, 0.3, -0.2), geom.V(0.1, 0.2, 1+1e-6)} {
		b := unitCube("b", off)
		if v := Check([]Solid{a, b}, nil, 0); len(v) != 0 {
			t.Fatalf("offset %v: %+v", off, v)
		}
	}
	// Rotated: a cube turned 45° about z, its edge 1e-6 from a face of the other.
	q := geom.QAxisAngle(geom.V(0, 0, 1), math.Pi/4)
	b := box("b", geom.V(1+math.Sqrt2/2+1e-6, 0.5, 0.5), geom.V(0.5, 0.5, 0.5), q)
	if v := Check([]Solid{a, b}, nil, 0); len(v) != 0 {
		t.Fatalf("rotated: %+v", v)
	}
}

// Exact contact (shared face, shared edge, vertex on a face) is touching, not penetration.
func TestTouchingCubesPass(t *testing.T) {
	a := unitCube("a", geom.V(0, 0, 0))
	for _, off := range []geom.Vec3{geom.V(1, 0, 0), geom.V(1, 0.25, 0.5), geom.V(1, 1, 0), geom.V(1, 1, 1)} {
		if v := Check([]Solid{a, unitCube("b", off)}, nil, 0); len(v) != 0 {
			t.Fatalf("offset %v: %+v", off, v)
		}
	}
	// A cube standing on its corner exactly on the top face of another.
	q := geom.QFromMat(rotToZ(geom.V(1, 1, 1).Unit()))
	c := box("c", geom.V(0.5, 0.5, 1+math.Sqrt(3)/2), geom.V(0.5, 0.5, 0.5), q)
	low := c.Verts[0]
	for _, p := range c.Verts {
		if p.Z < low.Z {
			low = p
		}
	}
	shift := geom.V(0.5-low.X, 0.5-low.Y, 1-low.Z) // corner exactly at (0.5, 0.5, 1)
	for i := range c.Verts {
		c.Verts[i] = c.Verts[i].Add(shift)
	}
	if v := Check([]Solid{a, c}, nil, 0); len(v) != 0 {
		t.Fatalf("corner on face: %+v", v)
	}
}

// rotToZ returns a rotation matrix taking unit vector u to +z... as rows (any completion).
func rotToZ(u geom.Vec3) geom.Mat3 {
	x := u.AnyPerp()
	y := u.Cross(x)
	return geom.Rows(x, y, u)
}

// Overlap by 1e-4 is a triangle-intersection (aligned: coplanar same-facing
// faces; general position: proper crossings), with depth ≈ 1e-4.
func TestOverlappingCubes(t *testing.T) {
	a := unitCube("a", geom.V(0, 0, 0))
	for _, off := range []geom.Vec3{geom.V(1-1e-4, 0, 0), geom.V(1-1e-4, 0.3, -0.2)} {
		v := Check([]Solid{a, unitCube("b", off)}, nil, 0)
		k := kinds(v)
		if k[KindTriangle] != 1 {
			t.Fatalf("offset %v: %+v", off, v)
		}
		for _, x := range v {
			if x.Kind == KindTriangle && (x.Depth < 0.5e-4 || x.Depth > 1.5e-4 || x.A != 0 || x.B != 1) {
				t.Fatalf("offset %v: bad violation %+v", off, x)
			}
		}
		// tol above the depth lets it pass, below does not.
		if v := Check([]Solid{a, unitCube("b", off)}, nil, 1e-3); len(v) != 0 {
			t.Fatalf("tol 1e-3: %+v", v)
		}
		if v := Check([]Solid{a, unitCube("b", off)}, nil, 1e-5); kinds(v)[KindTriangle] != 1 {
			t.Fatalf("tol 1e-5: %+v", v)
		}
	}
	// Identical coincident cubes share volume although no face crosses another.
	if v := Check([]Solid{a, unitCube("b", geom.V(0, 0, 0))}, nil, 0); kinds(v)[KindTriangle] != 1 {
		t.Fatalf("coincident: %+v", v)
	}
}

// A small cube strictly inside a big one: vertex-inside, no crossing.
func TestContainedCube(t *testing.T) {
	big := box("big", geom.V(0, 0, 0), geom.V(2, 2, 2), geom.QAxisAngle(geom.V(1, 2, 3), 0.4))
	small := box("small", geom.V(0.3, -0.2, 0.1), geom.V(0.3, 0.3, 0.3), geom.QAxisAngle(geom.V(3, -1, 1), 1.1))
	for _, order := range [][]Solid{{big, small}, {small, big}} {
		v := Check(order, nil, 0)
		k := kinds(v)
		if len(v) != 1 || k[KindVertexInside] != 1 || v[0].A != 0 || v[0].B != 1 {
			t.Fatalf("%+v", v)
		}
		if v[0].Depth < 1 {
			t.Fatalf("depth %g", v[0].Depth)
		}
	}
}

// Two tetrahedra crossed edge-through-face with no vertex of either inside the other.
func TestCrossedTetrahedra(t *testing.T) {
	tet := func(name string, p ...geom.Vec3) Solid {
		s := Solid{Name: name, Verts: p, Tris: [][3]int32{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}}
		orientOutward(&s, p[0].Add(p[1]).Add(p[2]).Add(p[3]).Scale(0.25))
		return s
	}
	b := tet("b", geom.V(0, 0, 0), geom.V(2, 0, 0), geom.V(0, 2, 0), geom.V(0, 0, 2))
	// Edge (0.5,0.5,−1)–(0.5,0.5,3) enters b through its base and leaves through x+y+z=2.
	a := tet("a", geom.V(0.5, 0.5, -1), geom.V(0.5, 0.5, 3), geom.V(-0.2, 0.6, 1), geom.V(0.6, -0.2, 1.2))
	v := Check([]Solid{a, b}, nil, 0)
	k := kinds(v)
	if k[KindTriangle] != 1 || k[KindVertexInside] != 0 {
		t.Fatalf("%+v", v)
	}
	// Pulled apart sideways by 3 they are clear.
	for i := range a.Verts {
		a.Verts[i].X -= 3
	}
	if v := Check([]Solid{a, b}, nil, 0); len(v) != 0 {
		t.Fatalf("apart: %+v", v)
	}
}

// A cube partly below a ground plane is a wall-crossing; resting exactly on it or above is fine.
func TestWallCrossing(t *testing.T) {
	g := ground(0, 10)
	below := unitCube("c", geom.V(0, 0, -0.5))
	v := Check([]Solid{below}, []Surface{g}, 0)
	if len(v) != 1 || v[0].Kind != KindWall || v[0].A != 0 || v[0].B != 0 || math.Abs(v[0].Depth-0.5) > 1e-12 {
		t.Fatalf("%+v", v)
	}
	if v := Check([]Solid{below}, []Surface{g}, 0.6); len(v) != 0 {
		t.Fatalf("tol 0.6: %+v", v)
	}
	// Fully under the floor: still a crossing (everything behind the wall is forbidden).
	if v := Check([]Solid{unitCube("c", geom.V(0, 0, -3))}, []Surface{g}, 0); len(v) != 1 {
		t.Fatalf("sunk: %+v", v)
	}
	for _, z := range []float64{0, 1e-6} {
		if v := Check([]Solid{unitCube("c", geom.V(0, 0, z))}, []Surface{g}, 0); len(v) != 0 {
			t.Fatalf("z=%g: %+v", z, v)
		}
	}
	// A rotated cube poking a corner 1e-3 through the floor near the wall's edge,
	// outside the floor's prism except for the crossing triangles.
	q := geom.QFromMat(rotToZ(geom.V(1, 1, 1).Unit()))
	c := box("c", geom.V(0, 0, 0), geom.V(0.5, 0.5, 0.5), q)
	low := c.Verts[0]
	for _, p := range c.Verts {
		if p.Z < low.Z {
			low = p
		}
	}
	for i := range c.Verts {
		c.Verts[i] = c.Verts[i].Add(geom.V(10.0001-low.X, 3-low.Y, -1e-3-low.Z))
	}
	if v := Check([]Solid{c}, []Surface{g}, 0); len(v) != 1 || v[0].Kind != KindWall {
		t.Fatalf("corner at the rim: %+v", v)
	}
}

// Non-finite vertices and bad indices are reported, not silently passed.
func TestInvalidMesh(t *testing.T) {
	a := unitCube("a", geom.V(0, 0, 0))
	b := unitCube("b", geom.V(3, 0, 0))
	b.Verts[2].Y = math.NaN()
	w := ground(0, 1)
	w.Tris[1][2] = 9
	v := Check([]Solid{a, b}, []Surface{w}, 0)
	if len(v) != 2 || v[0] != (Violation{A: 1, B: 1, Kind: KindInvalid}) || v[1] != (Violation{A: -1, B: 0, Kind: KindInvalid}) {
		t.Fatalf("%+v", v)
	}
}

// orient3d and orient2d agree with exact rational evaluation on random and
// on nearly degenerate inputs (points on a plane up to rounding).
func TestPredicatesExact(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	rv := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	exact3 := func(a, b, c, d geom.Vec3) int {
		r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
		sub := func(p, q geom.Vec3) [3]*big.Rat {
			return [3]*big.Rat{new(big.Rat).Sub(r(p.X), r(q.X)), new(big.Rat).Sub(r(p.Y), r(q.Y)), new(big.Rat).Sub(r(p.Z), r(q.Z))}
		}
		u, v, w := sub(b, a), sub(c, a), sub(d, a)
		m := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
		cx := new(big.Rat).Sub(m(u[1], v[2]), m(u[2], v[1]))
		cy := new(big.Rat).Sub(m(u[2], v[0]), m(u[0], v[2]))
		cz := new(big.Rat).Sub(m(u[0], v[1]), m(u[1], v[0]))
		s := new(big.Rat).Add(m(cx, w[0]), m(cy, w[1]))
		return s.Add(s, m(cz, w[2])).Sign()
	}
	for i := 0; i < 3000; i++ {
		a, b, c := rv(), rv(), rv()
		d := rv()
		if i%2 == 0 { // d on the plane (a, b, c) up to rounding
			s, u := rng.Float64()*4-2, rng.Float64()*4-2
			d = a.AddScaled(s, b.Sub(a)).AddScaled(u, c.Sub(a))
		}
		if i%7 == 0 {
			d = b // exactly degenerate
		}
		if got, want := orient3d(a, b, c, d), exact3(a, b, c, d); got != want {
			t.Fatalf("orient3d %d: got %d want %d", i, got, want)
		}
		x0, y0, x1, y1 := a.X, a.Y, b.X, b.Y
		s := rng.Float64()*3 - 1
		x2, y2 := x0+s*(x1-x0), y0+s*(y1-y0)
		want := new(big.Rat).Sub(
			new(big.Rat).Mul(new(big.Rat).Sub(rat(x1), rat(x0)), new(big.Rat).Sub(rat(y2), rat(y0))),
			new(big.Rat).Mul(new(big.Rat).Sub(rat(y1), rat(y0)), new(big.Rat).Sub(rat(x2), rat(x0)))).Sign()
		if got := orient2d(x0, y0, x1, y1, x2, y2); got != want {
			t.Fatalf("orient2d %d: got %d want %d", i, got, want)
		}
	}
	if orient3d(geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0, 0, 1)) != 1 {
		t.Fatal("orient3d sign convention")
	}
}

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// satTri returns the separating-axis overlap of two triangles (≤ 0: apart or touching).
func satTri(a, b *[3]geom.Vec3) float64 {
	d, _ := crossDepthAll(a, b)
	return d
}

// crossDepthAll is the SAT minimum overlap over the 11 axes, negative when separated.
func crossDepthAll(a, b *[3]geom.Vec3) (float64, bool) {
	best := math.Inf(1)
	ea := [3]geom.Vec3{a[1].Sub(a[0]), a[2].Sub(a[1]), a[0].Sub(a[2])}
	eb := [3]geom.Vec3{b[1].Sub(b[0]), b[2].Sub(b[1]), b[0].Sub(b[2])}
	axes := []geom.Vec3{ea[0].Cross(ea[1]), eb[0].Cross(eb[1])}
	for _, e := range ea {
		for _, f := range eb {
			axes = append(axes, e.Cross(f))
		}
	}
	for _, ax := range axes {
		if ax.Norm2() < 1e-20 {
			continue
		}
		ax = ax.Unit()
		amin, amax := span(a, ax)
		bmin, bmax := span(b, ax)
		best = min(best, amax-bmin, bmax-amin)
	}
	return best, true
}

// Triangle classification agrees with a separating-axis oracle on random
// pairs (outside a 1e-9 band), and proper crossings are symmetric.
func TestClassifyVsSAT(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	rv := func(s float64) geom.Vec3 {
		return geom.V(s*rng.NormFloat64(), s*rng.NormFloat64(), s*rng.NormFloat64())
	}
	checked := 0
	for i := 0; i < 20000; i++ {
		var a, b [3]geom.Vec3
		for k := range 3 {
			a[k] = rv(1)
			b[k] = rv(1).Add(geom.V(0.5, 0, 0))
		}
		o := satTri(&a, &b)
		if math.Abs(o) < 1e-9 {
			continue
		}
		checked++
		got := classify(&a, &b) == triCrossing
		if got != (o > 0) {
			t.Fatalf("pair %d: classify %v, SAT overlap %g", i, got, o)
		}
		if sym := classify(&b, &a) == triCrossing; sym != got {
			t.Fatalf("pair %d: asymmetric", i)
		}
	}
	if checked < 15000 {
		t.Fatalf("only %d pairs checked", checked)
	}
}

// Exact degenerate contacts between triangles are classified as touching.
func TestClassifyTouching(t *testing.T) {
	tri := func(p ...geom.Vec3) [3]geom.Vec3 { return [3]geom.Vec3{p[0], p[1], p[2]} }
	base := tri(geom.V(0, 0, 0), geom.V(2, 0, 0), geom.V(0, 2, 0))
	cases := map[string][3]geom.Vec3{
		"vertex on face":   tri(geom.V(0.5, 0.5, 0), geom.V(1, 1, 1), geom.V(0, 1, 1)),
		"edge on face":     tri(geom.V(0.2, 0.2, 0), geom.V(1, 0.2, 0), geom.V(0.5, 0.5, 1)),
		"edge touch edge":  tri(geom.V(1, 1, 0), geom.V(2, 2, 1), geom.V(2, 2, -1)),
		"opposite facing":  tri(geom.V(0, 0, 0), geom.V(0, 2, 0), geom.V(2, 0, 0)),
		"coplanar apart":   tri(geom.V(3, 3, 0), geom.V(4, 3, 0), geom.V(3, 4, 0)),
		"coplanar sharing": tri(geom.V(2, 0, 0), geom.V(2, 2, 0), geom.V(0, 2, 0)),
	}
	for name, c := range cases {
		if k := classify(&base, &c); k != triApart {
			t.Errorf("%s: class %d", name, k)
		}
	}
	same := tri(geom.V(0.5, 0.5, 0), geom.V(3, 0.5, 0), geom.V(0.5, 3, 0))
	if classify(&base, &same) != triCoplanar {
		t.Error("coplanar same-facing overlap not detected")
	}
	through := tri(geom.V(0.5, 0.5, -1), geom.V(0.5, 0.5, 1), geom.V(3, 3, 0.1))
	if classify(&base, &through) != triCrossing {
		t.Error("crossing not detected")
	}
}

// satBoxes returns the separating-axis overlap of two oriented boxes over the
// 15 axes: > 0 is the penetration depth, < 0 means separated.
func satBoxes(ca, ha geom.Vec3, ra geom.Mat3, cb, hb geom.Vec3, rb geom.Mat3) float64 {
	axA := [3]geom.Vec3{ra.Col(0), ra.Col(1), ra.Col(2)}
	axB := [3]geom.Vec3{rb.Col(0), rb.Col(1), rb.Col(2)}
	haA := [3]float64{ha.X, ha.Y, ha.Z}
	haB := [3]float64{hb.X, hb.Y, hb.Z}
	d := cb.Sub(ca)
	best := math.Inf(1)
	test := func(l geom.Vec3) {
		n := l.Norm()
		if n < 1e-9 {
			return
		}
		l = l.Scale(1 / n)
		r := 0.0
		for k := range 3 {
			r += haA[k]*math.Abs(axA[k].Dot(l)) + haB[k]*math.Abs(axB[k].Dot(l))
		}
		best = min(best, r-math.Abs(d.Dot(l)))
	}
	for k := range 3 {
		test(axA[k])
		test(axB[k])
	}
	for i := range 3 {
		for j := range 3 {
			test(axA[i].Cross(axB[j]))
		}
	}
	return best
}

func randQuat(rng *rand.Rand) geom.Quat {
	return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
}

// Oracle test: over ≥ 2000 random pairs of rotated boxes (many within 1e-8..1e-1
// of contact, some contained), Check reports a violation iff the exact 15-axis
// SAT says the boxes overlap, excluding a band of 1e-9 around touching.
func TestRandomBoxesVsSAT(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	checked, overl := 0, 0
	for i := 0; checked < 2400; i++ {
		ha := geom.V(0.2+0.8*rng.Float64(), 0.2+0.8*rng.Float64(), 0.2+0.8*rng.Float64())
		hb := geom.V(0.2+0.8*rng.Float64(), 0.2+0.8*rng.Float64(), 0.2+0.8*rng.Float64())
		qa, qb := randQuat(rng), randQuat(rng)
		ca := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		u := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		sat := func(t float64) float64 { return satBoxes(ca, ha, qa.Mat(), ca.AddScaled(t, u), hb, qb.Mat()) }
		// Contact distance along u by bisection.
		lo, hi := 0.0, 4.0
		for k := 0; k < 100; k++ {
			m := (lo + hi) / 2
			if sat(m) > 0 {
				lo = m
			} else {
				hi = m
			}
		}
		var dist float64
		switch i % 4 {
		case 0, 1: // near contact, relative offset 1e-8..1e-1 either way
			rel := math.Pow(10, -8+7*rng.Float64())
			if rng.Intn(2) == 0 {
				rel = -rel
			}
			dist = lo * (1 + rel)
		case 2: // anywhere from deep to clearly apart
			dist = lo * 2 * rng.Float64()
		case 3: // small box deep inside or near the centre
			hb = hb.Scale(0.1)
			dist = lo * rng.Float64() * 0.5
		}
		o := satBoxes(ca, ha, qa.Mat(), ca.AddScaled(dist, u), hb, qb.Mat())
		if math.Abs(o) < 1e-9 {
			continue
		}
		checked++
		a := box("a", ca, ha, qa)
		b := box("b", ca.AddScaled(dist, u), hb, qb)
		v := Check([]Solid{a, b}, nil, 0)
		if got := len(v) > 0; got != (o > 0) {
			t.Fatalf("config %d (mode %d): audit %v (%+v), SAT overlap %g", i, i%4, got, v, o)
		}
		if o > 0 {
			overl++
		}
	}
	if overl < 800 || checked-overl < 800 {
		t.Fatalf("unbalanced: %d overlapping of %d", overl, checked)
	}
}

// randomPacking places n rotated cubes of edge 1 without overlap (SAT with a
// 1e-3 gap) in a box sized for about 20% solid fraction.
func randomPacking(rng *rand.Rand, n int) []Solid {
	side := math.Cbrt(float64(n) / 0.2)
	type ob struct {
		c geom.Vec3
		m geom.Mat3
	}
	var placed []ob
	h := geom.V(0.5, 0.5, 0.5)
	var out []Solid
	for len(out) < n {
		c := geom.V(side*rng.Float64(), side*rng.Float64(), side*rng.Float64())
		q := randQuat(rng)
		m := q.Mat()
		ok := true
		for _, p := range placed {
			if p.c.Sub(c).Norm() < 1.8 && satBoxes(p.c, h, p.m, c, h, m) > -1e-3 {
				ok = false
				break
			}
		}
		if ok {
			placed = append(placed, ob{c, m})
			out = append(out, box("c", c, h, q))
		}
	}
	return out
}

// icosphere returns a closed sphere mesh with 80 triangles.
func icosphere(c geom.Vec3, r float64) Solid {
	t := (1 + math.Sqrt(5)) / 2
	v := []geom.Vec3{{X: -1, Y: t}, {X: 1, Y: t}, {X: -1, Y: -t}, {X: 1, Y: -t}, {Y: -1, Z: t}, {Y: 1, Z: t},
		{Y: -1, Z: -t}, {Y: 1, Z: -t}, {X: t, Z: -1}, {X: t, Z: 1}, {X: -t, Z: -1}, {X: -t, Z: 1}}
	f := [][3]int32{{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2},
		{10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9}, {4, 9, 5}, {2, 4, 11},
		{6, 2, 10}, {8, 6, 7}, {9, 8, 1}}
	mid := map[[2]int32]int32{}
	half := func(a, b int32) int32 {
		k := [2]int32{min(a, b), max(a, b)}
		if m, ok := mid[k]; ok {
			return m
		}
		v = append(v, v[a].Add(v[b]).Scale(0.5))
		mid[k] = int32(len(v) - 1)
		return mid[k]
	}
	var g [][3]int32
	for _, x := range f {
		a, b, d := half(x[0], x[1]), half(x[1], x[2]), half(x[2], x[0])
		g = append(g, [3]int32{x[0], a, d}, [3]int32{x[1], b, a}, [3]int32{x[2], d, b}, [3]int32{a, b, d})
	}
	s := Solid{Name: "ico", Verts: v, Tris: g}
	for i := range s.Verts {
		s.Verts[i] = c.Add(s.Verts[i].Unit().Scale(r))
	}
	orientOutward(&s, c)
	return s
}

// A dense random packing of 500 rotated cubes has no violation, and touching
// the packing (one cube pushed into its nearest neighbour) is caught.
func TestPackingClean(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	cubes := randomPacking(rng, 500)
	if v := Check(cubes, []Surface{ground(-1, 100)}, 0); len(v) != 0 {
		t.Fatalf("%d violations, first %+v", len(v), v[0])
	}
	// Move cube 0 onto its nearest neighbour's centre direction until the SAT says overlap.
	c0 := centroid(cubes[0])
	best, bd := 1, math.Inf(1)
	for i := 1; i < len(cubes); i++ {
		if d := centroid(cubes[i]).Sub(c0).Norm(); d < bd {
			best, bd = i, d
		}
	}
	shift := centroid(cubes[best]).Sub(c0).Scale(0.5)
	for i := range cubes[0].Verts {
		cubes[0].Verts[i] = cubes[0].Verts[i].Add(shift)
	}
	v := Check(cubes, nil, 0)
	if len(v) == 0 || v[0].A != 0 || v[0].B != best {
		t.Fatalf("pushed cube: %+v", v)
	}
}

func centroid(s Solid) geom.Vec3 {
	var c geom.Vec3
	for _, p := range s.Verts {
		c = c.Add(p)
	}
	return c.Scale(1 / float64(len(s.Verts)))
}

// BenchmarkCheckCubes500 audits 500 random non-overlapping rotated cubes on a floor.
func BenchmarkCheckCubes500(b *testing.B) {
	cubes := randomPacking(rand.New(rand.NewSource(1)), 500)
	walls := []Surface{ground(-1, 100)}
	b.ReportAllocs()
	for b.Loop() {
		if v := Check(cubes, walls, 0); len(v) != 0 {
			b.Fatal(v)
		}
	}
}

// sphereCloud places n rotated 80-triangle spheres of radius 0.5 at random
// with centre distances ≥ 1.001 (gap ≥ 1e-3 between the polyhedra), about
// 30% solid fraction, so that many bounding boxes overlap.
func sphereCloud(rng *rand.Rand, n int) []Solid {
	side := math.Cbrt(float64(n) * 0.5236 / 0.3)
	var cs []geom.Vec3
	for len(cs) < n {
		c := geom.V(side*rng.Float64(), side*rng.Float64(), side*rng.Float64())
		ok := true
		for _, d := range cs {
			if d.Sub(c).Norm2() < 1.001*1.001 {
				ok = false
				break
			}
		}
		if ok {
			cs = append(cs, c)
		}
	}
	out := make([]Solid, n)
	for i, c := range cs {
		s := icosphere(geom.V(0, 0, 0), 0.5)
		q := randQuat(rng)
		for k := range s.Verts {
			s.Verts[k] = c.Add(q.Rotate(s.Verts[k]))
		}
		out[i] = s
	}
	return out
}

// A random cloud of 1000 close 80-triangle spheres is clean, and a sphere
// moved onto its neighbour is caught.
func TestSphereCloud(t *testing.T) {
	s := sphereCloud(rand.New(rand.NewSource(3)), 1000)
	if v := Check(s, []Surface{ground(-1, 100)}, 0); len(v) != 0 {
		t.Fatalf("%d violations, first %+v", len(v), v[0])
	}
	c0 := centroid(s[0])
	best, bd := 1, math.Inf(1)
	for i := 1; i < len(s); i++ {
		if d := centroid(s[i]).Sub(c0).Norm(); d < bd {
			best, bd = i, d
		}
	}
	d := centroid(s[best]).Sub(c0)
	shift := d.Scale((bd - 0.9) / bd) // centres 0.9 apart: inradius ≈ 0.47, so they overlap
	for k := range s[0].Verts {
		s[0].Verts[k] = s[0].Verts[k].Add(shift)
	}
	v := Check(s, nil, 0)
	if len(v) == 0 || kinds(v)[KindTriangle] == 0 || v[0].A != min(0, best) || v[0].B != max(0, best) {
		t.Fatalf("pushed sphere: %+v", v)
	}
}

// BenchmarkCheckSpheres1000 audits 1000 close random 80-triangle spheres on a floor.
func BenchmarkCheckSpheres1000(b *testing.B) {
	s := sphereCloud(rand.New(rand.NewSource(3)), 1000)
	walls := []Surface{ground(-1, 100)}
	b.ReportAllocs()
	for b.Loop() {
		if v := Check(s, walls, 0); len(v) != 0 {
			b.Fatal(v)
		}
	}
}

// On small integer lattices (coordinates 0..3), where contacts are exactly
// degenerate all the time, classify agrees with an exact separating-axis
// oracle: all arithmetic is on small integers, so it is exact in float64.
// Non-coplanar: crossing ⇔ every non-zero axis (2 normals, 9 edge crosses)
// has strictly positive overlap. Coplanar: same facing and every in-plane
// edge normal has strictly positive overlap.
func TestClassifyLatticeExact(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	rp := func() geom.Vec3 { return geom.V(float64(rng.Intn(4)), float64(rng.Intn(4)), float64(rng.Intn(4))) }
	overlapAll := func(a, b *[3]geom.Vec3, axes []geom.Vec3) bool {
		for _, ax := range axes {
			if ax == (geom.Vec3{}) {
				continue
			}
			amin, amax := span(a, ax)
			bmin, bmax := span(b, ax)
			if !(amax > bmin && bmax > amin) {
				return false
			}
		}
		return true
	}
	counts := map[triClass]int{}
	for i := 0; i < 60000; i++ {
		var a, b [3]geom.Vec3
		for k := range 3 {
			a[k], b[k] = rp(), rp()
		}
		if i%4 == 0 { // force coplanarity (plane z = const)
			for k := range 3 {
				a[k].Z, b[k].Z = a[0].Z, a[0].Z
			}
		}
		na := a[1].Sub(a[0]).Cross(a[2].Sub(a[0]))
		nb := b[1].Sub(b[0]).Cross(b[2].Sub(b[0]))
		if na == (geom.Vec3{}) || nb == (geom.Vec3{}) {
			continue
		}
		coplanar := na.Cross(nb) == (geom.Vec3{}) && na.Dot(b[0].Sub(a[0])) == 0
		var want triClass
		if coplanar {
			var axes []geom.Vec3
			for _, tr := range [2]*[3]geom.Vec3{&a, &b} {
				for k := range 3 {
					axes = append(axes, na.Cross(tr[(k+1)%3].Sub(tr[k])))
				}
			}
			if na.Dot(nb) > 0 && overlapAll(&a, &b, axes) {
				want = triCoplanar
			}
		} else {
			axes := []geom.Vec3{na, nb}
			for k := range 3 {
				for m := range 3 {
					axes = append(axes, a[(k+1)%3].Sub(a[k]).Cross(b[(m+1)%3].Sub(b[m])))
				}
			}
			if overlapAll(&a, &b, axes) {
				want = triCrossing
			}
		}
		got := classify(&a, &b)
		if got != want {
			t.Fatalf("pair %d %v %v: classify %d, oracle %d", i, a, b, got, want)
		}
		if classify(&b, &a) != got {
			t.Fatalf("pair %d: asymmetric", i)
		}
		counts[got]++
	}
	t.Logf("classes: %v", counts)
	if counts[triCrossing] < 1000 || counts[triCoplanar] < 100 {
		t.Fatalf("too few interesting cases: %v", counts)
	}
}

// CheckWorkers finds the same violations, in the same order, as Check for
// any number of workers: a row of boxes, each crossing its neighbour and
// every third holding a small box inside (many chunks of pairs, findings in
// several of them).
func TestCheckWorkersSameAsCheck(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var solids []Solid
	for i := range 60 {
		c := geom.V(0.9*float64(i), 0.1*rng.Float64(), 0.1*rng.Float64())
		q := geom.QAxisAngle(geom.V(rng.Float64(), rng.Float64(), 1), 0.3*rng.Float64())
		solids = append(solids, box("b", c, geom.V(0.5, 0.5, 0.5), q))
		if i%3 == 0 {
			solids = append(solids, box("in", c, geom.V(0.1, 0.1, 0.1), q))
		}
	}
	want := Check(solids, []Surface{ground(0.2, 100)}, 0)
	k := kinds(want)
	if k[KindTriangle] < 50 || k[KindVertexInside] < 20 || k[KindWall] < 60 {
		t.Fatalf("the scene should have many violations of each kind: %v", k)
	}
	for _, nw := range []int{0, 2, 3, 8} {
		got := CheckWorkers(solids, []Surface{ground(0.2, 100)}, 0, nw)
		if len(got) != len(want) {
			t.Fatalf("%d workers: %d violations, Check %d", nw, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%d workers: violation %d is %+v, Check's %+v", nw, i, got[i], want[i])
			}
		}
	}
}
