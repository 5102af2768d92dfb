package body

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
)

// TestGershgorinAsDefined: Gershgorin is max(0, r0, r1, r2) of the rows'
// sums of magnitudes to the bit, and NaN when the matrix holds one, on
// random matrices with zeros of both signs, infinities and NaN among the
// entries.
func TestGershgorinAsDefined(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e300}
	for trial := 0; trial < 20000; trial++ {
		var m geom.Mat3
		for i := range m {
			for j := range m[i] {
				if rng.IntN(5) == 0 {
					m[i][j] = special[rng.IntN(len(special))]
				} else {
					m[i][j] = rng.NormFloat64()
				}
			}
		}
		var r [3]float64
		for i := range m {
			r[i] = math.Abs(m[i][0]) + math.Abs(m[i][1]) + math.Abs(m[i][2])
		}
		want, got := max(0, r[0], r[1], r[2]), Gershgorin(&m)
		if !(math.Float64bits(got) == math.Float64bits(want) || got != got && want != want) {
			t.Fatalf("trial %d: Gershgorin(%v) = %v, want %v", trial, m, got, want)
		}
	}
}

// TestInvInertiaBoundKept: every way a body gets its record (the
// constructors, SetMass, SetShape, SetGroup, RestoreShape, a fixed body
// freed) keeps InvInertiaBound equal to Gershgorin of the record's J⁻¹, to
// the bit.
func TestInvInertiaBoundKept(t *testing.T) {
	q := geom.QAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}.Unit(), 0.7)
	s := sq.Shape{A: 0.003, B: 0.002, C: 0.0015, N1: 10, N2: 10}
	box := shape.Box(0.01, 0.02, 0.03)
	check := func(what string, b *Body) {
		t.Helper()
		want := Gershgorin(b.IBodyInvRef())
		if got := b.InvInertiaBound(); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%s: InvInertiaBound = %v, want Gershgorin(J⁻¹) = %v", what, got, want)
		}
		if b.Mass() > 0 && !b.Fixed && !(want > 0) {
			t.Errorf("%s: bound %v of a body with mass", what, want)
		}
	}
	p := New("p", box, 2500, geom.Vec3{}, q)
	check("New", p)
	sp := NewSphere("s", 0.002, 2500, geom.Vec3{})
	check("NewSphere", sp)
	b := NewSuperquadric("q", s, 2500, geom.Vec3{}, q)
	check("NewSuperquadric", b)
	old := b.ShapeState()
	b.SetShape(sq.Shape{A: 0.004, B: 0.001, C: 0.002, N1: 4, N2: 6})
	check("SetShape", b)
	b.SetMass(3, geom.Mat3{{2, 0.1, 0}, {0.1, 3, 0.2}, {0, 0.2, 4}})
	check("SetMass", b)
	b.SetGroup("g")
	check("SetGroup", b)
	b.RestoreShape(old)
	check("RestoreShape", b)
	f := NewFixed("w", box, geom.Vec3{}, q)
	check("NewFixed", f)
	f.Fixed = false
	check("NewFixed freed", f)
	f.SetMass(1, geom.Diag(1, 2, 4))
	check("freed, SetMass", f)
}
