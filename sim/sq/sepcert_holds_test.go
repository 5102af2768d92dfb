package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// holdsByDefinition is SepCert.Holds as its doc states it, with geom's
// operations: move = |c₁ − c₀| + 2|vec((q_A* q_B) q₀*)|·r_B, apart when
// move + tol < m.
func holdsByDefinition(k *SepCert, a, b *Prepared, shift geom.Vec3) bool {
	if !(k.m > 0) {
		return false
	}
	c := tmulV(&a.r, b.x.Add(shift).Sub(a.x))
	dq := a.q.Conj().Mul(b.q).Mul(k.q.Conj())
	sinHalf := math.Sqrt(dq.X*dq.X + dq.Y*dq.Y + dq.Z*dq.Z)
	return c.Sub(k.c).Norm()+2*sinHalf*k.rb+k.tol < k.m
}

// TestSepCertHoldsDefinition: Holds (which stops on the translation alone
// once it reaches the margin, and writes the products out) gives the
// answer of its definition for 400 certificates from SeparationPlaced
// (n up to 10, one shape or two, B shifted by a periodic image) and B
// moved in A's frame by translations and rotations of 0.3 … 1.5 times the
// margin, apart and together, near the margin included; both answers must
// occur often, and the translation alone must decide some of them. It
// fails if the early stop cuts below the margin (0.9·m) or the full test
// drops the rotation (both checked).
func TestSepCertHoldsDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(61)))
	nCase, nTrue, nFalse, nEarly := 0, 0, 0, 0
	for i := 0; nCase < 400 && i < 20000; i++ {
		qa, qb, pa, pb, shift := randPlacedPair(rng, i, 0.9)
		var cert SepCert
		if sep, _ := SeparationPlaced(&qa, &qb, shift, nil, i%3 == 0, &cert); !sep {
			continue
		}
		nCase++
		for k := 0; k < 8; k++ {
			s := cert.m * (0.3 + 1.2*rng.Float64())
			tr, ang := randDir(rng).Scale(s*rng.Float64()), s*rng.Float64()/cert.rb
			if k == 7 {
				tr = randDir(rng).Scale(cert.m * (1 + 1e-12*float64(k))) // the translation alone reaches it
			}
			// B moved in A's frame: centre by tr (world = A's rotation of it), orientation by ang
			pb1 := Pose{X: pb.X.Add(pa.Q.Rotate(tr)), Q: pa.Q.Mul(geom.QAxisAngle(randDir(rng), ang)).Mul(pa.Q.Conj()).Mul(pb.Q).Normalize()}
			qb.Place(pb1.X.Sub(shift), pb1.Q)
			got, want := cert.Holds(&qa, &qb, shift), holdsByDefinition(&cert, &qa, &qb, shift)
			if got != want {
				t.Fatalf("case %d, move %d: Holds %v, by definition %v", i, k, got, want)
			}
			c := tmulV(&qa.r, qb.x.Add(shift).Sub(qa.x))
			if !(c.Sub(cert.c).Norm()+cert.tol < cert.m) {
				nEarly++
			}
			if got {
				nTrue++
			} else {
				nFalse++
			}
		}
		qb.Place(pb.X.Sub(shift), pb.Q)
	}
	if nCase < 400 || nTrue < 400 || nFalse < 400 || nEarly < 200 {
		t.Fatalf("vacuous: %d certificates, %d apart, %d not, %d decided by the translation", nCase, nTrue, nFalse, nEarly)
	}
	t.Logf("%d certificates: %d apart, %d not (%d by the translation alone)", nCase, nTrue, nFalse, nEarly)
}
