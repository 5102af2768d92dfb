package sq

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// boxMesh returns the 12-triangle box [lo, hi] with normals pointing out of
// the box, or into it (the walls of a container) when inward.
func boxMesh(lo, hi geom.Vec3, inward bool) ([]geom.Vec3, [][3]int32) {
	var verts []geom.Vec3
	for i := 0; i < 8; i++ {
		v := lo
		if i&1 != 0 {
			v.X = hi.X
		}
		if i&2 != 0 {
			v.Y = hi.Y
		}
		if i&4 != 0 {
			v.Z = hi.Z
		}
		verts = append(verts, v)
	}
	mid := lo.Add(hi).Scale(0.5)
	quads := [][4]int32{{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}}
	var tris [][3]int32
	for _, q := range quads {
		a, b, c := verts[q[0]], verts[q[1]], verts[q[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		out := n.Dot(a.Sub(mid)) > 0
		if out == inward {
			q = [4]int32{q[0], q[3], q[2], q[1]}
		}
		tris = append(tris, [3]int32{q[0], q[1], q[2]}, [3]int32{q[0], q[2], q[3]})
	}
	return verts, tris
}

// floorMesh returns the square [−h, h]² at z = 0 split into m×m quads (2m²
// triangles), normal +z.
func floorMesh(h float64, m int) ([]geom.Vec3, [][3]int32) {
	var verts []geom.Vec3
	for j := 0; j <= m; j++ {
		for i := 0; i <= m; i++ {
			verts = append(verts, geom.V(-h+2*h*float64(i)/float64(m), -h+2*h*float64(j)/float64(m), 0))
		}
	}
	id := func(i, j int) int32 { return int32(j*(m+1) + i) }
	var tris [][3]int32
	for j := 0; j < m; j++ {
		for i := 0; i < m; i++ {
			tris = append(tris, [3]int32{id(i, j), id(i+1, j), id(i+1, j+1)}, [3]int32{id(i, j), id(i+1, j+1), id(i, j+1)})
		}
	}
	return verts, tris
}

// mustSurface builds the contact surface of the open (or closed) mesh v, tr
// through shape.NewSurface, as the world does.
func mustSurface(t testing.TB, v []geom.Vec3, tr [][3]int32) *Surface {
	p, err := shape.NewSurface("test", v, tr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSurface(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Bad meshes are rejected by shape.NewSurface (the one home of the mesh
// checks) with the defect's kind; NewSurface refuses a polyhedron without
// faces.
func TestNewSurfaceErrors(t *testing.T) {
	v := []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}}
	cases := []struct {
		v    []geom.Vec3
		tr   [][3]int32
		want error
	}{
		{v, nil, shape.ErrDegenerate},
		{v, [][3]int32{{0, 1, 4}}, shape.ErrIndex},
		{v, [][3]int32{{0, 1, 2}, {0, -1, 2}}, shape.ErrIndex},
		{[]geom.Vec3{{}, {X: math.NaN()}, {Y: 1}}, [][3]int32{{0, 1, 2}}, shape.ErrNonFinite},
		{[]geom.Vec3{{}, {X: 1}, {X: 2}}, [][3]int32{{0, 1, 2}}, shape.ErrDegenerate},
		{v, [][3]int32{{0, 1, 1}}, shape.ErrDegenerate},
		{v, [][3]int32{{0, 1, 2}, {0, 1, 3}}, shape.ErrOrientation},
		{v, [][3]int32{{0, 1, 2}, {1, 0, 3}, {1, 0, 2}}, shape.ErrNonManifold},
	}
	for i, c := range cases {
		_, err := shape.NewSurface("bad", c.v, c.tr)
		if !errors.Is(err, c.want) {
			t.Errorf("case %d: error %v, want %v", i, err, c.want)
		}
	}
	if _, err := NewSurface(&shape.Polyhedron{Name: "empty"}); err == nil || !strings.Contains(err.Error(), "no faces") {
		t.Errorf("empty polyhedron: error %v, want one saying it has no faces", err)
	}
}

// Feature extraction: a cube has 6 facets, 12 convex edges and 8 corners; the
// inside of a box (all edges concave) 6 facets and no edge or corner; one
// triangle 1 facet, 3 boundary edges, 3 corners; a floor split into 4×4 quads
// 1 facet with its rim merged into 4 edges and 4 corners.
func TestSurfaceFeatures(t *testing.T) {
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	iv, it := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), true)
	fv, ft := floorMesh(2, 4)
	bfv, bft := floorMesh(2, 60)
	cases := []struct {
		name    string
		v       []geom.Vec3
		tr      [][3]int32
		f, e, c int
	}{
		{"cube", cv, ct, 6, 12, 8},
		{"box inside", iv, it, 6, 0, 0},
		{"triangle", []geom.Vec3{{}, {X: 1}, {Y: 1}}, [][3]int32{{0, 1, 2}}, 1, 3, 3},
		{"floor 4×4", fv, ft, 1, 4, 4},
		{"floor 60×60", bfv, bft, 1, 4, 4},
	}
	for _, c := range cases {
		s := mustSurface(t, c.v, c.tr)
		if s.NumFacets() != c.f || s.NumEdges() != c.e || s.NumCorners() != c.c {
			t.Errorf("%s: %d facets, %d edges, %d corners; want %d, %d, %d", c.name, s.NumFacets(), s.NumEdges(), s.NumCorners(), c.f, c.e, c.c)
		}
	}
	s := mustSurface(t, cv, ct)
	for i := 0; i < s.NumFacets(); i++ {
		n := s.FacetNormal(i)
		if math.Abs(maxAbs(n)-1) > 1e-15 || n.Norm() > 1+1e-15 {
			t.Errorf("cube facet %d normal %v not axis-aligned", i, n)
		}
	}
}

// placeNear returns a pose at rotation q whose extreme point against u sits
// at x − delta·u: the particle pokes delta into the feature at x.
func placeNear(s Shape, q geom.Quat, x, u geom.Vec3, delta float64) Pose {
	y := q.Rotate(s.Support(q.InvRotate(u.Neg())))
	return Pose{X: x.AddScaled(-delta, u).Sub(y), Q: q}
}

// Count rules (Voronoi regions): on a flat facet split into 32 triangles every
// particle gets exactly ONE facet contact with the exact plane gap (1e-12 of
// PlaneContact), also right above triangle edges and vertices; in the concave
// 90° edge of a box two facet contacts and in its corner three; over a convex
// cube edge exactly one edge contact with the normal in the edge's cone, and
// over a cube corner one vertex contact. Shapes random with n up to 10.
func TestSurfaceContactCounts(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(41)))
	fv, ft := floorMesh(3, 4)
	floor := mustSurface(t, fv, ft)
	iv, it := boxMesh(geom.V(-3, -3, 0), geom.V(3, 3, 6), true)
	box := mustSurface(t, iv, it)
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	cube := mustSurface(t, cv, ct)
	wq := geom.QAxisAngle(geom.V(1, -2, 0.5), 0.8) // surfaces posed in the world
	ww := Pose{X: geom.V(0.3, -0.7, 2), Q: wq}
	toW := func(p Pose) Pose { return Pose{X: ww.ToWorld(p.X), Q: wq.Mul(p.Q)} }
	var out []SurfaceContact
	for k := 0; k < 300; k++ {
		s := randShape(rng, 10).Scaled(0.5)
		q := randQuat(rng)
		// (1) flat facet of many triangles
		x := geom.V(3*(2*rng.Float64()-1)*0.6, 3*(2*rng.Float64()-1)*0.6, 0)
		if k%3 == 0 { // right above a mesh vertex
			x = geom.V(1.5*float64(rng.Intn(3)-1), 1.5*float64(rng.Intn(3)-1), 0)
		}
		p := toW(placeNear(s, q, x, geom.V(0, 0, 1), 0.01))
		out = s.SurfaceContacts(p, floor, ww, 0, out[:0])
		pr := PlaneContact(s, p, ww.X, wq.Rotate(geom.V(0, 0, 1)))
		if len(out) != 1 || out[0].Kind != KindFacet || math.Abs(out[0].Gap-pr.Gap) > 1e-12 || out[0].PA.Dist(pr.PA) > 1e-12 {
			t.Fatalf("floor, %+v: %d contacts %+v, plane gap %g", s, len(out), out, pr.Gap)
		}
		// (2) concave edge and corner of the box
		d := 0.01
		_, hx := s.SupportWorld(Pose{Q: q}, geom.V(-1, 0, 0))
		_, hz := s.SupportWorld(Pose{Q: q}, geom.V(0, 0, -1))
		_, hy := s.SupportWorld(Pose{Q: q}, geom.V(0, -1, 0))
		pe := toW(Pose{X: geom.V(-3+hx-d, 0.5*(2*rng.Float64()-1), hz-d), Q: q})
		out = s.SurfaceContacts(pe, box, ww, 0, out[:0])
		if len(out) != 2 || out[0].Kind != KindFacet || out[1].Kind != KindFacet || out[0].Normal.Dot(out[1].Normal) > 1e-12 {
			t.Fatalf("concave edge, %+v: %d contacts %+v", s, len(out), out)
		}
		pc := toW(Pose{X: geom.V(-3+hx-d, -3+hy-d, hz-d), Q: q})
		out = s.SurfaceContacts(pc, box, ww, 0, out[:0])
		if len(out) != 3 {
			t.Fatalf("concave corner, %+v: %d contacts %+v", s, len(out), out)
		}
		for _, c := range out {
			if c.Kind != KindFacet || math.Abs(c.Gap+d) > 1e-12 {
				t.Fatalf("concave corner, %+v: contact %+v, want facet gap %g", s, c, -d)
			}
		}
		// (3) convex cube edge (x = 1, z = 1), direction inside the cone
		th := (0.1 + 0.8*rng.Float64()) * math.Pi / 2
		u := geom.V(math.Sin(th), 0, math.Cos(th))
		pk := toW(placeNear(s, q, geom.V(1, 0.8*(2*rng.Float64()-1), 1), u, 0.01))
		out = s.SurfaceContacts(pk, cube, ww, 0, out[:0])
		if len(out) != 1 || out[0].Kind != KindEdge {
			t.Fatalf("convex edge, %+v, θ = %.3f: %d contacts %+v", s, th, len(out), out)
		}
		nl := wq.InvRotate(out[0].Normal)
		if nl.X < 0 || nl.Z < 0 || math.Abs(nl.Y) > 1e-9 || !(out[0].Gap < 0) {
			t.Fatalf("convex edge, %+v: normal %v (surface frame) outside the cone or no overlap %g", s, nl, out[0].Gap)
		}
		// (4) convex cube corner
		u = geom.V(0.3+rng.Float64(), 0.3+rng.Float64(), 0.3+rng.Float64()).Unit()
		pv := toW(placeNear(s, q, geom.V(1, 1, 1), u, 0.01))
		out = s.SurfaceContacts(pv, cube, ww, 0, out[:0])
		if len(out) != 1 || out[0].Kind != KindVertex || !(out[0].Gap < 0) {
			t.Fatalf("convex corner, %+v: %d contacts %+v", s, len(out), out)
		}
	}
}

// Exactly on a region boundary (both owners' tests pass within rounding) the
// duplicate is dropped: a sphere and an n = 4 shape centred above the cube
// edge line x = z = 1, and above the corner (1, 1, 1), each get one contact
// with normal +z and the exact depth 0.05.
func TestSurfaceBoundaryNoDuplicate(t *testing.T) {
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	cube := mustSurface(t, cv, ct)
	for _, s := range []Shape{Sphere(0.5), {0.5, 0.4, 0.5, 4, 4}} {
		for _, x := range []geom.Vec3{{X: 1, Y: 0.3, Z: 1.45}, {X: 1, Y: 1, Z: 1.45}} {
			for _, sphere := range []bool{true, false} {
				if sphere && s.N1 != 2 {
					continue
				}
				out := s.surfaceContacts(Pose{X: x, Q: geom.QIdent()}, cube, Pose{Q: geom.QIdent()}, 0, nil, sphere)
				if len(out) != 1 || out[0].Normal.Dist(geom.V(0, 0, 1)) > 1e-9 || math.Abs(out[0].Gap+0.05) > 1e-9 {
					t.Errorf("%+v at %v (fast %v): %d contacts %+v", s, x, sphere, len(out), out)
				}
			}
		}
	}
}

// The sphere fast path equals the generic gauge path for n = 2 spheres: the
// same features and PA, PB, normal, gap within 1e-9 (random spheres near a
// cube, a single triangle and inside a box, reach 0.3).
func TestSurfaceSphereFastPath(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(42)))
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	iv, it := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), true)
	surfs := []*Surface{mustSurface(t, cv, ct), mustSurface(t, iv, it),
		mustSurface(t, []geom.Vec3{{X: -1, Y: -1}, {X: 1, Y: -0.5}, {X: 0, Y: 1}}, [][3]int32{{0, 1, 2}})}
	counts := [3]int{}
	for k := 0; k < 3000; k++ {
		si := k % 3
		r := 0.2 + 0.5*rng.Float64()
		s := Sphere(r)
		var x geom.Vec3
		switch si {
		case 0:
			x = randDir(rng).Scale(1 + r*(0.9+0.5*rng.Float64()))
			x = x.Scale(1.6 / maxAbs(x) * (0.8 + 0.4*rng.Float64()))
		case 1:
			x = geom.V(2*rng.Float64()-1, 2*rng.Float64()-1, 2*rng.Float64()-1).Scale(1 - r*0.9)
		default:
			x = geom.V(2.4*rng.Float64()-1.2, 2.4*rng.Float64()-1.2, r*(0.9+0.3*rng.Float64()))
		}
		p := Pose{X: x, Q: randQuat(rng)}
		pw := Pose{Q: geom.QIdent()}
		fast := s.SurfaceContacts(p, surfs[si], pw, 0.3, nil)
		slow := s.surfaceContacts(p, surfs[si], pw, 0.3, nil, false)
		if len(fast) != len(slow) {
			t.Fatalf("surface %d, sphere r %g at %v: %d fast contacts %+v, %d generic %+v", si, r, x, len(fast), fast, len(slow), slow)
		}
		for i := range fast {
			a, b := fast[i], slow[i]
			e := a.PA.Dist(b.PA) + a.PB.Dist(b.PB) + a.Normal.Dist(b.Normal) + math.Abs(a.Gap-b.Gap)
			if a.Feature != b.Feature || a.Kind != b.Kind || e > 1e-9 {
				t.Fatalf("surface %d, sphere r %g at %v: fast %+v vs generic %+v (diff %g)", si, r, x, a, b, e)
			}
			counts[a.Kind]++
		}
	}
	if counts[0] < 100 || counts[1] < 100 || counts[2] < 50 {
		t.Errorf("too few contacts of some kind: %v", counts)
	}
	t.Logf("compared contacts by kind (facet, edge, vertex): %v", counts)
}

// Robustness: random and degenerate poses (centres at cube vertices, on edges,
// at face centres, deep inside) against the cube, the L-prism and the hopper
// never produce NaN: every contact has finite points, a unit normal (1e-12),
// Gap < reach, a feature id in the range of its kind, and at most one contact
// per feature.
func TestSurfaceContactsRobust(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(46)))
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	lv, lt := lPrism()
	hv, ht := hopper()
	surfs := []*Surface{mustSurface(t, cv, ct), mustSurface(t, lv, lt), mustSurface(t, hv, ht)}
	special := []geom.Vec3{{X: 1, Y: 1, Z: 1}, {X: 1, Z: 1}, {X: 1}, {}, {X: 1, Y: 1, Z: 0.5}, {Y: -0.5}, {X: 0.5, Y: -0.5}}
	const reach = 0.5
	for k := 0; k < 3000; k++ {
		surf := surfs[k%3]
		s := randShape(rng, 10).Scaled(0.5)
		if k%4 == 0 {
			s = Sphere(0.2 + 0.5*rng.Float64())
		}
		x := geom.V(3*rng.Float64()-1.5, 3*rng.Float64()-1.5, 3*rng.Float64()-1)
		if k%5 == 0 {
			x = special[rng.Intn(len(special))]
		}
		out := s.SurfaceContacts(Pose{X: x, Q: randQuat(rng)}, surf, Pose{Q: geom.QIdent()}, reach, nil)
		seen := map[int32]bool{}
		nf, ne := int32(surf.NumFacets()), int32(surf.NumEdges())
		for _, c := range out {
			kind := KindFacet
			if c.Feature >= nf+ne {
				kind = KindVertex
			} else if c.Feature >= nf {
				kind = KindEdge
			}
			if !c.PA.IsFinite() || !c.PB.IsFinite() || math.Abs(c.Normal.Norm()-1) > 1e-12 || !(c.Gap < reach) || seen[c.Feature] || c.Kind != kind {
				t.Fatalf("%+v at %v: bad contact %+v (duplicate %v)", s, x, c, seen[c.Feature])
			}
			seen[c.Feature] = true
		}
	}
}
