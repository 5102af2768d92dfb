package sq

import (
	"math"
	"testing"
)

// The tessellation is closed (every edge used by exactly two triangles, once
// in each direction), outward oriented (every triangle normal has a positive
// component along its centroid, which holds for a convex star-shaped body),
// its vertices lie on the surface (|f| ≤ 1e-9), and at 128×64 its volume is
// within 2% of the closed form.
func TestMesh(t *testing.T) {
	for _, s := range []Shape{{1, 1, 1, 2, 2}, {1, 0.5, 2, 2, 2}, {1, 0.8, 0.6, 10, 10}, {0.5, 0.5, 1.5, 10, 2},
		{1, 1, 0.4, 2, 8}, {1.2, 0.7, 0.9, 3.3, 6.5}, {1, 1, 1, 20, 20}} {
		verts, tris := s.Mesh(128, 64)
		for _, v := range verts {
			if f := s.F(v); math.Abs(f) > 1e-9 {
				t.Fatalf("%+v: vertex %v off the surface, f = %g", s, v, f)
			}
		}
		edges := map[[2]int32]int{}
		vol := 0.0
		for _, tr := range tris {
			a, b, c := verts[tr[0]], verts[tr[1]], verts[tr[2]]
			n := b.Sub(a).Cross(c.Sub(a))
			if n.Dot(a.Add(b).Add(c)) <= 0 {
				t.Fatalf("%+v: triangle %v inward or degenerate", s, tr)
			}
			vol += a.Dot(b.Cross(c)) / 6
			for k := 0; k < 3; k++ {
				edges[[2]int32{tr[k], tr[(k+1)%3]}]++
			}
		}
		for e, c := range edges {
			if c != 1 || edges[[2]int32{e[1], e[0]}] != 1 {
				t.Fatalf("%+v: edge %v used %d times, reverse %d", s, e, c, edges[[2]int32{e[1], e[0]}])
			}
		}
		if rel := vol/s.Volume() - 1; math.Abs(rel) > 0.02 {
			t.Errorf("%+v: mesh volume %g vs %g (rel %.3g)", s, vol, s.Volume(), rel)
		} else {
			t.Logf("%+v: %d triangles, volume rel. deviation %.2g (tol 2%%)", s, len(tris), rel)
		}
	}
	// crisp edges at a coarse tessellation: the corners are sampled (a vertex
	// within 0.5% of the bounding radius) and the volume is within 3%
	for _, s := range []Shape{{1, 1, 1, 8, 8}, {1, 0.7, 0.5, 10, 10}, {1, 1, 1, 20, 20}} {
		verts, tris := s.Mesh(32, 16)
		rmax, vol := 0.0, 0.0
		for _, v := range verts {
			rmax = math.Max(rmax, v.Norm())
		}
		for _, tr := range tris {
			vol += verts[tr[0]].Dot(verts[tr[1]].Cross(verts[tr[2]])) / 6
		}
		t.Logf("%+v at 32×16: max radius %.4f of %.4f, volume rel. deviation %.3g", s, rmax, s.BoundingRadius(), vol/s.Volume()-1)
		if rmax < 0.995*s.BoundingRadius() || math.Abs(vol/s.Volume()-1) > 0.03 {
			t.Errorf("%+v at 32×16: max radius %g of %g, volume %g of %g", s, rmax, s.BoundingRadius(), vol, s.Volume())
		}
	}
	if v, tr := (Shape{1, 1, 1, 4, 4}).Mesh(0, 0); len(v) != 2+3*8 || len(tr) != 2*8*3 {
		t.Errorf("minimum mesh: %d vertices, %d triangles", len(v), len(tr))
	}
}
