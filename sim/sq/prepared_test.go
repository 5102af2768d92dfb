package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/internal/fma"
)

// TestPreparedSameBits: the prepared-shape queries (ContactPrepared,
// SeparatedPrepared and SeparatedOrdered in both orders,
// Prepared.CurvatureRadius) give the same bits as the
// ones on bare shapes, for pairs of one shape (the pair's length scale is
// each particle's own) and of two (one is rescaled), with and without a warm
// start, touching, overlapping and apart. Tolerance: none (bit for bit).
func TestPreparedSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(16)))
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	sameV := func(x, y geom.Vec3) bool { return same(x.X, y.X) && same(x.Y, y.Y) && same(x.Z, y.Z) }
	nContact, nSep := 0, 0
	for i := 0; i < 400; i++ {
		a := randShape(rng, 10)
		b := a
		if i%2 == 1 {
			b = randShape(rng, 10).Scaled(0.3 + 2*rng.Float64())
		}
		qa, qb := a.Prepare(), b.Prepare()
		if !qa.For(a) || qa.For(b) != (a == b) || (&Prepared{}).For(Shape{}) {
			t.Fatalf("case %d: Prepared.For wrong", i)
		}
		pa := Pose{X: geom.Vec3{X: rng.NormFloat64() * 0.1}, Q: randQuat(rng)}
		d := randDir(rng).Scale((0.6 + 1.6*rng.Float64()) * (max(a.A, a.B, a.C) + max(b.A, b.B, b.C)) / 2)
		pb := Pose{X: pa.X.Add(d), Q: randQuat(rng)}
		var warm *geom.Vec3
		if i%3 == 0 {
			w := pa.X.Add(d.Scale(0.5)).Add(randDir(rng).Scale(0.05))
			warm = &w
		}
		r0 := ContactWith(DefaultOptions, a, pa, b, pb, warm)
		r1 := ContactPrepared(DefaultOptions, &qa, pa, &qb, pb, warm)
		if r0.Converged != r1.Converged || r0.InContact != r1.InContact || r0.Iter != r1.Iter ||
			!sameV(r0.Point, r1.Point) || !sameV(r0.PA, r1.PA) || !sameV(r0.PB, r1.PB) || !sameV(r0.Normal, r1.Normal) || !same(r0.Gap, r1.Gap) {
			t.Fatalf("case %d: ContactPrepared %+v, ContactWith %+v", i, r1, r0)
		}
		if r0.InContact {
			nContact++
		}
		hint := warm
		if r0.Converged {
			hint = &r0.Point
		}
		s0, s1 := Separated(a, pa, b, pb, hint), SeparatedPrepared(&qa, pa, &qb, pb, hint)
		if s0 != s1 {
			t.Fatalf("case %d: SeparatedPrepared %v, Separated %v", i, s1, s0)
		}
		for _, first := range []bool{false, true} {
			if s2, by := SeparatedOrdered(&qa, pa, &qb, pb, hint, first); s2 != s0 || by && !s0 {
				t.Fatalf("case %d: SeparatedOrdered (axes first %v) %v (by axes %v), Separated %v", i, first, s2, by, s0)
			}
		}
		if s0 {
			nSep++
		}
		if r0.Converged {
			for _, m := range []RadiusMethod{RadiusMean, RadiusGauss, RadiusVolume} {
				x := pa.ToLocal(r0.PA)
				c0 := a.CurvatureRadiusRV(m, x, 10, a.VolumeRadius())
				c1 := qa.CurvatureRadius(m, x, 10, a.VolumeRadius())
				if !same(c0, c1) {
					t.Fatalf("case %d: curvature radius (method %d) prepared %g, bare %g", i, m, c1, c0)
				}
			}
		}
	}
	// the sample must exercise both outcomes
	if nContact < 40 || nSep < 40 {
		t.Fatalf("sample too narrow: %d in contact, %d separated of 400", nContact, nSep)
	}
}

// TestPlacedQueries: the placed queries (ContactPlaced with the warm start
// in A's body frame, SeparatedPlaced in both orders, Prepared.ToLocal) agree
// with the prepared ones on world poses to rounding (1e-12 of the particle
// size for points and overlaps, the same iteration counts and answers) on
// the pairs of TestPreparedSameBits, B shifted by a periodic image; a
// placement at another pose is refused (At).
func TestPlacedQueries(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(17)))
	nContact, nSep := 0, 0
	for i := 0; i < 400; i++ {
		a := randShape(rng, 10)
		b := a
		if i%2 == 1 {
			b = randShape(rng, 10).Scaled(0.3 + 2*rng.Float64())
		}
		L := min(max(a.A, a.B, a.C), max(b.A, b.B, b.C))
		near := func(x, y geom.Vec3) bool { return x.Sub(y).Norm() <= 1e-12*L }
		qa, qb := a.Prepare(), b.Prepare()
		pa := Pose{X: geom.Vec3{X: rng.NormFloat64() * 0.1}, Q: randQuat(rng)}
		d := randDir(rng).Scale((0.6 + 1.6*rng.Float64()) * (max(a.A, a.B, a.C) + max(b.A, b.B, b.C)) / 2)
		shift := geom.Vec3{X: 0.5 * float64(i%3-1)}
		pb := Pose{X: pa.X.Add(d), Q: randQuat(rng)}
		qa.Place(pa.X, pa.Q)
		qb.Place(pb.X.Sub(shift), pb.Q)
		if !qa.At(pa.X, pa.Q) || qa.At(pb.X, pa.Q) || qa.At(pa.X, pb.Q) {
			t.Fatalf("case %d: Prepared.At wrong", i)
		}
		var warm, warmL *geom.Vec3
		if i%3 == 0 {
			w := pa.X.Add(d.Scale(0.5)).Add(randDir(rng).Scale(0.05))
			wl := qa.ToLocal(w)
			if !near(pa.ToWorld(wl), w) {
				t.Fatalf("case %d: ToLocal %v, back %v of %v", i, wl, pa.ToWorld(wl), w)
			}
			warm, warmL = &w, &wl
		}
		r0 := ContactPrepared(DefaultOptions, &qa, pa, &qb, pb, warm)
		var r1 ContactResult
		ContactPlaced(DefaultOptions, &qa, &qb, shift, warmL, &r1)
		if r0.Converged != r1.Converged || r0.InContact != r1.InContact || r0.Iter != r1.Iter ||
			r0.Converged && (!near(r0.Point, r1.Point) || !near(r0.PA, r1.PA) || !near(r0.PB, r1.PB) ||
				r0.Normal.Sub(r1.Normal).Norm() > 1e-9 || math.Abs(r0.Gap-r1.Gap) > 1e-12*L ||
				!near(qa.ToLocal(r1.Point), r1.Local)) {
			t.Fatalf("case %d: ContactPlaced %+v, ContactPrepared %+v", i, r1, r0)
		}
		if r0.InContact {
			nContact++
		}
		hint, hintL := warm, warmL
		if r0.Converged {
			hint, hintL = &r0.Point, &r1.Local
		}
		s0 := SeparatedPrepared(&qa, pa, &qb, pb, hint)
		for _, first := range []bool{false, true} {
			if s1, by := SeparatedPlaced(&qa, &qb, shift, hintL, first); s1 != s0 || by && !s0 {
				t.Fatalf("case %d: SeparatedPlaced (axes first %v) %v (by axes %v), SeparatedPrepared %v", i, first, s1, by, s0)
			}
		}
		if s0 {
			nSep++
		}
	}
	if nContact < 40 || nSep < 40 {
		t.Fatalf("sample too narrow: %d in contact, %d separated of 400", nContact, nSep)
	}
}

// TestPlaceMatrixSameBits: Place forms A(q) (S1 eq. 4) in place with the
// operations of geom.Quat.Mat: the same matrix to the bit for 2 000 random
// unit and non-unit quaternions (the placed queries must give the bits of
// the posed ones, TestPreparedSameBits).
func TestPlaceMatrixSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	p := Shape{A: 1, B: 1, C: 1, N1: 2, N2: 2}.Prepare()
	for k := 0; k < 2000; k++ {
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if k%2 == 0 {
			q = q.Normalize()
		}
		p.Place(geom.Vec3{}, q)
		if p.r != q.Mat() {
			t.Fatalf("q = %v: placed %v, Mat %v", q, p.r, q.Mat())
		}
	}
}

// TestRadiusAtSameBits: Prepared.RadiusAt (the world point taken to the
// body frame with the placed matrix and the curvature radius of S1 eq.
// 39–40 in one call) gives the bits of CurvatureRadius(m, ToLocal(w)) by
// every method, on 2 000 random placed shapes (n up to 10, n1 ≠ n2 too) at
// surface points, at points off the surface, at the centre (∇f = 0) and on
// the body z-axis (ν = 0), with the cap biting and not. Tolerance: none
// where nothing fuses; 1e-12 relative on FMA builds (fma.MayFuse: the
// written-out copy may fuse its products otherwise).
func TestRadiusAtSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(18)))
	for k := 0; k < 2000; k++ {
		s := randShape(rng, 10)
		p := s.Prepare()
		x0 := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		q := randQuat(rng)
		p.Place(x0, q)
		var local geom.Vec3
		switch k % 4 {
		case 0, 1: // on the surface
			local = s.Project(randDir(rng).Scale(s.A))
		case 2: // off it, inside or outside
			local = randDir(rng).Scale(s.A * 2 * rng.Float64())
		default: // the centre or the z-axis
			local = geom.Vec3{Z: float64(k%8/4) * s.C}
		}
		w := x0.Add(q.Rotate(local))
		capQ := []float64{10, 1.05, 0}[k%3]
		for _, m := range []RadiusMethod{RadiusMean, RadiusGauss, RadiusVolume} {
			want := p.CurvatureRadius(m, p.ToLocal(w), capQ, s.VolumeRadius())
			if got := p.RadiusAt(m, w, capQ, s.VolumeRadius()); !fma.Same(got, want, 1e-12, 0) {
				t.Fatalf("case %d (method %d): RadiusAt %g, CurvatureRadius %g", k, m, got, want)
			}
		}
	}
}
