package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// lPrism returns the non-convex L-shaped prism with cross-section
// [0,2]×[0,1] ∪ [0,1]×[1,2] and z ∈ [0, 1], outward normals (28 triangles).
func lPrism() ([]geom.Vec3, [][3]int32) {
	poly := [][2]float64{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}
	var v []geom.Vec3
	for _, z := range []float64{0, 1} {
		for _, p := range poly {
			v = append(v, geom.V(p[0], p[1], z))
		}
	}
	caps := [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 5}} // counter-clockwise seen from +z
	var t [][3]int32
	for _, c := range caps {
		t = append(t, [3]int32{c[0] + 6, c[1] + 6, c[2] + 6}, [3]int32{c[0], c[2], c[1]})
	}
	for i := int32(0); i < 6; i++ {
		j := (i + 1) % 6
		t = append(t, [3]int32{i, j, j + 6}, [3]int32{i, j + 6, i + 6})
	}
	return v, t
}

// hopper returns an open funnel: four sloped walls from the square
// [−2, 2]² at z = 2 down to the outlet [−0.5, 0.5]² at z = 0, normals inwards.
func hopper() ([]geom.Vec3, [][3]int32) {
	sq4 := [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	var v []geom.Vec3
	for _, p := range sq4 {
		v = append(v, geom.V(2*p[0], 2*p[1], 2)) // top T0–T3
	}
	for _, p := range sq4 {
		v = append(v, geom.V(0.5*p[0], 0.5*p[1], 0)) // outlet B0–B3
	}
	axis := geom.V(0, 0, 1)
	var t [][3]int32
	for i := int32(0); i < 4; i++ {
		j := (i + 1) % 4
		q := [4]int32{i, j, j + 4, i + 4}
		a, b, c := v[q[0]], v[q[1]], v[q[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		mid := a.Add(c).Scale(0.5)
		if n.Dot(axis.Sub(mid)) < 0 { // make the normal face the funnel axis
			q = [4]int32{q[0], q[3], q[2], q[1]}
		}
		t = append(t, [3]int32{q[0], q[1], q[2]}, [3]int32{q[0], q[2], q[3]})
	}
	return v, t
}

// solve3 returns c with n_i·c = r_i.
func solve3(n [3]geom.Vec3, r [3]float64) geom.Vec3 {
	inv, _ := geom.Rows(n[0], n[1], n[2]).Inv()
	return inv.MulV(geom.V(r[0], r[1], r[2]))
}

// touching returns the centre of the particle (rotation q) that overlaps each
// plane (point p_i, unit normal n_i) by d_i, for three independent normals
// (the third may be a free direction with d = −Inf meaning "centre at p₂").
func touching(s Shape, q geom.Quat, n [3]geom.Vec3, p [3]geom.Vec3, d [3]float64) geom.Vec3 {
	var r [3]float64
	for i := range n {
		if math.IsInf(d[i], -1) {
			r[i] = n[i].Dot(p[i])
			continue
		}
		_, h := s.SupportWorld(Pose{Q: q}, n[i].Neg())
		r[i] = n[i].Dot(p[i]) + h - d[i]
	}
	return solve3(n, r)
}

// A non-convex polyhedron (L-prism: 8 facets, 17 convex edges, 10 convex
// corners; the ends of its concave edge are saddles, not features) and an open
// hopper (4 walls, 8 rim edges, no corner: each rim vertex closes a concave
// crease): feature counts, and
// the Voronoi count rules for random shapes (n up to 10): one facet contact on
// the non-convex L-shaped cap (triangulated across its reflex corner), two in
// the concave notch, one edge contact on a convex edge; in the hopper one
// contact on a wall, two in the concave crease between two walls, one edge
// contact at the outlet rim; never a contact from behind a wall.
func TestSurfaceNonConvex(t *testing.T) {
	lv, lt := lPrism()
	L := mustSurface(t, lv, lt)
	if L.NumFacets() != 8 || L.NumEdges() != 17 || L.NumCorners() != 10 {
		t.Fatalf("L-prism: %d facets, %d edges, %d corners; want 8, 17, 10", L.NumFacets(), L.NumEdges(), L.NumCorners())
	}
	hv, ht := hopper()
	H := mustSurface(t, hv, ht)
	if H.NumFacets() != 4 || H.NumEdges() != 8 || H.NumCorners() != 0 {
		t.Fatalf("hopper: %d facets, %d edges, %d corners; want 4, 8, 0", H.NumFacets(), H.NumEdges(), H.NumCorners())
	}
	rng := rand.New(rand.NewSource(seedEnv(45)))
	pw := Pose{Q: geom.QIdent()}
	z := geom.V(0, 0, 1)
	// hopper wall planes: wall 0 through B0, B1, T1 (y < 0 side)
	wall := func(i int) (geom.Vec3, geom.Vec3) {
		for f := 0; f < H.NumFacets(); f++ {
			n := H.FacetNormal(f)
			c := []geom.Vec3{{Y: 1}, {X: -1}, {Y: -1}, {X: 1}}[i] // inward horizontal direction of wall i
			if n.Dot(c) > 0.5 {
				return n, hv[4+i]
			}
		}
		return geom.Vec3{}, geom.Vec3{}
	}
	var out []SurfaceContact
	for k := 0; k < 200; k++ {
		s := randShape(rng, 10).Scaled(0.2)
		size := math.Max(s.A, math.Max(s.B, s.C))
		q := randQuat(rng)
		d := 0.01 * size
		// L: on the cap near the reflex corner (1, 1, 1), inside the L
		x := geom.V(1-0.3*rng.Float64(), 1-0.3*rng.Float64(), 1)
		out = s.SurfaceContacts(placeNear(s, q, x, z, d), L, pw, 0, out[:0])
		if len(out) != 1 || out[0].Kind != KindFacet || out[0].Normal.Dist(z) > 1e-12 {
			t.Fatalf("L cap, %+v at %+v: %d contacts %+v", s, placeNear(s, q, x, z, d), len(out), out)
		}
		// L: in the concave notch between the faces x = 1 and y = 1
		c := touching(s, q, [3]geom.Vec3{{X: 1}, {Y: 1}, z}, [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 0.5}}, [3]float64{d, d, math.Inf(-1)})
		out = s.SurfaceContacts(Pose{X: c, Q: q}, L, pw, 0, out[:0])
		if len(out) != 2 || out[0].Kind != KindFacet || out[1].Kind != KindFacet {
			t.Fatalf("L notch, %+v: %d contacts %+v", s, len(out), out)
		}
		// L: convex edge x = 2, z = 1
		u := randCone(rng, geom.V(1, 0, 0), z)
		out = s.SurfaceContacts(placeNear(s, q, geom.V(2, 0.2+0.6*rng.Float64(), 1), u, d), L, pw, 0, out[:0])
		if len(out) != 1 || out[0].Kind != KindEdge {
			t.Fatalf("L convex edge, %+v: %d contacts %+v", s, len(out), out)
		}
		// hopper: on wall 0, halfway up
		n0, p0 := wall(0)
		n1, p1 := wall(1)
		x = geom.V(0.6*(2*rng.Float64()-1), -1.25, 1)
		out = s.SurfaceContacts(placeNear(s, q, x, n0, d), H, pw, 0, out[:0])
		if len(out) != 1 || out[0].Kind != KindFacet || out[0].Normal.Dist(n0) > 1e-12 {
			t.Fatalf("hopper wall, %+v: %d contacts %+v", s, len(out), out)
		}
		// hopper: in the crease between walls 0 and 1 (the line B1–T1)
		e := hv[1].Sub(hv[5]).Unit()
		c = touching(s, q, [3]geom.Vec3{n0, n1, e}, [3]geom.Vec3{p0, p1, geom.Lerp(hv[5], hv[1], 0.5)}, [3]float64{d, d, math.Inf(-1)})
		out = s.SurfaceContacts(Pose{X: c, Q: q}, H, pw, 0, out[:0])
		if len(out) != 2 || out[0].Kind != KindFacet || out[1].Kind != KindFacet {
			t.Fatalf("hopper crease, %+v: %d contacts %+v", s, len(out), out)
		}
		// hopper: outlet rim of wall 0 (y = −0.5, z = 0), pushed from inside the outlet
		m0 := hv[5].Sub(hv[4]).Cross(n0).Unit()
		if m0.Dot(geom.V(0, 0, -1)) < 0 {
			m0 = m0.Neg()
		}
		u = randCone(rng, n0, m0)
		sr := s.Scaled(0.5) // small enough not to reach the other rims of the outlet
		out = sr.SurfaceContacts(placeNear(sr, q, geom.V(0.1*(2*rng.Float64()-1), -0.5, 0), u, d/2), H, pw, 0, out[:0])
		if len(out) != 1 || out[0].Kind != KindEdge {
			t.Fatalf("hopper rim, %+v: %d contacts %+v", s, len(out), out)
		}
		// behind wall 0 (outside the hopper): nothing
		out = s.SurfaceContacts(placeNear(s, q, geom.V(0, -1.25, 1), n0.Neg(), d), H, pw, 0, out[:0])
		if len(out) != 0 {
			t.Fatalf("behind the hopper wall, %+v: %d contacts %+v", s, len(out), out)
		}
	}
}
