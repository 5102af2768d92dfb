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
// It runs on the assembly (placeAsm) and on the Go loop place (-tags
// purego, other GOARCH), and is skipped only where this build fuses a
// product and a sum into one rounding (fusesMulAdd: arm64, ppc64, s390x,
// riscv64, amd64 with GOAMD64=v3 and up), where place and MulV may fuse
// differently.
func TestUpdatePlacesAsDefined(t *testing.T) {
	if fusesMulAdd() {
		t.Skip("this build fuses x*y + z into one rounding: place and MulV may fuse differently")
	}
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

// mulAdd is x*y + z as the compiler builds it for this GOARCH and GOAMD64
// (not inlined, so the operands are not constants).
//
//go:noinline
func mulAdd(x, y, z float64) float64 { return x*y + z }

// fusesMulAdd reports whether this build fuses a product and a sum into one
// rounding (an FMA): (1+2⁻⁵²)(1−2⁻⁵²) − 1 is −2⁻¹⁰⁴ fused and 0 rounded twice.
func fusesMulAdd() bool { return mulAdd(1+0x1p-52, 1-0x1p-52, -1) != 0 }

// TestPlaceVertsSameBits: placeVerts (on amd64 its loop in assembly) gives
// place's vertices and box to the bit — signs of zeros included, compared
// as bits — on random vertices and poses and on vertices and translations
// with zeros of both signs, infinities, NaN and huge values, where the
// box's comparisons decide which of two equal or unordered values stays.
// A NaN matches any NaN: which of two NaN operands an x86 sum passes on
// depends on the operands' order, which the compiler chooses for place.
func TestPlaceVertsSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	special := []float64{0, math.Copysign(0, -1), 1, -1, 1e300, -1e300, 2e300, -2e300, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324}
	pick := func() float64 {
		if rng.Intn(4) == 0 {
			return special[rng.Intn(len(special))]
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.Intn(9)-4))
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	sameV := func(a, b geom.Vec3) bool { return same(a.X, b.X) && same(a.Y, b.Y) && same(a.Z, b.Z) }
	for trial := 0; trial < 2000; trial++ {
		n := rng.Intn(40)
		verts := make([]geom.Vec3, n)
		for i := range verts {
			verts[i] = geom.V(pick(), pick(), pick())
		}
		var R geom.Mat3
		if trial%2 == 0 {
			R = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize().Mat()
		} else {
			for i := range R {
				for j := range R[i] {
					R[i][j] = pick()
				}
			}
		}
		x := geom.V(pick(), pick(), pick())
		got, want := make([]geom.Vec3, n), make([]geom.Vec3, n)
		var gotBox, wantBox AABB
		placeVerts(got, verts, x, &R, &gotBox)
		place(want, verts, x, &R, &wantBox)
		for i := range got {
			if !sameV(got[i], want[i]) {
				t.Fatalf("trial %d: vertex %d %v at %v, want %v", trial, i, verts[i], got[i], want[i])
			}
		}
		if !sameV(gotBox.Min, wantBox.Min) || !sameV(gotBox.Max, wantBox.Max) {
			t.Fatalf("trial %d: box %v, want %v", trial, gotBox, wantBox)
		}
	}
}
