package geom

import (
	"math"
	"math/rand"
	"testing"
)

func randVec(r *rand.Rand, s float64) Vec3 {
	return Vec3{s * (2*r.Float64() - 1), s * (2*r.Float64() - 1), s * (2*r.Float64() - 1)}
}

func randQuat(r *rand.Rand) Quat {
	return Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
}

// Quaternion → matrix → quaternion round-trips to 1e-12, and the matrix is a rotation.
func TestQuatMatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		q := randQuat(r)
		m := q.Mat()
		if d := m.Mul(m.T()).MaxAbsDiff(Identity()); d > 1e-12 {
			t.Fatalf("QQᵀ ≠ I by %g", d)
		}
		if math.Abs(m.Det()-1) > 1e-12 {
			t.Fatalf("det Q = %g", m.Det())
		}
		p := QFromMat(m)
		if a := q.AngleTo(p); a > 1e-10 {
			t.Fatalf("round trip angle %g", a)
		}
		v := randVec(r, 3)
		if d := m.MulV(v).Sub(q.Rotate(v)).Norm(); d > 1e-12 {
			t.Fatalf("Mat·v ≠ Rotate(v) by %g", d)
		}
		if d := q.InvRotate(q.Rotate(v)).Sub(v).Norm(); d > 1e-12 {
			t.Fatalf("InvRotate∘Rotate ≠ id by %g", d)
		}
	}
}

// Rodrigues vector (S0 eq. 6) gives the same matrix as the quaternion of the same rotation.
func TestRodriguesMatchesQuaternion(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 1000; i++ {
		theta := randVec(r, 1.7) // |θ| < 3 < π
		alpha := RodriguesFromRotVec(theta)
		q := QFromRotVec(theta)
		if d := RodriguesMat(alpha).MaxAbsDiff(q.Mat()); d > 1e-12 {
			t.Fatalf("Q(α) ≠ Q(q) by %g for θ=%v", d, theta)
		}
		if d := RotVecFromRodrigues(alpha).Sub(theta).Norm(); d > 1e-12 {
			t.Fatalf("α→θ round trip off by %g", d)
		}
		if d := q.Rodrigues().Sub(alpha).Norm(); d > 1e-10*(1+alpha.Norm()) {
			t.Fatalf("q.Rodrigues off by %g", d)
		}
		if a := QFromRodrigues(alpha).AngleTo(q); a > 1e-10 {
			t.Fatalf("QFromRodrigues off by %g rad", a)
		}
		if d := q.RotVec().Sub(theta).Norm(); d > 1e-10 {
			t.Fatalf("RotVec round trip off by %g", d)
		}
	}
}

// Composition formula S0 eq. (7) equals the matrix product Q^Δ Q^i (eq. 5).
func TestRodriguesCompose(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 1000; i++ {
		a := RodriguesFromRotVec(randVec(r, 0.8))
		da := RodriguesFromRotVec(randVec(r, 0.8))
		want := RodriguesMat(da).Mul(RodriguesMat(a))
		got := RodriguesMat(RodriguesCompose(da, a))
		if d := got.MaxAbsDiff(want); d > 1e-11 {
			t.Fatalf("compose off by %g", d)
		}
	}
}

// ω = Ξ α̇ (S0 eq. 8–9): finite-difference the rotation Q(α^Δ(t)) and compare
// Q̇Qᵀ with skew(Ξ α̇).
func TestRodriguesXi(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 200; i++ {
		a := RodriguesFromRotVec(randVec(r, 1))
		adot := randVec(r, 1)
		h := 1e-6
		qp := RodriguesMat(a.AddScaled(h, adot))
		qm := RodriguesMat(a.AddScaled(-h, adot))
		qdot := qp.Sub(qm).Scale(1 / (2 * h))
		W := qdot.Mul(RodriguesMat(a).T())
		w := Vec3{W[2][1], W[0][2], W[1][0]}
		if d := w.Sub(RodriguesXi(a).MulV(adot)).Norm(); d > 1e-7 {
			t.Fatalf("Ξα̇ off by %g", d)
		}
	}
}

func TestSymEigen(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 200; i++ {
		q := randQuat(r).Mat()
		d := Diag(1+r.Float64(), 2+r.Float64(), 4+r.Float64())
		m := q.Mul(d).Mul(q.T())
		vals, vecs := m.SymEigen()
		if math.Abs(vals.X-d[0][0])+math.Abs(vals.Y-d[1][1])+math.Abs(vals.Z-d[2][2]) > 1e-10 {
			t.Fatalf("eigenvalues %v want diag %v", vals, d)
		}
		back := vecs.Mul(Diag(vals.X, vals.Y, vals.Z)).Mul(vecs.T())
		if e := back.MaxAbsDiff(m); e > 1e-10 {
			t.Fatalf("V Λ Vᵀ ≠ M by %g", e)
		}
		if math.Abs(vecs.Det()-1) > 1e-10 {
			t.Fatalf("eigenvector frame not right-handed: det %g", vecs.Det())
		}
	}
}

func TestMatInverse(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for i := 0; i < 200; i++ {
		var m Mat3
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				m[a][b] = r.NormFloat64()
			}
		}
		inv, ok := m.Inv()
		if !ok {
			continue
		}
		if d := m.Mul(inv).MaxAbsDiff(Identity()); d > 1e-8 {
			t.Fatalf("M M⁻¹ ≠ I by %g", d)
		}
	}
	if _, ok := (Mat3{}).Inv(); ok {
		t.Fatal("zero matrix inverted")
	}
}
