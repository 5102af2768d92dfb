package sphere

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// cloud returns n spheres of radii 0.5–1 packed densely at random in a box
// (many overlaps), with random velocities and spins, and the list of all
// their pairs.
func cloud(n int, seed int64, gn float64) (*Flat, *List, []float64, []float64) {
	rng := rand.New(rand.NewSource(seed))
	var s Flat
	s.Resize(n)
	r, m := make([]float64, n), make([]float64, n)
	for k := range s.L {
		r[k] = 0.5 + 0.5*rng.Float64()
		m[k] = r[k] * r[k] * r[k]
		s.L[k] = Lin{X: randVec(rng, 3), V: randVec(rng, 1)}
		s.R[k] = Rot{W: randVec(rng, 1), Q: geom.QIdent()}
	}
	s.SyncX()
	var l List
	l.Resize(n*(n-1)/2, false, false, true)
	l.Class = make([]PairClass, len(l.P))
	p := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			l.Class[p] = NewPairClass(r[i], r[j], m[i], m[j], gn)
			l.SetPair(p, int32(i), int32(j), int32(p))
			l.PrevTouch[p] = false
			p++
		}
	}
	return &s, &l, r, m
}

// sameBits reports whether two states have bit-identical forces and moments.
func sameBits(a, b *Flat) bool {
	for k := range a.L {
		if a.L[k].F != b.L[k].F || a.R[k].T != b.R[k].T {
			return false
		}
	}
	return true
}

// clone returns a copy of s.
func clone(s *Flat) *Flat {
	c := &Flat{States: States{L: append([]Lin(nil), s.L...), R: append([]Rot(nil), s.R...)}, X: append([]geom.Vec3(nil), s.X...)}
	return c
}

// List.Hooke, the sphere path's specialised Hookean kernel, pinned to
// law.Smooth pair by pair (SphereSphere, law.Smooth.Normal with v_n =
// (v_I − v_J)·n, S2 eq. 20): forces within 1e-12 relative, energies and contact counts
// exact; the split evaluation (FP, then Gather in pair order) gives the same
// bits as direct sums.
func TestHookeKernel(t *testing.T) {
	for _, limit := range []bool{false, true} {
		hookeKernel(t, limit)
	}
}

// hookeKernel is TestHookeKernel with or without limit_damping; it also
// checks that some pair's dashpot outweighs its spring, so that both
// variants are exercised (a tensile force without the clamp).
func hookeKernel(t *testing.T, limit bool) {
	const kn, gn = 1e4, 2e4 // strong damping: some pairs separate fast enough to pull
	s, l, r, m := cloud(60, 1, gn)
	ref := clone(s)
	wantN, wantE, tensile := 0, 0.0, 0
	for k := range l.P {
		p := &l.P[k]
		a, b := &ref.L[p.I], &ref.L[p.J]
		ov, n, _, ok := SphereSphere(a.X, b.X, r[p.I], r[p.J])
		if !ok {
			continue
		}
		meff := law.EquivalentMass(m[p.I], m[p.J])
		hooke := law.Smooth{Model: law.HookeLAMMPS, Kn: kn, GammaN: gn, LimitDamping: limit}
		nf := hooke.Normal(ov, a.V.Sub(b.V).Dot(n), meff, 0)
		fn := nf.Fn
		if kn*ov-meff*gn*a.V.Sub(b.V).Dot(n) < 0 {
			tensile++
		}
		f := n.Scale(fn)
		a.F, b.F = a.F.Add(f), b.F.Sub(f)
		wantN++
		wantE += nf.Epot
	}
	direct := clone(s)
	n, e := l.Hooke(direct, 0, len(l.P), kn, limit, true)
	if n != wantN || n == 0 || tensile == 0 || math.Abs(e-wantE) > 1e-12*wantE {
		t.Fatalf("limit %v: %d contacts (%d tensile), energy %g; want %d, %g", limit, n, tensile, e, wantN, wantE)
	}
	for k := range l.P {
		if l.Touch[k] && l.Fn[k] < 0 && limit {
			t.Fatalf("pair %d: F_n = %g < 0 with limit_damping", k, l.Fn[k])
		}
	}
	for k := range s.L {
		if d := direct.L[k].F.Sub(ref.L[k].F).Norm(); d > 1e-12*(1+ref.L[k].F.Norm()) || direct.R[k].T != (geom.Vec3{}) {
			t.Fatalf("sphere %d: F = %v, want %v (T = %v)", k, direct.L[k].F, ref.L[k].F, direct.R[k].T)
		}
	}
	split := clone(s)
	var csr CSR
	csr.Build(l, len(s.L))
	l.PrepareSplit()
	half := len(l.P) / 3
	n1, _ := l.Hooke(split, 0, half, kn, limit, false)
	n2, _ := l.Hooke(split, half, len(l.P), kn, limit, false)
	for k := range split.L {
		st, ro := &split.L[k], &split.R[k]
		st.F, ro.T = l.Gather(csr.Inc[csr.Start[k]:csr.Start[k+1]], st.F, ro.T, false)
	}
	if n1+n2 != n || !sameBits(direct, split) {
		t.Error("split evaluation differs from direct sums")
	}
}

// identity returns 0 … n−1: a species a sphere (Smooth's radii by species).
func identity(n int) []int32 {
	s := make([]int32, n)
	for k := range s {
		s[k] = int32(k)
	}
	return s
}

// List.Smooth with friction history and rolling resistance: every pair's
// normal force is law.Smooth's; direct and split evaluations give the same
// bits, forces and moments; momentum (the
// sum of forces) vanishes and every pair's moment balance holds (the sum of
// moments about the origin, Σ x×F + T, vanishes) to rounding.
func TestSmoothKernel(t *testing.T) {
	laws := []law.Smooth{{Model: law.HertzLAMMPS, Kn: 1e5, GammaN: 20, Kt: 3e4, GammaT: 10, Mu: 0.4, MuRoll: 0.02}}
	if err := laws[0].Validate(); err != nil {
		t.Fatal(err)
	}
	s, l, r, _ := cloud(50, 2, 0)
	for k := range l.PrevHist { // some history from an earlier step
		l.PrevTouch[k] = k%3 == 0
		l.PrevHist[k] = law.FrictionState{Gt: geom.V(1e-4, -2e-4, 5e-5), N: geom.V(0, 0, 1)}
	}
	direct := clone(s)
	n, _ := l.Smooth(direct, 0, len(l.P), laws, r, identity(len(r)), 1e-3, true)
	histDirect := append([]law.FrictionState(nil), l.Hist...)
	split := clone(s)
	var csr CSR
	csr.Build(l, len(s.L))
	l.PrepareSplit()
	l.Smooth(split, 0, len(l.P)/2, laws, r, identity(len(r)), 1e-3, false)
	l.Smooth(split, len(l.P)/2, len(l.P), laws, r, identity(len(r)), 1e-3, false)
	for k := range split.L {
		st, ro := &split.L[k], &split.R[k]
		st.F, ro.T = l.Gather(csr.Inc[csr.Start[k]:csr.Start[k+1]], st.F, ro.T, true)
	}
	if n == 0 || !sameBits(direct, split) {
		t.Fatalf("%d contacts; split evaluation differs from direct sums", n)
	}
	for k := range l.Hist {
		if l.Touch[k] && l.Hist[k] != histDirect[k] {
			t.Fatalf("pair %d: history differs between the evaluations", k)
		}
	}
	// Pinned to law.Smooth pair by pair: F_n = Normal(δ, v_n, m_eff, R_eff)
	// with v_n = ġ_n at the contact point (> 0 separating), 1e-12 relative.
	for k := range l.P {
		if !l.Touch[k] {
			continue
		}
		p := &l.P[k]
		a, b := &s.L[p.I], &s.L[p.J]
		ov, nrm, pt, _ := SphereSphere(a.X, b.X, r[p.I], r[p.J])
		pt = geom.Lerp(pt.AddScaled(-0.5*ov, nrm), pt.AddScaled(0.5*ov, nrm), 0.5)
		vrel := a.V.Add(s.R[p.I].W.Cross(pt.Sub(a.X))).Sub(b.V.Add(s.R[p.J].W.Cross(pt.Sub(b.X))))
		want := laws[0].Normal(ov, vrel.Dot(nrm), l.ClassOf(k).MEff, law.Reduced(r[p.I], r[p.J])).Fn
		if math.Abs(l.Fn[k]-want) > 1e-12*math.Abs(want) || l.Delta[k] != ov {
			t.Fatalf("pair %d: F_n = %.17g, law.Smooth %.17g (δ %g, %g)", k, l.Fn[k], want, l.Delta[k], ov)
		}
	}
	var f, L geom.Vec3
	scale := 0.0
	for k, st := range direct.L {
		f = f.Add(st.F)
		L = L.Add(st.X.Cross(st.F)).Add(direct.R[k].T)
		scale = max(scale, st.F.Norm())
	}
	if f.Norm() > 1e-12*scale*float64(n) || L.Norm() > 1e-11*scale*float64(n) {
		t.Errorf("Σ F = %v, Σ (x×F + T) = %v (largest |F| %g)", f, L, scale)
	}
}
