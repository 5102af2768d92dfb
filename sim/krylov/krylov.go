// Package krylov holds Grainlab's matrix-free Krylov solvers of A·x = b, where
// A is known only through its product with a vector (an Operator that may fail):
//
//   - GMRES: Saad & Schultz's generalised minimal residual method, restarted
//     after m steps (GMRES(m)), modified Gram–Schmidt Arnoldi and Givens
//     rotations on the Hessenberg matrix (Saad, Iterative Methods for Sparse
//     Linear Systems, 2nd ed., Alg. 6.9 and §6.5.3), right-preconditioned
//     (A M⁻¹ z = b, x = M⁻¹ z); used by the newmark integrator (S0 §3.5).
//   - CG: preconditioned conjugate gradients (Saad Alg. 9.1; S2 Algorithm 1)
//     for symmetric positive definite A.
//   - BiCGStab: van der Vorst's stabilised biconjugate gradients (Saad Alg.
//     7.7), right-preconditioned, for nonsymmetric A; it can continue from the
//     iterate and residual a CG solve left behind.
//   - MaskedCG: Jacobi-preconditioned CG projected onto a fixed set of
//     components (the others held at zero): the Newton–CG of the bound- and
//     mask-constrained problems of sim/cd (S3 §7).
//
// One home for the vector kernels too: Dot, Norm and Axpy. Every solver runs
// its floating-point operations in a fixed order, so results are
// reproducible bit for bit.
package krylov

import (
	"fmt"
	"math"
)

// Operator applies a linear map: out = A·v. A non-nil error (a non-finite
// product, a trial state the caller cannot evaluate) stops the solver, which
// returns it wrapped.
type Operator func(v, out []float64) error

// Preconditioner applies the inverse of a preconditioner: out = M⁻¹·v.
type Preconditioner func(v, out []float64)

// Stop selects the stopping test of CG and MaskedCG.
type Stop int

const (
	// StopPrecRelative stops when ‖r‖_{M⁻¹} ≤ Tol·‖b‖_{M⁻¹} (rᵀM⁻¹r ≤
	// Tol²·bᵀM⁻¹b), tested after each update; a zero bᵀM⁻¹b is converged at
	// once. Zero value: the default of CG.
	StopPrecRelative Stop = iota
	// StopAbs stops when ‖r‖₂ ≤ ATol, tested before each iteration (the
	// rule of sim/cd's Newton–CG).
	StopAbs
)

// Options configure one solve.
type Options struct {
	Tol     float64 // relative tolerance (GMRES, BiCGStab; CG with StopPrecRelative)
	ATol    float64 // absolute tolerance on ‖r‖₂ (CG and MaskedCG with StopAbs)
	MaxIter int     // maximum operator products (GMRES) or iterations (CG, BiCGStab)
	Restart int     // GMRES restart length m (≥ 1)
	Stop    Stop    // stopping test of CG and MaskedCG
	// Warm makes BiCGStab continue from x, whose residual b − A·x a
	// preceding CG or BiCGStab solve with the same Work left behind
	// (Work.Residual); otherwise it starts from x = 0.
	Warm bool
}

// Result reports a solve.
type Result struct {
	Iterations int     // operator products (GMRES) or iterations (CG, BiCGStab)
	Residual   float64 // final residual in the norm of the stopping test (absolute)
	Converged  bool    // the stopping test was met
	Breakdown  bool    // the method broke down (CG: pᵀAp ≤ 0; BiCGStab: a zero or NaN ρ, rᵀv or tᵀt)
}

// Work holds the work vectors of the solvers; the zero value is ready and
// grows to the system size on first use. A Work is not safe for concurrent use.
type Work struct {
	r, z, p, q, rh, v, y, s, t []float64 // CG, masked CG, BiCGStab
	gm                         gmres
}

func (w *Work) resize(n int) {
	for _, a := range []*[]float64{&w.r, &w.z, &w.p, &w.q, &w.rh, &w.v, &w.y, &w.s, &w.t} {
		if cap(*a) < n {
			*a = make([]float64, n)
		}
		*a = (*a)[:n]
	}
}

// Residual returns the residual b − A·x of the last CG, masked CG or
// BiCGStab iterate (valid until the next solve with w).
func (w *Work) Residual() []float64 { return w.r }

func opError(err error) error { return fmt.Errorf("krylov: operator: %w", err) }

// Dot returns the Euclidean inner product aᵀb, summed in index order. Each
// product is rounded before it is added (the explicit float64 conversions: no
// fused multiply–add on any build), so Dot, Norm, Axpy and GMRES's fused
// Gram–Schmidt pass give the same bits on GOAMD64=v3 and arm64 as here.
func Dot(a, b []float64) float64 {
	n := len(a)
	b = b[:n]
	s := 0.0
	i := 0
	for ; i+4 <= n; i += 4 { // unrolled; s still summed in index order
		a4, b4 := a[i:i+4:i+4], b[i:i+4:i+4]
		s += float64(a4[0] * b4[0])
		s += float64(a4[1] * b4[1])
		s += float64(a4[2] * b4[2])
		s += float64(a4[3] * b4[3])
	}
	for ; i < n; i++ {
		s += float64(a[i] * b[i])
	}
	return s
}

// Norm returns the Euclidean norm ‖v‖₂ = √(vᵀv), summed in index order.
func Norm(v []float64) float64 {
	return math.Sqrt(Dot(v, v))
}

// Axpy sets y += a·x, each product rounded before the sum (as in Dot).
func Axpy(a float64, x, y []float64) {
	n := len(x)
	y = y[:n]
	i := 0
	for ; i+4 <= n; i += 4 { // unrolled
		x4, y4 := x[i:i+4:i+4], y[i:i+4:i+4]
		y4[0] += float64(a * x4[0])
		y4[1] += float64(a * x4[1])
		y4[2] += float64(a * x4[2])
		y4[3] += float64(a * x4[3])
	}
	for ; i < n; i++ {
		y[i] += float64(a * x[i])
	}
}
