package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// TestScratchSameBits: ContactPlacedScratch with one Scratch reused across
// pairs (and first filled with other numbers: NaNs, a finite μ, the other
// evaluation slot) gives ContactPlacedChord's results bit for bit, field by
// field, with the kept Jacobians alike: 150 pairs of random shapes (n up to
// 10; every fourth pair n1 = n2 = 10 on both shapes, so that the SSE2 pair
// path evalW2SSE2 runs too: review r4 found it never ran), each solved from no warm
// start (continuation), then 20 times rocking from its last point as in a
// settled bed, then once from a far warm start. It fails if the solve read
// what the scratch held before (checked: with contactIn's reset of μ and the
// warm start's μ = −1 both dropped, μ carries over and the bits differ).
func TestScratchSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(71)))
	o := Options{Tol: 1e-8, MaxIter: 60}
	var sc Scratch
	fill := func() {
		st := &sc.st
		st.x = geom.Vec3{X: math.NaN(), Y: 1e300, Z: -3}
		st.mu, st.res, st.iter, st.cur = 0.37, math.Inf(1), 99, 1
		for i := range st.e {
			for j := range st.e[i] {
				st.e[i][j] = evalOut{f: math.NaN(), g: geom.Vec3{X: 7, Y: math.NaN(), Z: -1}, x2: 3, x1: 4, y2: 5, y1: 6, z2: 7, nu: 8, nup1: 9, sxy: -1}
			}
		}
	}
	fill()
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	sameV := func(x, y geom.Vec3) bool { return same(x.X, y.X) && same(x.Y, y.Y) && same(x.Z, y.Z) }
	check := func(i, step int, r, s *ContactResult, cr, cs *Chord) {
		t.Helper()
		ok := r.InContact == s.InContact && sameV(r.Point, s.Point) && sameV(r.Local, s.Local) &&
			sameV(r.Normal, s.Normal) && sameV(r.PA, s.PA) && sameV(r.PB, s.PB) &&
			same(r.Overlap, s.Overlap) && same(r.Gap, s.Gap) && r.Iter == s.Iter &&
			r.Converged == s.Converged && (r.Err == nil) == (s.Err == nil)
		if !ok {
			t.Fatalf("case %d step %d: results differ:\nchord   %+v\nscratch %+v", i, step, *r, *s)
		}
		kr, okr := cr.State()
		ks, oks := cs.State()
		if okr != oks {
			t.Fatalf("case %d step %d: kept Jacobian %v vs %v", i, step, okr, oks)
		}
		for k := range kr {
			if !same(kr[k], ks[k]) {
				t.Fatalf("case %d step %d: kept Jacobian's number %d: %g vs %g", i, step, k, kr[k], ks[k])
			}
		}
	}
	solves := 0
	n10 := 0
	for i := 0; i < 150; i++ {
		a := randShape(rng, 10)
		b := a
		if i%3 == 1 {
			b = randShape(rng, 10).Scaled(0.5 + rng.Float64())
		}
		if i%4 == 0 { // n1 = n2 = 10 on both: the SSE2 pair path (evalW2SSE2)
			a.N1, a.N2, b.N1, b.N2 = 10, 10, 10, 10
			n10++
		}
		L := min(max(a.A, a.B, a.C), max(b.A, b.B, b.C))
		qa, qb := a.Prepare(), b.Prepare()
		pa := Pose{X: geom.Vec3{X: rng.NormFloat64() * 0.1}, Q: randQuat(rng)}
		qbo := randQuat(rng)
		u := randDir(rng)
		dist := (0.6 + 0.8*rng.Float64()) * (max(a.A, a.B, a.C) + max(b.A, b.B, b.C)) / 2
		var chR, chS Chord
		var warmR, warmS *geom.Vec3
		var rr, rs ContactResult
		for step := 0; step < 22; step++ {
			eps := L * math.Pow(10, -6+3*rng.Float64())
			pb := Pose{X: pa.X.Add(u.Scale(dist)).Add(randDir(rng).Scale(eps)),
				Q: qbo.Mul(geom.QAxisAngle(randDir(rng), eps/L)).Normalize()}
			qa.Place(pa.X, pa.Q)
			qb.Place(pb.X, pb.Q)
			if step == 21 { // a far warm start: the solve may fall back to continuation
				far := geom.Vec3{X: 0.4 * L, Y: -0.3 * L, Z: 0.2 * L}
				warmR, warmS = &far, &far
			}
			if step%7 == 3 {
				fill() // other numbers in the scratch between queries
			}
			ContactPlacedChord(o, &qa, &qb, geom.Vec3{}, warmR, &chR, &rr)
			ContactPlacedScratch(o, &qa, &qb, geom.Vec3{}, warmS, &chS, &sc, &rs)
			check(i, step, &rr, &rs, &chR, &chS)
			solves++
			if rr.Converged {
				lr, ls := rr.Local, rs.Local
				warmR, warmS = &lr, &ls
			} else {
				warmR, warmS = nil, nil
				chR.Reset()
				chS.Reset()
			}
		}
	}
	if n10 == 0 {
		t.Fatal("no n = 10 pairs")
	}
	if solves == 0 {
		t.Fatal("no solves")
	}
}
