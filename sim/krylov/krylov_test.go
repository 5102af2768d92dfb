package krylov

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The solvers against dense direct solves (gonum/mat, a test-only oracle).

// spd returns a random symmetric positive definite n×n matrix GᵀG + n·I/4
// (condition number ≈ 20) with a row scaling spread so that Jacobi matters.
func spd(rng *rand.Rand, n int) *mat.SymDense {
	g := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	a := mat.NewSymDense(n, nil)
	a.SymOuterK(1, g.T())
	for i := range n {
		a.SetSym(i, i, a.At(i, i)+float64(n)/4)
	}
	// D A D with D = diag(1 … 30): SPD, badly scaled.
	d := make([]float64, n)
	for i := range d {
		d[i] = 1 + 29*float64(i%7)/6
	}
	for i := range n {
		for j := i; j < n; j++ {
			a.SetSym(i, j, d[i]*a.At(i, j)*d[j])
		}
	}
	return a
}

// nonsym returns a random nonsymmetric n×n matrix n·I + G (eigenvalues in a
// disc of radius ≈ √n·… around n, off the origin).
func nonsym(rng *rand.Rand, n int) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			a.Set(i, j, 1.5*rng.NormFloat64())
		}
		a.Set(i, i, a.At(i, i)+float64(n))
	}
	return a
}

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// op is the matrix-free product with a dense matrix.
func op(a mat.Matrix) Operator {
	return func(v, out []float64) error {
		mat.NewVecDense(len(out), out).MulVec(a, mat.NewVecDense(len(v), v))
		return nil
	}
}

// jacobi is the diagonal preconditioner of a.
func jacobi(a mat.Matrix) Preconditioner {
	return func(v, out []float64) {
		for i := range v {
			out[i] = v[i] / a.At(i, i)
		}
	}
}

func dense(t *testing.T, a mat.Matrix, b []float64) []float64 {
	t.Helper()
	var x mat.VecDense
	if err := x.SolveVec(a, mat.NewVecDense(len(b), b)); err != nil {
		t.Fatal(err)
	}
	return x.RawVector().Data
}

// relErr returns ‖x − y‖/‖y‖.
func relErr(x, y []float64) float64 {
	d := 0.0
	for i := range x {
		d += (x[i] - y[i]) * (x[i] - y[i])
	}
	return math.Sqrt(d) / Norm(y)
}

// trueRes returns ‖b − A·x‖₂/‖b‖₂.
func trueRes(a mat.Matrix, b, x []float64) float64 {
	ax := make([]float64, len(b))
	_ = op(a)(x, ax)
	for i := range ax {
		ax[i] = b[i] - ax[i]
	}
	return Norm(ax) / Norm(b)
}

// CG on random SPD systems, plain and Jacobi-preconditioned, with both
// stopping tests: the true residual drops below the tolerance (×√cond(M) for
// the M⁻¹-norm test, bounded here by 30), and x agrees with the Cholesky
// solve to 1e-7.
func TestCGMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 40
	for trial := range 3 {
		a := spd(rng, n)
		b := randVec(rng, n)
		want := dense(t, a, b)
		for _, c := range []struct {
			name string
			m    Preconditioner
			o    Options
			tol  float64
		}{
			{"rel", nil, Options{Tol: 1e-10, MaxIter: 500}, 1e-10},
			{"rel-jacobi", jacobi(a), Options{Tol: 1e-10, MaxIter: 500}, 30 * 1e-10},
			{"abs-jacobi", jacobi(a), Options{ATol: 1e-10 * Norm(b), MaxIter: 500, Stop: StopAbs}, 1e-10},
		} {
			var w Work
			x := make([]float64, n)
			r, err := w.CG(op(a), c.m, b, x, c.o)
			tr, xe := trueRes(a, b, x), relErr(x, want)
			t.Logf("trial %d %s: %d iterations, residual %.3g, true %.3g, error %.3g", trial, c.name, r.Iterations, r.Residual, tr, xe)
			if err != nil || !r.Converged || r.Breakdown || tr > c.tol || xe > 1e-7 {
				t.Errorf("trial %d %s: err %v conv %v breakdown %v, true residual %.3g (want ≤ %.0e), error %.3g (want ≤ 1e-7)",
					trial, c.name, err, r.Converged, r.Breakdown, tr, c.tol, xe)
			}
			// Work.Residual is b − A·x.
			if d := relErr(w.Residual(), residual(a, b, x)); Norm(w.Residual()) > 0 && d > 1e-3 {
				t.Errorf("trial %d %s: Work.Residual off the true residual by %.3g", trial, c.name, d)
			}
		}
	}
}

func residual(a mat.Matrix, b, x []float64) []float64 {
	ax := make([]float64, len(b))
	_ = op(a)(x, ax)
	for i := range ax {
		ax[i] = b[i] - ax[i]
	}
	return ax
}

// MaskedCG on a random SPD system with a fixed mask (every third component
// held): the masked components agree with the dense solve of the reduced
// system A[S,S]·x_S = b_S to 1e-7, the held ones are exactly zero, although
// A couples them and b is nonzero there.
func TestMaskedCGMatchesReducedDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 45
	a := spd(rng, n)
	b := randVec(rng, n)
	mask := make([]bool, n)
	var S []int
	for j := range mask {
		mask[j] = j%3 != 1
		if mask[j] {
			S = append(S, j)
		}
	}
	red := mat.NewSymDense(len(S), nil)
	bs := make([]float64, len(S))
	for i, si := range S {
		bs[i] = b[si]
		for j, sj := range S {
			red.SetSym(i, j, a.At(si, sj))
		}
	}
	want := dense(t, red, bs)
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = a.At(i, i)
	}
	var w Work
	x := make([]float64, n)
	r, err := w.MaskedCG(op(a), diag, mask, b, x, Options{ATol: 1e-11 * Norm(bs), MaxIter: 500, Stop: StopAbs})
	got := make([]float64, len(S))
	for i, si := range S {
		got[i] = x[si]
	}
	xe := relErr(got, want)
	t.Logf("%d iterations, residual %.3g, error vs reduced dense solve %.3g", r.Iterations, r.Residual, xe)
	if err != nil || !r.Converged || xe > 1e-7 {
		t.Errorf("err %v conv %v, error %.3g (want ≤ 1e-7)", err, r.Converged, xe)
	}
	for j := range x {
		if !mask[j] && x[j] != 0 {
			t.Errorf("held component %d = %g, want 0", j, x[j])
		}
	}
}

// GMRES(m) and BiCGStab on random nonsymmetric systems: true residual ≤ 10×
// the tolerance 1e-10 (GMRES stops on the Givens estimate, BiCGStab on the
// recursively updated residual), and x agrees with the LU solve to 1e-8.
// Restart lengths 5 and 60 (> n: no restart), with and without Jacobi.
func TestGMRESAndBiCGStabMatchDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 50
	for trial := range 3 {
		a := nonsym(rng, n)
		b := randVec(rng, n)
		want := dense(t, a, b)
		type solver func(w *Work, m Preconditioner, x []float64) (Result, error)
		for _, c := range []struct {
			name string
			m    Preconditioner
			s    solver
		}{
			{"gmres(5)", nil, func(w *Work, m Preconditioner, x []float64) (Result, error) {
				return w.GMRES(op(a), m, b, x, Options{Tol: 1e-10, MaxIter: 1000, Restart: 5})
			}},
			{"gmres(60)-jacobi", jacobi(a), func(w *Work, m Preconditioner, x []float64) (Result, error) {
				return w.GMRES(op(a), m, b, x, Options{Tol: 1e-10, MaxIter: 1000, Restart: 60})
			}},
			{"bicgstab", nil, func(w *Work, m Preconditioner, x []float64) (Result, error) {
				return w.BiCGStab(op(a), m, b, x, Options{Tol: 1e-10, MaxIter: 1000})
			}},
			{"bicgstab-jacobi", jacobi(a), func(w *Work, m Preconditioner, x []float64) (Result, error) {
				return w.BiCGStab(op(a), m, b, x, Options{Tol: 1e-10, MaxIter: 1000})
			}},
		} {
			var w Work
			x := make([]float64, n)
			r, err := c.s(&w, c.m, x)
			tr, xe := trueRes(a, b, x), relErr(x, want)
			t.Logf("trial %d %s: %d iterations, residual %.3g, true %.3g, error %.3g", trial, c.name, r.Iterations, r.Residual/Norm(b), tr, xe)
			if err != nil || !r.Converged || r.Breakdown || tr > 1e-9 || xe > 1e-8 {
				t.Errorf("trial %d %s: err %v conv %v breakdown %v, true residual %.3g (want ≤ 1e-9), error %.3g (want ≤ 1e-8)",
					trial, c.name, err, r.Converged, r.Breakdown, tr, xe)
			}
		}
	}
}

// CG on a nonsymmetric system whose symmetric part is indefinite breaks
// down; BiCGStab with Warm continues from the CG iterate and its residual
// and reaches the tolerance (the variational integrator's fallback).
func TestCGBreakdownThenWarmBiCGStab(t *testing.T) {
	const n = 6
	a := mat.NewDense(n, n, nil)
	for k, d := range []float64{-0.5, 2, 3} { // blocks [[d, 1.5], [−1.5, d]]
		i := 2 * k
		a.Set(i, i, d)
		a.Set(i+1, i+1, d)
		a.Set(i, i+1, 1.5)
		a.Set(i+1, i, -1.5)
	}
	a.Set(0, 2, 0.3)
	a.Set(3, 5, -0.2)
	b := []float64{1, 1, 0, 0, 0, 0}
	var w Work
	x := make([]float64, n)
	r, err := w.CG(op(a), nil, b, x, Options{Tol: 1e-12, MaxIter: 50})
	if err != nil || r.Converged || !r.Breakdown {
		t.Fatalf("CG: err %v conv %v breakdown %v, want a breakdown", err, r.Converged, r.Breakdown)
	}
	r2, err := w.BiCGStab(op(a), nil, b, x, Options{Tol: 1e-12, MaxIter: 50, Warm: true})
	tr := trueRes(a, b, x)
	t.Logf("CG broke down after %d, BiCGStab %d iterations, true residual %.3g", r.Iterations, r2.Iterations, tr)
	if err != nil || !r2.Converged || tr > 1e-10 || relErr(x, dense(t, a, b)) > 1e-9 {
		t.Errorf("warm BiCGStab: err %v conv %v, true residual %.3g (want ≤ 1e-10)", err, r2.Converged, tr)
	}
}

// An operator that fails on its k-th product: every solver stops there and
// returns the operator's error (errors.Is), having taken fewer than k
// products.
func TestOperatorErrorSurfaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, k = 30, 4
	a := spd(rng, n)
	b := randVec(rng, n)
	errNaN := errors.New("non-finite product")
	diag := make([]float64, n)
	mask := make([]bool, n)
	for i := range diag {
		diag[i], mask[i] = a.At(i, i), true
	}
	for name, s := range map[string]func(w *Work, A Operator, x []float64) (Result, error){
		"gmres": func(w *Work, A Operator, x []float64) (Result, error) {
			return w.GMRES(A, nil, b, x, Options{Tol: 1e-14, MaxIter: 100, Restart: 10})
		},
		"cg": func(w *Work, A Operator, x []float64) (Result, error) {
			return w.CG(A, nil, b, x, Options{Tol: 1e-14, MaxIter: 100})
		},
		"maskedcg": func(w *Work, A Operator, x []float64) (Result, error) {
			return w.MaskedCG(A, diag, mask, b, x, Options{ATol: 1e-14, MaxIter: 100, Stop: StopAbs})
		},
		"bicgstab": func(w *Work, A Operator, x []float64) (Result, error) {
			return w.BiCGStab(A, nil, b, x, Options{Tol: 1e-14, MaxIter: 100})
		},
	} {
		calls := 0
		A := func(v, out []float64) error {
			if calls++; calls == k {
				return errNaN
			}
			return op(a)(v, out)
		}
		var w Work
		r, err := s(&w, A, make([]float64, n))
		if !errors.Is(err, errNaN) || r.Converged || r.Iterations >= k || calls != k {
			t.Errorf("%s: err %v, converged %v, %d iterations, %d calls (want the operator's error at call %d)",
				name, err, r.Converged, r.Iterations, calls, k)
		}
	}
}

// At MaxIter without reaching the tolerance every solver reports
// not-converged, the iterations it took (≤ MaxIter), and a residual above the
// tolerance that matches the true one (GMRES: the Givens estimate; CG with
// StopAbs: ‖r‖₂) to 1e-6.
func TestMaxIterNotConverged(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n, maxIt = 40, 3
	a := nonsym(rng, n)
	s := spd(rng, n)
	b := randVec(rng, n)
	bn := Norm(b)
	check := func(name string, m mat.Matrix, r Result, err error, x []float64, exact bool) {
		t.Helper()
		tr := trueRes(m, b, x) * bn
		if err != nil || r.Converged || r.Iterations > maxIt || r.Iterations == 0 || !(tr > 1e-12*bn) {
			t.Errorf("%s: err %v conv %v, %d iterations (max %d), true residual %.3g", name, err, r.Converged, r.Iterations, maxIt, tr)
		}
		if exact && math.Abs(r.Residual-tr) > 1e-6*tr {
			t.Errorf("%s: reported residual %.6g, true %.6g", name, r.Residual, tr)
		}
	}
	var w Work
	x := make([]float64, n)
	r, err := w.GMRES(op(a), nil, b, x, Options{Tol: 1e-12, MaxIter: maxIt, Restart: 10})
	check("gmres", a, r, err, x, true)
	r, err = w.BiCGStab(op(a), nil, b, x, Options{Tol: 1e-12, MaxIter: maxIt})
	check("bicgstab", a, r, err, x, false)
	r, err = w.CG(op(s), nil, b, x, Options{ATol: 1e-12 * bn, MaxIter: maxIt, Stop: StopAbs})
	check("cg", s, r, err, x, true)
	r, err = w.CG(op(s), nil, b, x, Options{Tol: 1e-12, MaxIter: maxIt})
	check("cg-rel", s, r, err, x, true)
}

// The vector kernels: Dot, Norm, Axpy on a small exact case.
func TestKernels(t *testing.T) {
	x, y := []float64{1, 2, 2}, []float64{3, -1, 0.5}
	if d := Dot(x, y); d != 2 {
		t.Errorf("Dot = %g, want 2", d)
	}
	if nv := Norm(x); nv != 3 {
		t.Errorf("Norm = %g, want 3", nv)
	}
	Axpy(2, x, y)
	if y[0] != 5 || y[1] != 3 || y[2] != 4.5 {
		t.Errorf("Axpy: %v, want [5 3 4.5]", y)
	}
}

// axpyDot is Axpy followed by Dot (or Norm², z = y) to the bit: GMRES's
// fused Gram–Schmidt pass must keep the results of the two-pass form.
func TestAxpyDotBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 15))
	for trial := range 200 {
		n := 1 + rng.IntN(2000)
		x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			x[i], y[i], z[i] = rng.NormFloat64(), rng.NormFloat64()*1e3, rng.NormFloat64()*1e-3
		}
		a := rng.NormFloat64()
		y1, y2 := append([]float64(nil), y...), append([]float64(nil), y...)
		Axpy(a, x, y1)
		want := Dot(y1, z)
		if got := axpyDot(a, x, y2, z); got != want || !equalBits(y1, y2) {
			t.Fatalf("trial %d: axpyDot %v, Axpy then Dot %v (y equal: %v)", trial, got, want, equalBits(y1, y2))
		}
		y3 := append([]float64(nil), y...)
		if got, want := math.Sqrt(axpyDot(a, x, y3, y3)), Norm(y1); got != want || !equalBits(y1, y3) {
			t.Fatalf("trial %d: √axpyDot(y, y) %v, Axpy then Norm %v", trial, got, want)
		}
	}
}

func equalBits(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

// GMRESScaled, which leaves the basis vectors' normalisation to the
// preconditioner's pass, gives GMRES's iterate, residual and count to the
// bit (restarts included).
func TestGMRESScaledBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 50
	for trial := range 3 {
		a := nonsym(rng, n)
		b := randVec(rng, n)
		m := jacobi(a)
		for _, restart := range []int{3, 7, 60} {
			o := Options{Tol: 1e-10, MaxIter: 1000, Restart: restart}
			var w1, w2 Work
			x1, x2 := make([]float64, n), make([]float64, n)
			r1, err1 := w1.GMRES(op(a), m, b, x1, o)
			ms := func(u []float64, s float64, v, out []float64) {
				for i := range u {
					v[i] = u[i] / s
				}
				m(v, out)
			}
			r2, err2 := w2.GMRESScaled(op(a), ms, b, x2, o)
			if err1 != nil || err2 != nil || r1 != r2 || !equalBits(x1, x2) {
				t.Errorf("trial %d restart %d: GMRES %+v, GMRESScaled %+v, iterates equal %v", trial, restart, r1, r2, equalBits(x1, x2))
			}
		}
	}
}
