package contact

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// TestUpdatePlacesAsDefined: Posed.Update's world vertices are x + R·v
// rounded as x.Add(q.Mat().MulV(v)) rounds it, and its box is the fold of
// geom.Vec3.Min and Max from ±1e300 over them — to the bit, on random
// poses of a tetrapod and a cube (far from the origin too, where the
// translation's rounding shows), and on a polyhedron without vertices.
// The narrow phase, the broad phase's wall boxes and the feature lists'
// regions read these values, so any other rounding changes the results.
func TestUpdatePlacesAsDefined(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	cube := shape.Box(0.3, 0.2, 0.1)
	rng := rand.New(rand.NewSource(7))
	var p Posed
	for trial := 0; trial < 300; trial++ {
		poly := tet
		if trial%3 == 2 {
			poly = cube
		}
		scale := math.Pow(10, float64(rng.Intn(7)-2)) // 0.01 … 10⁴ m
		x := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(scale)
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		p.Update(poly, x, q, false)
		R := q.Mat()
		if p.R != R {
			t.Fatalf("trial %d: R = %v, want %v", trial, p.R, R)
		}
		if len(p.V) != len(poly.Verts) {
			t.Fatalf("trial %d: %d world vertices, want %d", trial, len(p.V), len(poly.Verts))
		}
		mn := geom.V(1e300, 1e300, 1e300)
		mx := mn.Neg()
		for i, v := range poly.Verts {
			w := x.Add(R.MulV(v))
			if p.V[i] != w {
				t.Fatalf("trial %d: vertex %d at %v, want %v", trial, i, p.V[i], w)
			}
			mn, mx = mn.Min(w), mx.Max(w)
		}
		if p.Box != (AABB{mn, mx}) {
			t.Fatalf("trial %d: box %v, want %v", trial, p.Box, AABB{mn, mx})
		}
	}
	empty := &shape.Polyhedron{}
	p.Update(empty, geom.V(1, 2, 3), geom.Quat{W: 1}, false)
	if want := (AABB{geom.V(1e300, 1e300, 1e300), geom.V(-1e300, -1e300, -1e300)}); len(p.V) != 0 || p.Box != want {
		t.Fatalf("no vertices: %d placed, box %v, want none and %v", len(p.V), p.Box, want)
	}
}
