package integrate

import (
	"math"
	"testing"

	"grainlab/sim/krylov"
)

// The linear solvers of the variational integrator on explicit matrices:
// CG solves a symmetric positive definite system (true residual ≤ 1e-10 of
// ‖b‖) without falling back; on a nonsymmetric system whose symmetric part
// is indefinite (here CG meets pᵀKp < 0 at once), the solve falls back to
// BiCGStab and still reaches the tolerance.
func TestKrylovSolvers(t *testing.T) {
	const n = 6
	spd := make([][]float64, n)
	non := make([][]float64, n)
	for i := range spd {
		spd[i], non[i] = make([]float64, n), make([]float64, n)
		for j := range spd[i] {
			spd[i][j] = 1 / float64(1+i+j) // Hilbert-like, plus a diagonal shift below
		}
		spd[i][i] += float64(i + 1)
	}
	// 2×2 blocks [[a, c], [−c, a]]: eigenvalues a ± ic, symmetric part a·I.
	for k, a := range []float64{-0.5, 2, 3} {
		i := 2 * k
		non[i][i], non[i+1][i+1] = a, a
		non[i][i+1], non[i+1][i] = 1.5, -1.5
	}
	non[0][2], non[3][5] = 0.3, -0.2
	for _, c := range []struct {
		name     string
		m        [][]float64
		b        []float64
		fallback bool
	}{
		{"spd", spd, []float64{1, -2, 3, 0.5, -1, 2}, false},
		{"nonsymmetric", non, []float64{1, 1, 0, 0, 0, 0}, true},
	} {
		var k krylov.Work
		A := func(v, out []float64) error {
			for i := range out {
				out[i] = krylov.Dot(c.m[i], v)
			}
			return nil
		}
		P := func(r, z []float64) { copy(z, r) }
		x := make([]float64, n)
		its, fell, conv, fail := linearSolve(&k, A, P, c.b, x, 1e-12, 50)
		ax := make([]float64, n)
		A(x, ax)
		res := 0.0
		for i := range ax {
			res += (c.b[i] - ax[i]) * (c.b[i] - ax[i])
		}
		rel := math.Sqrt(res / krylov.Dot(c.b, c.b))
		t.Logf("%s: %d iterations, fell back %v, converged %v, true residual %.3g", c.name, its, fell, conv, rel)
		if fail || !conv || rel > 1e-10 {
			t.Errorf("%s: converged %v, true relative residual %.3g (want ≤ 1e-10)", c.name, conv, rel)
		}
		if fell != c.fallback {
			t.Errorf("%s: fell back to BiCGStab: %v, want %v", c.name, fell, c.fallback)
		}
	}
}
