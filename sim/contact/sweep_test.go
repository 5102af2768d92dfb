package contact

import (
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

func TestVertexCrossesTri(t *testing.T) {
	t0, t1, t2 := geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)
	cases := []struct {
		p0, p1 geom.Vec3
		want   bool
	}{
		{geom.V(0.2, 0.2, 0.01), geom.V(0.2, 0.2, -0.01), true},   // straight through
		{geom.V(0.2, 0.2, -0.01), geom.V(0.25, 0.2, 0.01), true},  // from behind, slanted
		{geom.V(0.9, 0.9, 0.01), geom.V(0.9, 0.9, -0.01), false},  // beside the triangle
		{geom.V(0.2, 0.2, 0.01), geom.V(0.6, 0.2, 0.002), false},  // approaches, stays in front
		{geom.V(-0.1, 0.2, 0.01), geom.V(0.3, 0.2, -0.01), true},  // enters over the edge x = 0, crosses at x = 0.1
		{geom.V(-0.3, 0.2, 0.01), geom.V(0.1, 0.2, -0.01), false}, // crosses the plane at x = −0.1, outside
	}
	for i, c := range cases {
		if got := vertexCrossesTri(c.p0, c.p1, t0, t1, t2); got != c.want {
			t.Errorf("case %d: vertexCrossesTri = %v, want %v", i, got, c.want)
		}
	}
}

func TestEdgeCrossesEdge(t *testing.T) {
	q1, q2 := geom.V(-1, 0, 0), geom.V(1, 0, 0) // fixed edge along x
	cases := []struct {
		name           string
		p1, p2, r1, r2 geom.Vec3
		want           bool
	}{
		{"down through", geom.V(0, -1, 0.01), geom.V(0, 1, 0.01), geom.V(0, -1, -0.01), geom.V(0, 1, -0.01), true},
		{"stays above", geom.V(0, -1, 0.01), geom.V(0, 1, 0.01), geom.V(0.3, -1, 0.002), geom.V(0.3, 1, 0.002), false},
		{"past the end", geom.V(1.5, -1, 0.01), geom.V(1.5, 1, 0.01), geom.V(1.5, -1, -0.01), geom.V(1.5, 1, -0.01), false},
		{"short edge beside", geom.V(0, 0.2, 0.01), geom.V(0, 1, 0.01), geom.V(0, 0.2, -0.01), geom.V(0, 1, -0.01), false},
		{"tilting through", geom.V(0, -1, 0.01), geom.V(0, 1, 0.01), geom.V(0, -1, 0.01), geom.V(0, 1, -0.03), true},
		{"tilting about the crossing point", geom.V(0, -1, 0.01), geom.V(0, 1, 0.01), geom.V(0, -1, -0.01), geom.V(0, 1, 0.03), false},
	}
	for _, c := range cases {
		if got := edgeCrossesEdge(c.p1, c.p2, c.r1, c.r2, q1, q2); got != c.want {
			t.Errorf("%s: edgeCrossesEdge = %v, want %v", c.name, got, c.want)
		}
	}
}

// Crossed, restricted to the cached feature pairs, finds exactly the
// crossings that a brute-force sweep over every vertex–face and edge–edge
// pair finds, for random relative steps of two tetrapods (and a cube and a
// tetrapod) near each other with motions up to the cache's Reach.
func TestCrossedMatchesBruteForce(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	shapes := [][2]*shape.Polyhedron{{tet, tet}, {shape.Box(0.3, 0.3, 0.3), tet}}
	rng := rand.New(rand.NewSource(11))
	const gbar = 0.005
	trials, crossings := 0, 0
	for _, sh := range shapes {
		for traj := 0; traj < 40; traj++ {
			qa := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			qb := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
			var a, b0, b1 Posed
			a.Update(sh[0], geom.Vec3{}, qa, false)
			dist := sh[0].Radius + sh[1].Radius
			for ; dist > 0; dist -= 0.002 {
				b0.Update(sh[1], dir.Scale(dist), qb, false)
				if closest(&a, &b0) < 2*gbar {
					break
				}
			}
			if dist <= 0 || closest(&a, &b0) <= 0 {
				continue
			}
			for k := 0; k < 20; k++ {
				// A step of B: translation and rotation with point motions up to ~2.5 ḡ.
				dx := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1.2 * gbar)
				dw := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.6 * gbar / sh[1].Radius)
				xb1 := dir.Scale(dist).Add(dx)
				qb1 := qb.Integrate(dw, 1)
				b1.Update(sh[1], xb1, qb1, false)
				// Relative motions: A is fixed, so B's vertices move from b0.V
				// to b1.V, and A's vertices, seen from B, by the inverse motion.
				a1 := make([]geom.Vec3, len(a.V))
				move := 0.0
				for i, p := range a.V {
					a1[i] = b0.X.Add(qb.Rotate(qb1.InvRotate(p.Sub(xb1))))
					move = max(move, a1[i].Sub(p).Norm())
				}
				var cache Cache
				var s Scratch
				cache.Build(&a, &b1, gbar, 2*gbar, &s)
				if move > cache.Reach(&a, &b1) {
					continue
				}
				got := cache.Crossed(sh[0], sh[1], a.V, a1, b0.V, b1.V)
				want := bruteCrossed(sh[0], sh[1], a.V, a1, b0.V, b1.V)
				if got != want {
					t.Fatalf("shapes %d, trajectory %d, step %d: Crossed = %v, brute force %v (motion %.3g m)", len(sh[0].Verts), traj, k, got, want, move)
				}
				trials++
				if want {
					crossings++
				}
			}
		}
	}
	t.Logf("%d steps compared, %d with a crossing", trials, crossings)
	if trials < 500 || crossings < 20 || crossings > trials-20 {
		t.Fatalf("%d steps, %d crossings: not a meaningful mix", trials, crossings)
	}
}

func bruteCrossed(pa, pb *shape.Polyhedron, a0, a1, b0, b1 []geom.Vec3) bool {
	for v := range pa.Verts {
		for _, f := range pb.Faces {
			if vertexCrossesTri(a0[v], a1[v], b0[f.V[0]], b0[f.V[1]], b0[f.V[2]]) {
				return true
			}
		}
	}
	for v := range pb.Verts {
		for _, f := range pa.Faces {
			if vertexCrossesTri(b0[v], b1[v], a0[f.V[0]], a0[f.V[1]], a0[f.V[2]]) {
				return true
			}
		}
	}
	// Flat edges (between coplanar faces) are left out, as in the lists: an
	// edge entering a planar face region crosses its non-flat boundary.
	for _, ea := range pa.Edges {
		for _, eb := range pb.Edges {
			if ea.Kind == shape.Flat || eb.Kind == shape.Flat {
				continue
			}
			if edgeCrossesEdge(a0[ea.V[0]], a0[ea.V[1]], a1[ea.V[0]], a1[ea.V[1]], b0[eb.V[0]], b0[eb.V[1]]) {
				return true
			}
		}
	}
	return false
}
