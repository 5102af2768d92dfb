package audit

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// Closed wall meshes (session 13, review r2): an STL obstacle forbids its
// inside, not the unbounded prism behind each of its triangles; an inward
// closed mesh (a container) forbids its outside. Open walls keep the prism
// rule (TestWallCrossing, the oracle tests, TestOpenWallKeepsPrism).

// asWall returns solid s as a wall surface (the same triangles).
func asWall(s Solid) Surface {
	return Surface{Name: "wall:" + s.Name, Verts: s.Verts, Tris: s.Tris}
}

// flipped returns s with every triangle reversed (normals inwards).
func flipped(s Solid) Solid {
	out := Solid{Name: s.Name, Verts: s.Verts}
	for _, t := range s.Tris {
		out.Tris = append(out.Tris, [3]int32{t[0], t[2], t[1]})
	}
	return out
}

// checkWall returns Check's violations of the solids against the walls,
// failing unless two workers find the same.
func checkWall(t *testing.T, solids []Solid, walls []Surface, tol float64) []Violation {
	t.Helper()
	v := Check(solids, walls, tol)
	if v2 := CheckWorkers(solids, walls, tol, 2); !slices.Equal(v, v2) {
		t.Fatalf("1 worker %+v, 2 workers %+v", v, v2)
	}
	return v
}

// A 0.1 m cube beside, above, below a closed 1 m cube wall (1 mm gap, and
// 1.45 m away as in the review's scene) is clean, in the block's own axes
// and rotated; pushed 1 cm into it, or wholly inside it, it is reported
// with its depth (the vertices' distance to the block's surface, exact to
// round-off); a tol above the depth lets the 1 cm pass.
func TestClosedWallCube(t *testing.T) {
	h, hc := geom.V(0.5, 0.5, 0.5), geom.V(0.05, 0.05, 0.05)
	for _, q := range []geom.Quat{geom.QIdent(), geom.QAxisAngle(geom.V(1, 2, -0.5), 0.7)} {
		block := asWall(box("block", geom.V(0.3, -0.2, 0.1), h, q))
		at := func(n geom.Vec3, d float64) Solid { // the cube d from the block's centre along block axis n
			return box("c", geom.V(0.3, -0.2, 0.1).Add(q.Rotate(n.Scale(d))), hc, q)
		}
		for _, n := range []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1)} {
			for _, d := range []float64{0.5 + 0.05 + 1e-3, 0.5 + 0.05 + 1.45} {
				if v := checkWall(t, []Solid{at(n, d)}, []Surface{block}, 0); len(v) != 0 {
					t.Errorf("q %v: cube at %g along %v (clear by %g): %+v", q, d, n, d-0.55, v)
				}
			}
			in := at(n, 0.5+0.05-0.01)
			v := checkWall(t, []Solid{in}, []Surface{block}, 0)
			if len(v) != 1 || v[0].Kind != KindWall || v[0].A != 0 || v[0].B != 0 || math.Abs(v[0].Depth-0.01) > 1e-12 {
				t.Errorf("q %v: cube 1 cm in along %v: %+v, want one wall crossing by 0.01", q, n, v)
			}
			if v := checkWall(t, []Solid{in}, []Surface{block}, 0.011); len(v) != 0 {
				t.Errorf("q %v: cube 1 cm in along %v, tol 0.011: %+v", q, n, v)
			}
		}
		inside := at(geom.V(1, 0, 0), 0.2) // its deepest vertices 0.35 m from the +x face, 0.45 m from the others
		if v := checkWall(t, []Solid{inside}, []Surface{block}, 0); len(v) != 1 || math.Abs(v[0].Depth-0.35) > 1e-12 {
			t.Errorf("q %v: cube inside the block: %+v, want one crossing by 0.35", q, v)
		}
	}
	// Exactly touching (binary fractions: no rounding): face on face, and a
	// cube on the block's top edge. Clean.
	block := asWall(box("block", geom.V(0, 0, 0), h, geom.QIdent()))
	for _, c := range []geom.Vec3{geom.V(0, 0, 0.5625), geom.V(0.5625, 0.25, 0), geom.V(0.5625, 0, 0.5625)} {
		if v := checkWall(t, []Solid{box("c", c, geom.V(0.0625, 0.0625, 0.0625), geom.QIdent())}, []Surface{block}, 0); len(v) != 0 {
			t.Errorf("touching at %v: %+v", c, v)
		}
	}
}

// A closed non-convex wall (the tetrapod, 52 triangles): small tetrapods
// and cubes at random in its box — in its notches between the legs, touching,
// or in it — are reported against it exactly when the solid–solid audit
// reports the pair (the wall taken as a solid). Many clear poses lie behind a
// wall triangle inside its prism, where the open-wall rule (oracleCheck)
// reports them: they test the closed rule.
func TestClosedWallNotch(t *testing.T) {
	v, tr := tetrapodShape(t)
	big := posed("tp", v, tr, geom.V(0.1, 0.2, 0.3), geom.QAxisAngle(geom.V(1, 0, 0.3), 2.9), 1)
	wall := asWall(big)
	mb := prepareSolid(big)
	rng := rand.New(rand.NewSource(23))
	clear, notch, hit := 0, 0, 0
	for range 800 {
		c := mb.box.lo.Add(mb.box.hi.Sub(mb.box.lo).Mul(geom.V(rng.Float64(), rng.Float64(), rng.Float64())))
		var small Solid
		if rng.Intn(2) == 0 {
			small = posed("small", v, tr, c, randQuat(rng), 0.05+0.2*rng.Float64())
		} else {
			s := 0.02 + 0.1*rng.Float64()
			small = box("small", c, geom.V(s, s, s), randQuat(rng))
		}
		pair := Check([]Solid{big, small}, nil, 0)
		got := checkWall(t, []Solid{small}, []Surface{wall}, 0)
		if (len(pair) > 0) != (len(got) > 0) {
			t.Fatalf("small at %v: as solids %+v, against the closed wall %+v", c, pair, got)
		}
		if len(got) > 0 {
			hit++
			continue
		}
		clear++
		if len(oracleCheck([]Solid{small}, []Surface{wall}, 0)) > 0 {
			notch++ // behind a wall triangle's plane, in its prism, yet clear of the wall
		}
	}
	t.Logf("%d poses: %d clear (%d of them behind a triangle in its prism), %d crossing", clear+hit, clear, notch, hit)
	if notch < 50 || hit < 50 {
		t.Fatalf("%d clear behind a triangle, %d crossing: too few of one", notch, hit)
	}
}

// A closed wall with inward normals is a container: a cube inside it is
// clean, one poking 1 cm out or wholly outside it (also beyond a corner, in
// no triangle's prism, which the open-wall rule misses) is reported.
func TestClosedWallContainer(t *testing.T) {
	box2 := asWall(flipped(box("bin", geom.V(0, 0, 0), geom.V(1, 1, 1), geom.QIdent())))
	hc := geom.V(0.05, 0.05, 0.05)
	cases := []struct {
		c     geom.Vec3
		depth float64 // 0: clean
	}{
		{geom.V(0, 0, 0), 0},
		{geom.V(0.9, -0.9, 0.9), 0},                  // in a corner, 5 cm clear
		{geom.V(0, 0, -0.96), 0.01},                  // 1 cm through the floor
		{geom.V(1.2, 0, 0), 0.25},                    // outside beside a face
		{geom.V(1.3, 1.3, 1.3), 0.35 * math.Sqrt(3)}, // beyond a corner (the far vertex)
	}
	for _, c := range cases {
		s := box("c", c.c, hc, geom.QIdent())
		v := checkWall(t, []Solid{s}, []Surface{box2}, 0)
		if c.depth == 0 && len(v) != 0 || c.depth > 0 && (len(v) != 1 || v[0].Kind != KindWall || math.Abs(v[0].Depth-c.depth) > 1e-12) {
			t.Errorf("cube at %v: %+v, want depth %g", c.c, v, c.depth)
		}
	}
}

// An open wall — the block less its top face, so no closed chain — keeps
// the prism rule: the cube 1.45 m beside it is behind its side face as
// before, and Check finds exactly oracleCheck's violations on random cubes
// around and in it.
func TestOpenWallKeepsPrism(t *testing.T) {
	block := box("block", geom.V(0, 0, 0), geom.V(0.5, 0.5, 0.5), geom.QIdent())
	var open Solid
	open.Name, open.Verts = block.Name, block.Verts
	for _, tri := range block.Tris {
		if block.Verts[tri[0]].Z+block.Verts[tri[1]].Z+block.Verts[tri[2]].Z < 1.5 { // not the top face
			open.Tris = append(open.Tris, tri)
		}
	}
	if len(open.Tris) != 10 {
		t.Fatalf("%d triangles", len(open.Tris))
	}
	wall := asWall(open)
	far := box("c", geom.V(-2, 0, 0), geom.V(0.05, 0.05, 0.05), geom.QIdent())
	if v := sameAsOracle(t, "far", []Solid{far}, []Surface{wall}, 0); len(v) != 1 || v[0].Kind != KindWall {
		t.Fatalf("cube behind the open block's side: %+v", v)
	}
	rng := rand.New(rand.NewSource(29))
	n := 0
	for range 200 {
		c := geom.V(3*rng.Float64()-1.5, 3*rng.Float64()-1.5, 3*rng.Float64()-1.5)
		s := 0.02 + 0.2*rng.Float64()
		n += len(sameAsOracle(t, "random", []Solid{box("c", c, geom.V(s, s, s), randQuat(rng))}, []Surface{wall}, 0))
	}
	t.Logf("%d violations in 200 poses, as the oracle", n)
	if n < 50 {
		t.Fatalf("%d violations in 200 poses: too few", n)
	}
}
