package sq

import (
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// TestSepCertSound: SeparationPlaced gives SeparatedPlaced's answers (both
// orders, same sep and byAxes), and the certificate it fills never holds
// for a pair in contact: 600 random pairs apart (one shape or two, n up to
// 10, B shifted by a periodic image), B then moved in A's frame by a random
// translation and rotation whose size is 10⁻³ … 3 times the certificate's
// margin (rotation: angle times B's bounding radius); wherever Holds says
// apart, a cold midway-point solve (S1 eq. 19–24) finds no contact. Both
// outcomes must occur often (the test is not vacuous). It fails if the
// motion bound leaves out the rotation or the translation (checked).
func TestSepCertSound(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(18)))
	nHold, nNot, nCase := 0, 0, 0
	for i := 0; nCase < 600 && i < 20000; i++ {
		qa, qb, pa, pb, shift := randPlacedPair(rng, i, 0.7)
		var r ContactResult
		ContactPlaced(DefaultOptions, &qa, &qb, shift, nil, &r)
		var hint *geom.Vec3
		if r.Converged && i%4 != 0 {
			hint = &r.Local
		}
		first := i%3 == 0
		var cert SepCert
		sep, by := SeparationPlaced(&qa, &qb, shift, hint, first, &cert)
		if s0, b0 := SeparatedPlaced(&qa, &qb, shift, hint, first); s0 != sep || b0 != by {
			t.Fatalf("case %d: SeparationPlaced %v %v, SeparatedPlaced %v %v", i, sep, by, s0, b0)
		}
		if !sep {
			continue
		}
		if r.InContact {
			t.Fatalf("case %d: separated but in contact (gap %g)", i, r.Gap)
		}
		nCase++
		for k := 0; k < 6; k++ {
			scale := cert.m * []float64{1e-3, 0.1, 0.5, 0.9, 1.5, 3}[k]
			tr := randDir(rng).Scale(scale * rng.Float64())
			ang := scale * rng.Float64() / cert.rb
			if k%2 == 1 {
				ang = scale / cert.rb // rotation only, up to the whole margin
				tr = geom.Vec3{}
			}
			// B moved in A's frame: X_B' = X_B + A·tr, rotated about its
			// own centre by ang about a random axis given in A's frame.
			rot := pa.Q.Mul(geom.QAxisAngle(randDir(rng), ang)).Mul(pa.Q.Conj())
			nb := Pose{X: pb.X.Add(pa.Q.Rotate(tr)), Q: rot.Mul(pb.Q).Normalize()}
			qb.Place(nb.X.Sub(shift), nb.Q)
			if !cert.Holds(&qa, &qb, shift) {
				nNot++
				continue
			}
			rc := ContactPrepared(DefaultOptions, &qa, pa, &qb, nb, nil)
			if !rc.Converged {
				continue
			}
			nHold++
			if rc.InContact {
				t.Fatalf("case %d move %d: the certificate holds (margin %g, move %g, angle %g) but the pair is in contact (gap %g)",
					i, k, cert.m, tr.Norm(), ang, rc.Gap)
			}
		}
	}
	if nCase < 600 || nHold < 600 || nNot < 600 {
		t.Fatalf("sample too narrow: %d separated pairs, %d moves held, %d not", nCase, nHold, nNot)
	}
}

// TestSepCertRotation: a rotation alone can close the gap. Two ellipsoids
// 2 × 8 × 2 mm (n = 2) side by side, long axes parallel, 0.2 mm apart:
// B turned about its own centre by 45° swings across A (the midway-point
// solve finds the overlap), so the certificate from the first pose must
// not hold although B's centre has not moved; one turned by a thousandth
// of the margin over B's radius still holds.
func TestSepCertRotation(t *testing.T) {
	s := Shape{A: 0.001, B: 0.004, C: 0.001, N1: 2, N2: 2}
	qa, qb := s.Prepare(), s.Prepare()
	qa.Place(geom.Vec3{}, geom.QIdent())
	xb := geom.V(0.0022, 0, 0)
	qb.Place(xb, geom.QIdent())
	var cert SepCert
	if sep, _ := SeparationPlaced(&qa, &qb, geom.Vec3{}, nil, true, &cert); !sep {
		t.Fatal("the blocks 0.2 mm apart are not separated")
	}
	qb.Place(xb, geom.QAxisAngle(geom.V(0, 0, 1), 1e-3*cert.m/cert.rb))
	if !cert.Holds(&qa, &qb, geom.Vec3{}) {
		t.Errorf("a turn of 1e-3 margin/radius: the certificate (margin %g) does not hold", cert.m)
	}
	turned := geom.QAxisAngle(geom.V(0, 0, 1), 45*3.141592653589793/180)
	qb.Place(xb, turned)
	r := ContactPrepared(DefaultOptions, &qa, Pose{Q: geom.QIdent()}, &qb, Pose{X: xb, Q: turned}, nil)
	if !r.Converged || !r.InContact {
		t.Fatalf("the turned block does not overlap (gap %g): the case tests nothing", r.Gap)
	}
	if cert.Holds(&qa, &qb, geom.Vec3{}) {
		t.Errorf("turned by 45° into A (gap %g): the certificate (margin %g) still holds", r.Gap, cert.m)
	}
}

// randPlacedPair places two prepared shapes of blockiness up to 10 for
// case i of a separation test: A random, B the same shape (even i) or
// another one scaled by 0.3…2.3 (odd i), B's centre (lo … lo+1.3) times
// the mean of their largest semi-axes from A's in a random direction,
// random orientations, and B given as a periodic image shifted by
// (0, 0.5·(i mod 3 − 1), 0); the poses A and B were placed at are returned
// too (B's before the shift).
func randPlacedPair(rng *rand.Rand, i int, lo float64) (qa, qb Prepared, pa, pb Pose, shift geom.Vec3) {
	a := randShape(rng, 10)
	b := a
	if i%2 == 1 {
		b = randShape(rng, 10).Scaled(0.3 + 2*rng.Float64())
	}
	qa, qb = a.Prepare(), b.Prepare()
	pa = Pose{X: geom.Vec3{X: rng.NormFloat64() * 0.1}, Q: randQuat(rng)}
	d := randDir(rng).Scale((lo + 1.3*rng.Float64()) * (max(a.A, a.B, a.C) + max(b.A, b.B, b.C)) / 2)
	shift = geom.Vec3{Y: 0.5 * float64(i%3-1)}
	pb = Pose{X: pa.X.Add(d), Q: randQuat(rng)}
	qa.Place(pa.X, pa.Q)
	qb.Place(pb.X.Sub(shift), pb.Q)
	return qa, qb, pa, pb, shift
}
