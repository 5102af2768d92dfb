package integrate

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
	"grainlab/sim/world"
)

// kickOdd is a pool of adversarial values for the kick loops' inputs: NaNs
// of both signs and other payloads, ±Inf, ±0, subnormals, extremes.
var kickOdd = []float64{
	math.NaN(), -math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000123),
	math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64,
	1, -1, 0.5, 1e-300, 1e300,
}

// kickVal is a random value, odd with probability odd.
func kickVal(r *rand.Rand, odd float64) float64 {
	if r.Float64() < odd {
		return kickOdd[r.Intn(len(kickOdd))]
	}
	return (r.Float64()*2 - 1) * math.Pow(10, float64(r.Intn(8)-4))
}

func kickVec(r *rand.Rand, odd float64) geom.Vec3 {
	return geom.Vec3{X: kickVal(r, odd), Y: kickVal(r, odd), Z: kickVal(r, odd)}
}

// kickSpecs is n species in runs of random length (some of one sphere),
// among k species.
func kickSpecs(r *rand.Rand, n, k int) []int32 {
	spec := make([]int32, n)
	sp := int32(r.Intn(k))
	for i := range spec {
		if r.Intn(6) == 0 {
			sp = int32(r.Intn(k))
		}
		spec[i] = sp
	}
	return spec
}

// bitsEq: a and b have the same bits, or are both NaN (which NaN a result
// of two NaN operands is, Go leaves unspecified: x86 returns the first
// operand's, and the register allocator orders them; kick_amd64.s follows
// the twins' compiled order, which matched at session 19).
func bitsEq(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b)
}

func vecBitsEq(a, b geom.Vec3) bool { return bitsEq(a.X, b.X) && bitsEq(a.Y, b.Y) && bitsEq(a.Z, b.Z) }

func linBitsEq(a, b sphere.Lin) bool {
	return vecBitsEq(a.X, b.X) && vecBitsEq(a.V, b.V) && vecBitsEq(a.F, b.F)
}

func sumsBitsEq(a, b kickSums) bool {
	return bitsEq(a.Ekin, b.Ekin) && bitsEq(a.Egrav, b.Egrav) && bitsEq(a.Max.V2, b.Max.V2) && bitsEq(a.Max.F2, b.Max.F2) &&
		bitsEq(a.FSum, b.FSum)
}

// TestKickRunMatchesGo: kickRun (on amd64 v1 the SSE2 loop of
// kick_amd64.s) gives kickRunGo's bits — velocities, energies, maxima, the
// force test's sum (FSum; its finiteness is the test's answer) and the
// count done — on random and adversarial inputs (NaN, ±Inf, ±0,
// subnormals), lengths 0, 1, odd and even, species changing inside the
// slice and a first sphere of another species (nothing done).
func TestKickRunMatchesGo(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	lengths := []int{0, 1, 2, 3, 5, 8, 31, 256, 257}
	for trial := 0; trial < 3000; trial++ {
		n := lengths[trial%len(lengths)]
		odd := []float64{0, 0.05, 0.5}[trial%3]
		spec := kickSpecs(r, n, 3)
		tl := kickLins(r, n, odd)
		hm, m := []float64{kickVal(r, odd), kickVal(r, odd), kickVal(r, odd)}, []float64{kickVal(r, odd), kickVal(r, odd), kickVal(r, odd)}
		g := kickVec(r, odd)
		s := kickSums{Ekin: kickVal(r, odd), Egrav: kickVal(r, odd)}
		s.Max.V2, s.Max.F2 = kickVal(r, odd), kickVal(r, odd)
		if trial%4 != 0 {
			s.FSum = kickVal(r, odd)
		}
		want, wantS := append([]sphere.Lin(nil), tl...), s
		for i := 0; i <= n; {
			cur := int32(r.Intn(3))
			if i < n && r.Intn(4) != 0 {
				cur = spec[i]
			}
			k := kickRun(tl[i:], spec[i:], cur, hm[cur], m[cur], &g, &s)
			kw := kickRunGo(want[i:], spec[i:], cur, hm[cur], m[cur], &g, &wantS)
			if k != kw {
				t.Fatalf("trial %d at %d: %d spheres done, Go %d", trial, i, k, kw)
			}
			if !sumsBitsEq(s, wantS) {
				t.Fatalf("trial %d at %d: sums %+v, Go %+v", trial, i, s, wantS)
			}
			for j := range tl {
				if !linBitsEq(tl[j], want[j]) {
					t.Fatalf("trial %d sphere %d: %+v, Go %+v", trial, j, tl[j], want[j])
				}
			}
			if i == n {
				break
			}
			i += k
		}
	}
}

// TestDriftRunMatchesGo: driftRun (on amd64 v1 the SSE2 loop of
// kick_amd64.s) gives driftRunGo's bits — trial states, centres and the
// count done — on the same inputs as TestKickRunMatchesGo, every other
// trial with the non-temporal stores (driftNTSSE2).
func TestDriftRunMatchesGo(t *testing.T) {
	r := rand.New(rand.NewSource(19))
	lengths := []int{0, 1, 2, 3, 5, 8, 31, 256, 257}
	for trial := 0; trial < 3000; trial++ {
		n := lengths[trial%len(lengths)]
		odd := []float64{0, 0.05, 0.5}[trial%3]
		spec := kickSpecs(r, n, 3)
		al := kickLins(r, n, odd)
		tl, want := make([]sphere.Lin, n), make([]sphere.Lin, n)
		X, wantX := make([]geom.Vec3, n), make([]geom.Vec3, n)
		for i := range tl {
			tl[i] = sphere.Lin{X: kickVec(r, 0.5), V: kickVec(r, 0.5), F: kickVec(r, 0.5)}
			X[i] = kickVec(r, 0.5)
		}
		copy(want, tl)
		copy(wantX, X)
		hm := []float64{kickVal(r, odd), kickVal(r, odd), kickVal(r, odd)}
		dt := kickVal(r, odd)
		mg := []geom.Vec3{kickVec(r, odd), kickVec(r, odd), kickVec(r, odd)}
		for i := 0; i <= n; {
			cur := int32(r.Intn(3))
			if i < n && r.Intn(4) != 0 {
				cur = spec[i]
			}
			k := driftRun(tl[i:], al[i:], X[i:], spec[i:], cur, hm[cur], dt, &mg[cur], trial%2 == 1)
			kw := driftRunGo(want[i:], al[i:], wantX[i:], spec[i:], cur, hm[cur], dt, &mg[cur])
			if k != kw {
				t.Fatalf("trial %d at %d: %d spheres done, Go %d", trial, i, k, kw)
			}
			for j := range tl {
				if !linBitsEq(tl[j], want[j]) || !vecBitsEq(X[j], wantX[j]) {
					t.Fatalf("trial %d sphere %d: %+v %v, Go %+v %v", trial, j, tl[j], X[j], want[j], wantX[j])
				}
			}
			if i == n {
				break
			}
			i += k
		}
	}
}

// kickLins returns n random translational states for the loops' tests
// (kickVec's values: adversarial with probability odd).
func kickLins(r *rand.Rand, n int, odd float64) []sphere.Lin {
	ls := make([]sphere.Lin, n)
	for i := range ls {
		ls[i] = sphere.Lin{X: kickVec(r, odd), V: kickVec(r, odd), F: kickVec(r, odd)}
	}
	return ls
}

// TestSphereKickDriftNT: sphereKickDrift without the list test takes the
// non-temporal stores by the bytes of the whole system (driftNT of
// SphereDrift.N: a block of 1000 spheres of a system of 4000 takes them
// with driftNTMin at 4000·96 bytes wherever the block is, not at one byte
// more) and gives the Go twin's bits either way (driftRunGo per run of a
// species), on blocks that are sub-slices of larger arrays as the world's
// are.
func TestSphereKickDriftNT(t *testing.T) {
	defer func(m int) { driftNTMin = m }(driftNTMin)
	if !driftNT(1000000) || driftNT(100000) {
		t.Fatalf("driftNTMin %d: not between 10⁵ and 10⁶ spheres' trial states and centres", driftNTMin)
	}
	const n, blk = 4000, 1000
	r := rand.New(rand.NewSource(20))
	spec := kickSpecs(r, n, 3)
	kin := []world.SphereKin{{InvM: 2}, {InvM: 0.5}, {InvM: 1e3}}
	for k := range kin {
		kin[k].Weight = kickVec(r, 0)
	}
	al := kickLins(r, n, 0.05)
	for _, c := range []struct {
		min, lo, sys int
		nt           bool
	}{{n * 96, 0, n, true}, {n*96 + 1, 0, n, false}, {n * 96, n - blk, n, true}, {blk * 96, n - blk, blk - 1, false}} {
		driftNTMin = c.min
		if got := driftNT(c.sys); got != c.nt {
			t.Fatalf("min %d block at %d: nt %v, want %v", c.min, c.lo, got, c.nt)
		}
		tl, X := kickLins(r, n, 0.5), make([]geom.Vec3, n)
		want, wantX := append([]sphere.Lin(nil), tl...), append([]geom.Vec3(nil), X...)
		dt := 1e-4
		d := world.SphereDrift{Kin: kin, Spec: spec[c.lo : c.lo+blk], Dt: dt, N: c.sys,
			Acc: sphere.States{L: al[c.lo : c.lo+blk]}, Tr: sphere.States{L: tl[c.lo : c.lo+blk]}, X: X[c.lo : c.lo+blk]}
		sphereKickDrift(&d)
		for i := c.lo; i < c.lo+blk; {
			sp := spec[i]
			i += driftRunGo(want[i:c.lo+blk], al[i:], wantX[i:], spec[i:c.lo+blk], sp, 0.5*dt*kin[sp].InvM, dt, &kin[sp].Weight)
		}
		for j := range tl {
			if !linBitsEq(tl[j], want[j]) || !vecBitsEq(X[j], wantX[j]) {
				t.Fatalf("min %d block at %d, sphere %d: %+v %v, Go %+v %v", c.min, c.lo, j, tl[j], X[j], want[j], wantX[j])
			}
		}
	}
}

// TestKickRun1MatchesGo: kickRun1 (on amd64 v1 kick1SSE2, which does not
// read the species) gives kickRunGo's bits over a system of one species —
// velocities, energies, maxima, FSum and the count done (all of them) — on
// random and adversarial inputs, lengths 1 to 257.
func TestKickRun1MatchesGo(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	lengths := []int{0, 1, 2, 3, 5, 8, 31, 256, 257}
	for trial := 0; trial < 3000; trial++ {
		n := lengths[trial%len(lengths)]
		odd := []float64{0, 0.05, 0.5}[trial%3]
		spec := make([]int32, n)
		tl := kickLins(r, n, odd)
		hm, m, g := kickVal(r, odd), kickVal(r, odd), kickVec(r, odd)
		s := kickSums{Ekin: kickVal(r, odd), Egrav: kickVal(r, odd), FSum: kickVal(r, odd)}
		s.Max.V2, s.Max.F2 = kickVal(r, odd), kickVal(r, odd)
		want, wantS := append([]sphere.Lin(nil), tl...), s
		k := kickRun1(tl, spec, 0, hm, m, &g, &s)
		kw := kickRunGo(want, spec, 0, hm, m, &g, &wantS)
		if k != kw || k != n {
			t.Fatalf("trial %d: %d spheres done, Go %d, of %d", trial, k, kw, n)
		}
		if !sumsBitsEq(s, wantS) {
			t.Fatalf("trial %d: sums %+v, Go %+v", trial, s, wantS)
		}
		for j := range tl {
			if !linBitsEq(tl[j], want[j]) {
				t.Fatalf("trial %d sphere %d: %+v, Go %+v", trial, j, tl[j], want[j])
			}
		}
	}
}

// TestDriftRun1MatchesGo: driftRun1 (on amd64 v1 drift1SSE2: the species
// not read, the trial state addressed from the accepted one's pointer)
// gives driftRunGo's bits over a system of one species — trial states,
// centres, the count done — and writes nothing past the spheres given
// (a guard sphere after them in tl and X stays as it was).
func TestDriftRun1MatchesGo(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	lengths := []int{0, 1, 2, 3, 5, 8, 31, 256, 257}
	for trial := 0; trial < 3000; trial++ {
		n := lengths[trial%len(lengths)]
		odd := []float64{0, 0.05, 0.5}[trial%3]
		spec := make([]int32, n)
		al := kickLins(r, n+1, odd)
		tl, want := kickLins(r, n+1, 0.5), make([]sphere.Lin, n+1)
		X, wantX := make([]geom.Vec3, n+1), make([]geom.Vec3, n+1)
		for i := range X {
			X[i] = kickVec(r, 0.5)
		}
		copy(want, tl)
		copy(wantX, X)
		hm, dt, mg := kickVal(r, odd), kickVal(r, odd), kickVec(r, odd)
		k := driftRun1(tl, al, X, spec, 0, hm, dt, &mg)
		kw := driftRunGo(want, al, wantX, spec, 0, hm, dt, &mg)
		if k != kw || k != n {
			t.Fatalf("trial %d: %d spheres done, Go %d, of %d", trial, k, kw, n)
		}
		for j := range tl {
			if !linBitsEq(tl[j], want[j]) || !vecBitsEq(X[j], wantX[j]) {
				t.Fatalf("trial %d sphere %d: %+v %v, Go %+v %v", trial, j, tl[j], X[j], want[j], wantX[j])
			}
		}
	}
}

// TestKickRun1NMatchesGo: kickRun1N (lazy energies; on amd64 v1
// kick1NSSE2) gives kickRunGoN's bits over a system of one species —
// velocities, maxima, FSum, the count done — and leaves Ekin and Egrav as
// they were; and kickRunGoN gives kickRunGo's velocities, maxima, FSum and
// count (the same loop less the energies) on random and adversarial
// inputs (NaN and ±Inf forces among them), several species included (it
// stops where kickRunGo stops), lengths odd and even (kick1NSSE2 goes two
// spheres a turn), writing nothing past the spheres given.
func TestKickRun1NMatchesGo(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	lengths := []int{0, 1, 2, 3, 5, 8, 31, 256, 257}
	for trial := 0; trial < 3000; trial++ {
		n := lengths[trial%len(lengths)]
		odd := []float64{0, 0.05, 0.5}[trial%3]
		spec := make([]int32, n)
		if trial%2 == 1 {
			spec = kickSpecs(r, n, 3)
		}
		tl := kickLins(r, n, odd)
		hm, m, g := kickVal(r, odd), kickVal(r, odd), kickVec(r, odd)
		s := kickSums{Ekin: kickVal(r, odd), Egrav: kickVal(r, odd), FSum: kickVal(r, odd)}
		s.Max.V2, s.Max.F2 = kickVal(r, odd), kickVal(r, odd)
		goN, goNS := append([]sphere.Lin(nil), tl...), s
		full, fullS := append([]sphere.Lin(nil), tl...), s
		cur := int32(0)
		if n > 0 {
			cur = spec[0]
		}
		kn := kickRunGoN(goN, spec, cur, hm, &goNS)
		kf := kickRunGo(full, spec, cur, hm, m, &g, &fullS)
		if kn != kf || !bitsEq(goNS.Max.V2, fullS.Max.V2) || !bitsEq(goNS.Max.F2, fullS.Max.F2) || !bitsEq(goNS.FSum, fullS.FSum) ||
			math.Float64bits(goNS.Ekin) != math.Float64bits(s.Ekin) || math.Float64bits(goNS.Egrav) != math.Float64bits(s.Egrav) {
			t.Fatalf("trial %d: kickRunGoN %d %+v, kickRunGo %d %+v (from %+v)", trial, kn, goNS, kf, fullS, s)
		}
		for j := range tl {
			if !linBitsEq(goN[j], full[j]) {
				t.Fatalf("trial %d sphere %d: kickRunGoN %+v, kickRunGo %+v", trial, j, goN[j], full[j])
			}
		}
		if trial%2 == 1 {
			continue // kickRun1N: one species only
		}
		guard := sphere.Lin{X: geom.V(1, 2, 3), V: geom.V(4, 5, 6), F: geom.V(7, 8, 9)}
		asm, asmS := append(append([]sphere.Lin(nil), tl...), guard), s // a sphere past the n given: untouched
		k := kickRun1N(asm, spec, 0, hm, &asmS)
		if asm[n] != guard {
			t.Fatalf("trial %d: the sphere after the %d given changed: %+v", trial, n, asm[n])
		}
		if k != kn || k != n || !sumsBitsEq(asmS, goNS) {
			t.Fatalf("trial %d: kickRun1N %d %+v, Go %d %+v", trial, k, asmS, kn, goNS)
		}
		for j := range tl {
			if !linBitsEq(asm[j], goN[j]) {
				t.Fatalf("trial %d sphere %d: kickRun1N %+v, Go %+v", trial, j, asm[j], goN[j])
			}
		}
	}
}

// TestDriftRun1TMatchesGo: driftRun1T (on amd64 v1 drift1TSSE2) gives
// driftRunGoT's bits over a system of one species — trial states, centres,
// the count done, the list test's two largest squared displacements and
// its finite flag — on random and adversarial states and reference
// positions (NaN, ±Inf, overflowing displacements, ties), from random
// carried values, and writes nothing past the spheres given.
func TestDriftRun1TMatchesGo(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	lengths := []int{0, 1, 2, 3, 5, 8, 31, 256, 257}
	for trial := 0; trial < 3000; trial++ {
		n := lengths[trial%len(lengths)]
		odd := []float64{0, 0.05, 0.5}[trial%3]
		spec := make([]int32, n)
		al := kickLins(r, n+1, odd)
		ref := make([]geom.Vec3, n+1)
		for i := range ref {
			ref[i] = kickVec(r, odd)
			if i < n && r.Intn(8) == 0 { // a tie: the displacement of the sphere before
				ref[i] = al[i].X
			}
		}
		tl, want := kickLins(r, n+1, 0.5), make([]sphere.Lin, n+1)
		X, wantX := make([]geom.Vec3, n+1), make([]geom.Vec3, n+1)
		for i := range X {
			X[i] = kickVec(r, 0.5)
		}
		copy(want, tl)
		copy(wantX, X)
		hm, dt, mg := kickVal(r, odd), kickVal(r, odd), kickVec(r, odd)
		d2 := math.Abs(kickVal(r, 0))
		lt := listTest{D1: d2 + math.Abs(kickVal(r, 0)), D2: d2, Finite: r.Intn(4) > 0}
		if trial%7 == 0 {
			lt.D1, lt.D2 = 0, 0
		}
		wantT := lt
		k := driftRun1T(tl, al, X, ref, spec, 0, hm, dt, &mg, &lt)
		kw := driftRunGoT(want, al, wantX, ref, spec, 0, hm, dt, &mg, &wantT)
		if k != kw || k != n {
			t.Fatalf("trial %d: %d spheres done, Go %d, of %d", trial, k, kw, n)
		}
		if math.Float64bits(lt.D1) != math.Float64bits(wantT.D1) || math.Float64bits(lt.D2) != math.Float64bits(wantT.D2) || lt.Finite != wantT.Finite {
			t.Fatalf("trial %d: list test %+v, Go %+v", trial, lt, wantT)
		}
		for j := range tl {
			if !linBitsEq(tl[j], want[j]) || !vecBitsEq(X[j], wantX[j]) {
				t.Fatalf("trial %d sphere %d: %+v %v, Go %+v %v", trial, j, tl[j], X[j], want[j], wantX[j])
			}
		}
	}
}
