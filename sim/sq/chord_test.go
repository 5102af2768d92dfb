package sq

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"grainlab/sim/geom"
)

// TestLU4Solve: factor4 then solve gives x with ‖Mx − r‖ ≤ 1e-12·‖M‖‖x‖ on
// 5 000 random systems shaped like the Newton system of S1 §2.3 (a
// symmetric 3×3 block, a border column and row, a zero corner), scaled over
// six decades so that every pivot swap occurs; a swap or multiplier
// replayed wrongly fails it. A zero pivot is refused.
func TestLU4Solve(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(5)))
	swaps := [6]int{}
	for k := 0; k < 5000; k++ {
		var m [4][5]float64
		s := math.Pow(10, 6*rng.Float64()-3)
		for i := 0; i < 3; i++ {
			for j := i; j < 3; j++ {
				m[i][j] = s * rng.NormFloat64()
				m[j][i] = m[i][j]
			}
			m[i][3], m[3][i] = rng.NormFloat64(), rng.NormFloat64()
		}
		var f lu4
		if !factor4(&m, &f) {
			t.Fatalf("case %d: singular %v", k, m)
		}
		for i, b := range f.sw {
			if b {
				swaps[i]++
			}
		}
		r := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		x := f.solve(r)
		mn, xn, res := 0.0, 0.0, 0.0
		for i := 0; i < 4; i++ {
			ri := -r[i]
			for j := 0; j < 4; j++ {
				ri += m[i][j] * x[j]
				mn = max(mn, math.Abs(m[i][j]))
			}
			res = max(res, math.Abs(ri))
			xn = max(xn, math.Abs(x[i]))
		}
		if res > 1e-12*mn*xn*4 {
			t.Fatalf("case %d: residual %g (‖M‖ %g, ‖x‖ %g)", k, res, mn, xn)
		}
	}
	for i, n := range swaps {
		if n == 0 {
			t.Fatalf("swap %d never taken: %v", i, swaps)
		}
	}
	var z [4][5]float64
	if factor4(&z, new(lu4)) {
		t.Fatal("zero matrix factored")
	}
}

// TestChordContact: a pair rocking as in a settled bed (B moved by 1e-6 to
// 1e-3 of the particle size and turned alike at each of 30 calls, 200 random
// pairs in contact, n up to 10): ContactPlacedChord, which starts each solve
// with the Jacobian kept from the last, meets the same tolerance as
// ContactPlaced (‖Φ‖ of S1 eq. 24 at its point, by Shape.EvalWorld) and
// agrees with it to the tolerance's effect — contact points within 1e-6 and
// overlaps within 1e-9 of the particle size, normals within 1e-6. It fails
// if a chord step is kept without the convergence test.
func TestChordContact(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(23)))
	o := Options{Tol: 1e-8, MaxIter: 60}
	chords, calls, iterChord, iterPlain := 0, 0, 0, 0
	for i := 0; i < 200; i++ {
		a := randShape(rng, 10)
		b := a
		if i%2 == 1 {
			b = randShape(rng, 10).Scaled(0.5 + rng.Float64())
		}
		L := min(max(a.A, a.B, a.C), max(b.A, b.B, b.C))
		qa, qb := a.Prepare(), b.Prepare()
		pa := Pose{X: geom.Vec3{X: rng.NormFloat64() * 0.1}, Q: randQuat(rng)}
		qbo := randQuat(rng)
		// B's centre where the pair just overlaps along a random direction.
		u := randDir(rng)
		lo, hi := 0.0, max(a.A, a.B, a.C)+max(b.A, b.B, b.C)
		for k := 0; k < 60; k++ {
			mid := (lo + hi) / 2
			pb := Pose{X: pa.X.Add(u.Scale(mid)), Q: qbo}
			if r := Contact(a, pa, b, pb, nil); r.Converged && r.InContact {
				lo = mid
			} else {
				hi = mid
			}
		}
		dist := lo - 2e-3*L
		var ch Chord
		var warmC, warmP *geom.Vec3
		var rc, rp ContactResult
		for step := 0; step < 30; step++ {
			eps := L * math.Pow(10, -6+3*rng.Float64())
			pb := Pose{X: pa.X.Add(u.Scale(dist)).Add(randDir(rng).Scale(eps)),
				Q: qbo.Mul(geom.QAxisAngle(randDir(rng), eps/L)).Normalize()}
			qa.Place(pa.X, pa.Q)
			qb.Place(pb.X, pb.Q)
			if warmC == nil {
				ch.Reset()
			}
			hadChord := ch.ok
			ContactPlacedChord(o, &qa, &qb, geom.Vec3{}, warmC, &ch, &rc)
			ContactPlaced(o, &qa, &qb, geom.Vec3{}, warmP, &rp)
			if !rc.Converged || !rp.Converged {
				t.Fatalf("case %d step %d: converged chord %v plain %v", i, step, rc.Converged, rp.Converged)
			}
			// the tolerance, checked independently at the returned point
			fa, ga, _ := a.EvalWorld(pa, rc.Point)
			fb, gb, _ := b.EvalWorld(pb, rc.Point)
			mu2 := ga.Norm() / gb.Norm()
			if g := ga.Add(gb.Scale(mu2)).Scale(L); math.Abs(fa-fb) > 1e-8 || g.Norm() > 1e-8*max(1, ga.Norm()*L) {
				t.Fatalf("case %d step %d: ‖Φ‖ at the chord point: |F_A − F_B| %g, gradient rows %g", i, step, math.Abs(fa-fb), g.Norm())
			}
			if d := rc.Point.Sub(rp.Point).Norm(); d > 1e-6*L {
				t.Fatalf("case %d step %d: midway points %g·L apart", i, step, d/L)
			}
			if d := math.Abs(rc.Gap - rp.Gap); d > 1e-9*L {
				t.Fatalf("case %d step %d: gaps differ by %g·L", i, step, d/L)
			}
			if d := rc.Normal.Sub(rp.Normal).Norm(); d > 1e-6 {
				t.Fatalf("case %d step %d: normals differ by %g", i, step, d)
			}
			if hadChord {
				chords++
				iterChord += rc.Iter
				iterPlain += rp.Iter
			}
			calls++
			wc, wp := rc.Local, rp.Local
			warmC, warmP = &wc, &wp
		}
	}
	if chords < calls/2 {
		t.Fatalf("a kept Jacobian in %d of %d calls", chords, calls)
	}
	t.Logf("%d calls, %d with a kept Jacobian: %d iterations (chord + full) against %d full", calls, chords, iterChord, iterPlain)
}

// TestChordState: State and ChordOf round-trip a kept Jacobian to the bit
// (the solve of a random right-hand side is the same), and ChordOf refuses
// a non-finite number, a swap code that is not an integer in 0…63 and a
// zero pivot, naming it.
func TestChordState(t *testing.T) {
	m := [4][5]float64{{1e-3, 2, 0.5, 0.1}, {2, 1e-4, 0.3, -0.2}, {0.5, 0.3, 3, 0.7}, {0.4, -1, 2, 0}}
	var c Chord
	if _, ok := c.State(); ok {
		t.Fatal("an empty Chord has a state")
	}
	if !factor4(&m, &c.f) {
		t.Fatal("not factored")
	}
	c.ok = true
	s, ok := c.State()
	if !ok {
		t.Fatal("no state")
	}
	d, err := ChordOf(s)
	if err != nil || d != c {
		t.Fatalf("round trip: %v, %+v against %+v", err, d, c)
	}
	r := [4]float64{0.3, -1, 2, 0.25}
	if d.f.solve(r) != c.f.solve(r) {
		t.Fatal("restored factors solve differently")
	}
	for _, bad := range []struct {
		i    int
		v    float64
		want string
	}{{3, math.NaN(), "number 3"}, {0, 64, "pivot swaps"}, {0, 1.5, "pivot swaps"}, {0, -1, "pivot swaps"}, {16, 0, "zero pivot"}} {
		b := s
		b[bad.i] = bad.v
		if _, err := ChordOf(b); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Fatalf("number %d = %g: error %v, want %q", bad.i, bad.v, err, bad.want)
		}
	}
}
