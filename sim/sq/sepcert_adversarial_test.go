package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// surfPts returns m points of s's surface (body frame), from directions
// scaled onto f = 0 by bisection along the ray.
func surfPts(s Shape, m int) []geom.Vec3 {
	out := make([]geom.Vec3, 0, m)
	for _, d := range fibSphere(m) {
		lo, hi := 0.0, 2*s.boundR()
		for k := 0; k < 60; k++ {
			mid := 0.5 * (lo + hi)
			if s.F(d.Scale(mid)) < 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		out = append(out, d.Scale(lo)) // inside or on the surface
	}
	return out
}

// TestSepCertAdversarial: SepCert under motions the
// package test does not make — A turning about its own centre (B orbits in
// A's frame: a far axis for B), B turning about a far world axis, B pushed
// along the contact normal towards A — on elongated shapes (aspect up to
// 12), n up to MaxBlockiness, n1 ≠ n2, scales 1e-5 … 1e3 m and centres up
// to 1e4 sizes from the origin. Wherever Holds says apart, no sampled
// surface point of B is inside A (f_A < 0) and a cold solve finds no
// contact. It also counts the poses where the certificate holds but a fresh
// SeparationPlaced (same hint, same order) does not find a plane: there the
// world skips a ContactPlaced that the uncertified path runs (it moves the
// pair's warm start), so results depend on whether the certificate exists.
func TestSepCertAdversarial(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(91)))
	nHold, nFreshFail, nCase := 0, 0, 0
	for i := 0; nCase < 400 && i < 40000; i++ {
		scale := math.Pow(10, -5+8*rng.Float64())
		mk := func() Shape {
			s := randShape(rng, MaxBlockiness)
			if rng.Intn(2) == 0 {
				s.A *= 1 + 10*rng.Float64() // elongated
			}
			return s.Scaled(scale)
		}
		a, b := mk(), mk()
		qa, qb := a.Prepare(), b.Prepare()
		far := float64(rng.Intn(3)) * 1e4 * scale
		pa := Pose{X: randDir(rng).Scale(far), Q: randQuat(rng)}
		d := randDir(rng).Scale((0.6 + 0.8*rng.Float64()) * (a.boundR() + b.boundR()) / 2)
		pb := Pose{X: pa.X.Add(d), Q: randQuat(rng)}
		qa.Place(pa.X, pa.Q)
		qb.Place(pb.X, pb.Q)
		var r ContactResult
		ContactPlaced(DefaultOptions, &qa, &qb, geom.Vec3{}, nil, &r)
		if !r.Converged || r.InContact {
			continue
		}
		hint := r.Local
		first := i%2 == 0
		var cert SepCert
		if sep, _ := SeparationPlaced(&qa, &qb, geom.Vec3{}, &hint, first, &cert); !sep {
			continue
		}
		nCase++
		ptsB := surfPts(b, 400)
		for k := 0; k < 12; k++ {
			frac := []float64{0.5, 0.9, 0.99, 0.999}[k%4]
			na, nb := pa, pb
			switch k / 4 {
			case 0: // A turns about its centre: B orbits in A's frame
				ang := frac * cert.m / (d.Norm() + cert.rb)
				na.Q = geom.QAxisAngle(randDir(rng), ang).Mul(pa.Q).Normalize()
			case 1: // B turns about a far world axis (lever L)
				L := (5 + 50*rng.Float64()) * cert.rb
				ax := randDir(rng)
				piv := pb.X.Add(ax.Cross(randDir(rng)).Unit().Scale(L))
				ang := frac * cert.m / (L + 2*cert.rb)
				rot := geom.QAxisAngle(ax, ang)
				nb.X = piv.Add(rot.Rotate(pb.X.Sub(piv)))
				nb.Q = rot.Mul(pb.Q).Normalize()
			default: // B pushed along the contact normal towards A
				nrm := pa.Q.Rotate(r.Normal) // from B to A
				nb.X = pb.X.Add(nrm.Scale(frac * cert.m))
			}
			qa.Place(na.X, na.Q)
			qb.Place(nb.X, nb.Q)
			if !cert.Holds(&qa, &qb, geom.Vec3{}) {
				continue
			}
			nHold++
			for _, z := range ptsB {
				w := nb.ToWorld(z)
				if f := a.F(na.Q.InvRotate(w.Sub(na.X))); f < -1e-9 {
					t.Fatalf("case %d move %d: certificate holds (m %g) but B's surface point is inside A (f %g)", i, k, cert.m, f)
				}
			}
			rc := ContactPrepared(DefaultOptions, &qa, na, &qb, nb, nil)
			if rc.Converged && rc.InContact {
				t.Fatalf("case %d move %d: certificate holds (m %g) but cold solve finds gap %g", i, k, cert.m, rc.Gap)
			}
			if sep, _ := SeparationPlaced(&qa, &qb, geom.Vec3{}, &hint, first, nil); !sep {
				nFreshFail++
			}
		}
		qa.Place(pa.X, pa.Q)
	}
	t.Logf("%d pairs apart, %d certified moves, of which a fresh test finds no plane in %d", nCase, nHold, nFreshFail)
	if nCase < 400 || nHold < 1000 {
		t.Fatalf("sample too narrow: %d pairs, %d held", nCase, nHold)
	}
}

// TestSepCertOfState: a certificate read back from its State is the same
// certificate; numbers that are no certificate are refused with an error;
// one taken with another shape of B is dropped (ok false, no error).
func TestSepCertOfState(t *testing.T) {
	a, b := Shape{A: 1, B: 1, C: 1, N1: 4, N2: 4}, Shape{A: 0.5, B: 1, C: 2, N1: 6, N2: 3}
	qa, qb := a.Prepare(), b.Prepare()
	qa.Place(geom.V(0, 0, 0), geom.QIdent())
	qb.Place(geom.V(4, 0.3, 0), geom.QAxisAngle(geom.V(0, 0, 1), 0.2))
	var k SepCert
	if sep, _ := SeparationPlaced(&qa, &qb, geom.Vec3{}, nil, true, &k); !sep {
		t.Fatal("shapes 4 apart not separated")
	}
	s, ok := k.State()
	if !ok {
		t.Fatal("no state for a certificate")
	}
	back, ok, err := SepCertOf(s, b)
	if err != nil || !ok || back != k {
		t.Fatalf("read back %+v, %v, %v; want %+v", back, ok, err, k)
	}
	if _, ok, err := SepCertOf(s, b.Scaled(1.01)); ok || err != nil {
		t.Errorf("another shape of B: ok %v err %v, want dropped", ok, err)
	}
	for i, bad := range []func(s *[9]float64){
		func(s *[9]float64) { s[0] = 0 },
		func(s *[9]float64) { s[0] = math.Inf(1) },
		func(s *[9]float64) { s[1] = -1 },
		func(s *[9]float64) { s[3] = math.NaN() },
		func(s *[9]float64) { s[5] *= 2 },
	} {
		c := s
		bad(&c)
		if _, ok, err := SepCertOf(c, b); err == nil || ok {
			t.Errorf("case %d: %v accepted", i, c)
		}
	}
}
