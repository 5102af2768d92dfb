package krylov

import "math"

// CG solves A·x = b for symmetric positive definite A by preconditioned
// conjugate gradients (Saad Alg. 9.1; S2 Algorithm 1), from x = 0, with the
// stopping test o.Stop (StopPrecRelative with o.Tol, or StopAbs with o.ATol)
// and at most o.MaxIter iterations (M = nil is the identity). A direction
// with pᵀAp ≤ 0 (A not positive definite along p, or NaN) ends the solve
// with Result.Breakdown. Afterwards w.Residual() holds b − A·x.
func (w *Work) CG(A Operator, M Preconditioner, b, x []float64, o Options) (Result, error) {
	if M == nil {
		M = func(v, out []float64) { copy(out, v) }
	}
	w.resize(len(b))
	clear(x)
	copy(w.r, b)
	return w.cg(A, M, x, o)
}

// MaskedCG solves the projected system P·A·P x = P·b, P the diagonal
// projection onto the components j with mask[j], by CG with the Jacobi
// preconditioner z_j = r_j/diag_j (z_j = 0 off the mask or where diag_j ≤ 0).
// The product of A and the right-hand side are set to zero off the mask, so
// x stays zero there. Options, Result and w.Residual() as for CG; sim/cd
// uses it with StopAbs.
func (w *Work) MaskedCG(A Operator, diag []float64, mask []bool, b, x []float64, o Options) (Result, error) {
	w.resize(len(b))
	clear(x)
	for j := range w.r {
		if mask[j] {
			w.r[j] = b[j]
		} else {
			w.r[j] = 0
		}
	}
	M := func(r, z []float64) {
		for j := range z {
			if mask[j] && diag[j] > 0 {
				z[j] = r[j] / diag[j]
			} else {
				z[j] = 0
			}
		}
	}
	PA := func(v, out []float64) error {
		if err := A(v, out); err != nil {
			return err
		}
		for j := range out {
			if !mask[j] {
				out[j] = 0
			}
		}
		return nil
	}
	return w.cg(PA, M, x, o)
}

// cg runs preconditioned CG on the residual in w.r (x = 0 on entry).
func (w *Work) cg(A Operator, M Preconditioner, x []float64, o Options) (res Result, err error) {
	M(w.r, w.z)
	copy(w.p, w.z)
	rz := Dot(w.r, w.z)
	stop := o.Tol * o.Tol * rz
	if o.Stop == StopPrecRelative {
		res.Residual = math.Sqrt(max(rz, 0))
		if rz <= 0 {
			res.Converged = true
			return res, nil
		}
	}
	for res.Iterations < o.MaxIter {
		if o.Stop == StopAbs {
			if res.Residual = math.Sqrt(Dot(w.r, w.r)); res.Residual <= o.ATol {
				res.Converged = true
				return res, nil
			}
		}
		if err := A(w.p, w.q); err != nil {
			return res, opError(err)
		}
		res.Iterations++
		pq := Dot(w.p, w.q)
		if !(pq > 0) { // not positive definite along p: CG breaks down
			res.Breakdown = true
			return res, nil
		}
		a := rz / pq
		for i := range x {
			x[i] += a * w.p[i]
			w.r[i] -= a * w.q[i]
		}
		M(w.r, w.z)
		rzNew := Dot(w.r, w.z)
		if o.Stop == StopPrecRelative {
			res.Residual = math.Sqrt(max(rzNew, 0))
			if rzNew <= stop {
				res.Converged = true
				return res, nil
			}
		}
		beta := rzNew / rz
		rz = rzNew
		for i := range w.p {
			w.p[i] = w.z[i] + beta*w.p[i]
		}
	}
	if o.Stop == StopAbs {
		res.Residual = math.Sqrt(Dot(w.r, w.r))
		res.Converged = res.Residual <= o.ATol
	}
	return res, nil
}

// BiCGStab solves A·x = b by right-preconditioned BiCGStab (Saad Alg. 7.7)
// to ‖r‖_{M⁻¹} ≤ o.Tol·‖b‖_{M⁻¹} (rᵀM⁻¹r ≤ Tol²·bᵀM⁻¹b) in at most
// o.MaxIter iterations of two products each (M = nil is the identity); A need
// not be symmetric. With o.Warm it continues from x and the residual
// w.Residual() of a preceding solve with w, otherwise it starts from x = 0.
// A zero or NaN ρ = r̂ᵀr, a zero r̂ᵀv or tᵀt ends the solve with
// Result.Breakdown. Afterwards w.Residual() holds b − A·x.
func (w *Work) BiCGStab(A Operator, M Preconditioner, b, x []float64, o Options) (res Result, err error) {
	if M == nil {
		M = func(v, out []float64) { copy(out, v) }
	}
	if !o.Warm {
		w.resize(len(b))
		clear(x)
		copy(w.r, b)
	}
	M(b, w.z)
	stop := o.Tol * o.Tol * Dot(b, w.z)
	pnorm := func(r []float64) float64 {
		M(r, w.z)
		v := Dot(r, w.z)
		res.Residual = math.Sqrt(max(v, 0))
		return v
	}
	if pnorm(w.r) <= stop {
		res.Converged = true
		return res, nil
	}
	copy(w.rh, w.r)
	clear(w.p)
	clear(w.v)
	rho, alpha, omega := 1.0, 1.0, 1.0
	for res.Iterations < o.MaxIter {
		rhoNew := Dot(w.rh, w.r)
		if rhoNew == 0 || omega == 0 || math.IsNaN(rhoNew) {
			res.Breakdown = true
			return res, nil
		}
		beta := rhoNew / rho * alpha / omega
		rho = rhoNew
		for i := range w.p {
			w.p[i] = w.r[i] + beta*(w.p[i]-omega*w.v[i])
		}
		M(w.p, w.y)
		if err := A(w.y, w.v); err != nil {
			return res, opError(err)
		}
		res.Iterations++
		rv := Dot(w.rh, w.v)
		if rv == 0 {
			res.Breakdown = true
			return res, nil
		}
		alpha = rho / rv
		for i := range w.s {
			w.s[i] = w.r[i] - alpha*w.v[i]
		}
		if pnorm(w.s) <= stop {
			for i := range x {
				x[i] += alpha * w.y[i]
			}
			copy(w.r, w.s)
			res.Converged = true
			return res, nil
		}
		M(w.s, w.q) // q = M⁻¹ s
		if err := A(w.q, w.t); err != nil {
			return res, opError(err)
		}
		tt := Dot(w.t, w.t)
		if tt == 0 {
			res.Breakdown = true
			return res, nil
		}
		omega = Dot(w.t, w.s) / tt
		for i := range x {
			x[i] += alpha*w.y[i] + omega*w.q[i]
			w.r[i] = w.s[i] - omega*w.t[i]
		}
		if pnorm(w.r) <= stop {
			res.Converged = true
			return res, nil
		}
	}
	return res, nil
}
