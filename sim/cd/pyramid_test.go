package cd

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestPyramidGeometry(t *testing.T) {
	p := BuildPyramid(PaperPyramid())
	if len(p.Centres) != 2870 || len(p.Bodies) != 2470 || len(p.Contacts) != 14440 {
		t.Fatalf("%d spheres, %d bodies, %d contacts; want 2870, 2470, 14440", len(p.Centres), len(p.Bodies), len(p.Contacts))
	}
	deg := make([]int, len(p.Centres))
	for i, c := range p.Contacts {
		if math.Abs(c.Gap) > 1e-15 || math.Abs(c.N.Norm()-1) > 1e-15 {
			t.Fatalf("contact %d: gap %g, |n| = %g", i, c.Gap, c.N.Norm())
		}
		deg[p.Pairs[i][0]]++
		deg[p.Pairs[i][1]]++
	}
	// An interior sphere (layer 5, well inside) has twelve neighbours (S3 §8.2).
	for s := range p.Centres {
		if p.Layer[s] == 5 && p.IJ[s] == [2]int{7, 7} && deg[s] != 12 {
			t.Errorf("interior sphere has %d contacts, want 12", deg[s])
		}
	}
}

// symmetryError returns the largest difference between the grid and its
// images under the eight symmetries of the square, relative to its maximum.
func symmetryError(g [][]float64) float64 {
	n := len(g)
	var e, m float64
	for i := range n {
		for j := range n {
			m = math.Max(m, math.Abs(g[i][j]))
			for _, v := range []float64{g[j][i], g[n-1-i][j], g[i][n-1-j], g[n-1-j][n-1-i]} {
				e = math.Max(e, math.Abs(g[i][j]-v))
			}
		}
	}
	return e / m
}

func gridString(g [][]float64, unit float64, quarter bool) string {
	var b strings.Builder
	n := len(g)
	hi := n
	if quarter {
		hi = (n + 1) / 2
	}
	for i := range hi {
		for j := range hi {
			fmt.Fprintf(&b, "%7.3f", g[i][j]/unit)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func gridTotal(g [][]float64) float64 {
	var s float64
	for _, r := range g {
		for _, v := range r {
			s += v
		}
	}
	return s
}

// checkStatic asserts the compatible forces of a pyramid at rest: f ≥ 0, each
// sphere in equilibrium (|Σf n + m g| ≤ 1e-8 mg), floor reactions summing to
// the weight and symmetric under the square's symmetries.
func checkStatic(t *testing.T, name string, p *Pyramid, s *System, f []float64) [][]float64 {
	t.Helper()
	mg := p.SphereWeight()
	net := s.MulBT(f)
	ext := s.External()
	var worst float64
	for a := range p.Bodies {
		var fn, tn float64
		for k := range 3 {
			fn += math.Pow(net[6*a+k]+ext[6*a+k], 2)
			tn += math.Pow(net[6*a+3+k]+ext[6*a+3+k], 2)
		}
		worst = math.Max(worst, math.Max(math.Sqrt(fn), math.Sqrt(tn)/p.Spec.Radius)/mg)
	}
	for i, x := range f {
		if x < 0 {
			t.Errorf("%s: contact %d in tension: %g", name, i, x)
		}
	}
	g := p.FloorReaction(f)
	tot := gridTotal(g)
	sym := symmetryError(g)
	t.Logf("%s: worst sphere out-of-balance %.2e mg; floor total %.12g = %.12f × weight; asymmetry %.2e",
		name, worst, tot, tot/p.Weight(), sym)
	if worst > 1e-8 {
		t.Errorf("%s: sphere out of balance by %g mg", name, worst)
	}
	if math.Abs(tot-p.Weight()) > 1e-10*p.Weight() {
		t.Errorf("%s: floor reaction %g, weight %g", name, tot, p.Weight())
	}
	if sym > 1e-6 {
		t.Errorf("%s: floor reaction asymmetric by %g", name, sym)
	}
	return g
}

// TestPyramidCompatible: the compatible forces of the S3 §8.2 pyramid at
// rest, Hookean (active-set QP) and Hertzian (augmented Lagrangian), each
// cross-checked against the other method.
func TestPyramidCompatible(t *testing.T) {
	for _, law := range []Law{Hookean, Hertzian} {
		spec := PaperPyramid()
		spec.Law = law
		p := BuildPyramid(spec)
		s, err := NewSystem(p.Bodies, p.Contacts)
		if err != nil {
			t.Fatal(err)
		}
		load := s.StaticLoad()
		r, err := s.Compatible(load, CompatOptions{Tol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		auto := CompatActiveSet
		other := CompatAugLag
		if law == Hertzian {
			auto, other = other, auto
		}
		t.Logf("%v via %v: %d outer, %d inner iterations, residual %.2e, converged %v", law, auto, r.Iter, r.Inner, r.Residual, r.Converged)
		if !r.Converged {
			t.Errorf("%v: not converged", law)
		}
		g := checkStatic(t, law.String(), p, s, r.F)
		mg := p.SphereWeight()
		t.Logf("%v floor reactions / mg (quarter, corner at top left):\n%s", law, gridString(g, mg, true))
		// Cross-check with the other method.
		r2, _ := s.Compatible(load, CompatOptions{Method: other, Tol: 1e-10})
		var d float64
		for i := range r.F {
			d = math.Max(d, math.Abs(r.F[i]-r2.F[i]))
		}
		t.Logf("%v: %v and %v differ by at most %.2e mg (%d outer, %d inner)", law, auto, other, d/mg, r2.Iter, r2.Inner)
		if d > 1e-7*mg {
			t.Errorf("%v: methods differ by %g mg", law, d/mg)
		}
	}
}

// TestPyramidAlgorithm1 runs S3 Algorithm 1 on the pyramid at rest (Δt =
// 1 ms as in S3 §8.2): classic CD by APGD and by PGS, then the compatibility
// step from each F̃ = Bᵀf. The compatible forces do not depend on the CD
// solver; the classic ones do, and differ from the compatible floor reactions
// (S3 Table 1 reports 0.17 and 0.19 against DEM).
func TestPyramidAlgorithm1(t *testing.T) {
	p := BuildPyramid(PaperPyramid())
	s, _ := NewSystem(p.Bodies, p.Contacts)
	ref, _ := s.Compatible(s.StaticLoad(), CompatOptions{})
	gref := p.FloorReaction(ref.F)
	mg := p.SphereWeight()
	var comp [][][]float64
	for _, m := range []Method{APGD, PGS} {
		cd, err := s.Step(StepOptions{Dt: 1e-3, Method: m, Tol: 1e-7, MaxIter: 20000})
		if err != nil {
			t.Fatal(err)
		}
		var vmax float64
		for _, v := range cd.V {
			vmax = math.Max(vmax, v.Norm())
		}
		g := p.FloorReaction(cd.F)
		r, _ := s.Compatible(cd.Load, CompatOptions{})
		gc := p.FloorReaction(r.F)
		var fd float64
		for i := range r.F {
			fd = math.Max(fd, math.Abs(r.F[i]-ref.F[i]))
		}
		t.Logf("%v: %d iterations, residual %.1e, max |v⁺| %.1e m/s; floor vs compatible: rel. error %.3f, asymmetry %.1e; compatible from it: max |Δf| %.1e mg",
			m, cd.Iter, cd.Residual, vmax, relErr(g, gref), symmetryError(g), fd/mg)
		if !cd.Converged || vmax > 1e-6 {
			t.Errorf("%v: CD did not reach rest (residual %g, |v⁺| %g)", m, cd.Residual, vmax)
		}
		if fd > 1e-4*mg {
			t.Errorf("%v: compatible forces depend on the CD solver: %g mg", m, fd/mg)
		}
		if m == PGS {
			t.Logf("PGS floor reactions / mg (full grid):\n%s", gridString(g, mg, false))
		}
		comp = append(comp, gc)
	}
	if e := relErr(comp[0], comp[1]); e > 1e-6 {
		t.Errorf("compatible floor after APGD and after PGS differ by %g", e)
	}
}

// relErr returns ‖a − b‖/‖b‖ over the grid (S3 Table 1).
func relErr(a, b [][]float64) float64 {
	var n, d float64
	for i := range a {
		for j := range a[i] {
			n += (a[i][j] - b[i][j]) * (a[i][j] - b[i][j])
			d += b[i][j] * b[i][j]
		}
	}
	return math.Sqrt(n / d)
}
