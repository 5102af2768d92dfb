package cd

import (
	"math"
	"testing"

	"grainlab/sim/geom"
)

// beam builds S3 §8.1 in 3D: a rigid platform of length L = 1 (box
// 1 × 0.1 × 0.1, mass 1, g = 10: weight w = 10) resting at rest on three
// fixed supports under x = 0, L/2, L (contact normals +z, gaps 0), with
// relative stiffnesses k̃ and one law for all three contacts.
func beam(t *testing.T, k [3]float64, law Law) *System {
	t.Helper()
	const L, w, h, m = 1.0, 0.1, 0.1, 1.0
	b := Body{
		Mass:    m,
		Inertia: geom.Diag(m*(w*w+h*h)/12, m*(L*L+h*h)/12, m*(L*L+w*w)/12),
		X:       geom.V(L/2, 0, h/2),
		Q:       geom.QIdent(),
		F:       geom.V(0, 0, -10),
	}
	var cs []Contact
	for i, x := range []float64{0, L / 2, L} {
		cs = append(cs, Contact{A: 0, B: -1, P: geom.V(x, 0, 0), N: geom.V(0, 0, 1), K: k[i], Law: law})
	}
	s, err := NewSystem([]Body{b}, cs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func near3(f []float64, want [3]float64, tol float64) bool {
	for i := range want {
		if math.Abs(f[i]-want[i]) > tol {
			return false
		}
	}
	return true
}

// TestBeamClassicCD reproduces S3 §8.1.1 for classic CD: PGS depends on the
// visiting order (middle first gives 0, 10, 0 as in S3 Fig. 1b), APGD from
// zero gives the minimum-norm solution 10/3 each (S3 Fig. 2).
func TestBeamClassicCD(t *testing.T) {
	s := beam(t, [3]float64{1, 1, 1}, Hookean)
	o := StepOptions{Dt: 1e-3, Tol: 1e-12, MaxIter: 100000}
	o.Method, o.Order = PGS, []int{0, 1, 2}
	a, _ := s.Step(o)
	o.Order = []int{1, 0, 2}
	b, _ := s.Step(o)
	o.Method, o.Order = APGD, nil
	c, _ := s.Step(o)
	t.Logf("PGS order 0,1,2: %.6f (%d sweeps); PGS order 1,0,2: %.6f (%d sweeps); APGD: %.9f (%d iterations)",
		a.F, a.Iter, b.F, b.Iter, c.F, c.Iter)
	for _, r := range []StepResult{a, b, c} {
		sum := r.F[0] + r.F[1] + r.F[2]
		if !r.Converged || math.Abs(sum-10) > 1e-9 || math.Abs(r.F[0]-r.F[2]) > 1e-9 || r.V[0].Norm() > 1e-12 {
			t.Errorf("not a static solution: f = %v, Σf = %v, v⁺ = %v, residual %g", r.F, sum, r.V[0], r.Residual)
		}
	}
	if !near3(b.F, [3]float64{0, 10, 0}, 1e-9) {
		t.Errorf("PGS, middle first: %v, want 0, 10, 0", b.F)
	}
	if math.Abs(a.F[1]-b.F[1]) < 1 || math.Abs(a.F[0]-10.0/3) < 0.1 {
		t.Errorf("PGS order independence? %v vs %v", a.F, b.F)
	}
	if !near3(c.F, [3]float64{10.0 / 3, 10.0 / 3, 10.0 / 3}, 1e-6) {
		t.Errorf("APGD: %v, want 10/3 each", c.F)
	}
}

// TestBeamCompatible reproduces S3 §8.1.1–8.1.2 for compatible CD: 10/3 each
// with equal stiffnesses and 2, 6, 2 with the middle contact 3× stiffer,
// whatever solved the CD step, with both methods and both laws.
func TestBeamCompatible(t *testing.T) {
	cases := []struct {
		k    [3]float64
		want [3]float64
	}{
		{[3]float64{1, 1, 1}, [3]float64{10.0 / 3, 10.0 / 3, 10.0 / 3}},
		{[3]float64{1, 3, 1}, [3]float64{2, 6, 2}},
	}
	for _, tc := range cases {
		for _, law := range []Law{Hookean, Hertzian} {
			s := beam(t, tc.k, law)
			// Algorithm 1 of S3: classic CD first (PGS, middle first: the
			// pathological 0, 10, 0), then the truss problem with F̃ = Bᵀf.
			cd, _ := s.Step(StepOptions{Dt: 1e-3, Method: PGS, Order: []int{1, 0, 2}, Tol: 1e-12})
			for _, m := range []CompatMethod{CompatActiveSet, CompatAugLag} {
				r, err := s.Compatible(cd.Load, CompatOptions{Method: m, Init: cd.F})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("k̃ = %v, %v, %v: f = %.12f (%d outer, %d inner)", tc.k, law, m, r.F, r.Iter, r.Inner)
				if !r.Converged || !near3(r.F, tc.want, 1e-8) {
					t.Errorf("k̃ = %v, %v, %v: f = %v, want %v (residual %g, converged %v)",
						tc.k, law, m, r.F, tc.want, r.Residual, r.Converged)
				}
			}
		}
	}
}
