package integrate

import "math"

// krylov holds the work vectors of the matrix-free linear solvers of the
// variational integrator: preconditioned conjugate gradients (S2 Algorithm 1)
// and, when CG breaks down on a nonsymmetric Jacobian, BiCGStab.
type krylov struct {
	r, z, p, q, rh, v, y, s, t []float64
}

func (k *krylov) resize(n int) {
	for _, a := range []*[]float64{&k.r, &k.z, &k.p, &k.q, &k.rh, &k.v, &k.y, &k.s, &k.t} {
		if cap(*a) < n {
			*a = make([]float64, n)
		}
		*a = (*a)[:n]
	}
}

// linOp applies the Jacobian to v (out = K·v); false when the trial state was bad.
type linOp func(v, out []float64) bool

// precond applies the preconditioner inverse: z = P⁻¹·r.
type precond func(r, z []float64)

// cg solves K·x = b from x = 0 with preconditioned conjugate gradients to
// ‖r‖_P⁻¹ ≤ tol·‖b‖_P⁻¹ (S2 Algorithm 1: Δq = CG(K, −F)). It returns the
// iterations used, whether it converged, and whether the operator failed.
// On return k.r holds the residual b − K·x of the final iterate.
func (k *krylov) cg(A linOp, P precond, b, x []float64, tol float64, maxIt int) (its int, conv, fail bool) {
	clear(x)
	copy(k.r, b)
	P(k.r, k.z)
	copy(k.p, k.z)
	rz := dot(k.r, k.z)
	stop := tol * tol * rz
	if rz <= 0 {
		return 0, true, false
	}
	for its < maxIt {
		if !A(k.p, k.q) {
			return its, false, true
		}
		its++
		pq := dot(k.p, k.q)
		if !(pq > 0) { // not positive definite along p: CG breaks down
			return its, false, false
		}
		a := rz / pq
		for i := range x {
			x[i] += a * k.p[i]
			k.r[i] -= a * k.q[i]
		}
		P(k.r, k.z)
		rzNew := dot(k.r, k.z)
		if rzNew <= stop {
			return its, true, false
		}
		beta := rzNew / rz
		rz = rzNew
		for i := range k.p {
			k.p[i] = k.z[i] + beta*k.p[i]
		}
	}
	return its, false, false
}

// bicgstab continues the solve of K·x = b from the iterate x whose residual
// b − K·x is in k.r, with right-preconditioned BiCGStab, to
// ‖r‖_P⁻¹ ≤ tol·‖b‖_P⁻¹. The Jacobian of contacts with friction, with
// rotation (gyroscopic terms) or with moment arms is not symmetric; BiCGStab
// does not need symmetry.
func (k *krylov) bicgstab(A linOp, P precond, b, x []float64, tol float64, maxIt int) (its int, conv, fail bool) {
	P(b, k.z)
	stop := tol * tol * dot(b, k.z)
	pnorm := func(r []float64) float64 { P(r, k.z); return dot(r, k.z) }
	if pnorm(k.r) <= stop {
		return 0, true, false
	}
	copy(k.rh, k.r)
	clear(k.p)
	clear(k.v)
	rho, alpha, omega := 1.0, 1.0, 1.0
	for its < maxIt {
		rhoNew := dot(k.rh, k.r)
		if rhoNew == 0 || omega == 0 || math.IsNaN(rhoNew) {
			return its, false, false
		}
		beta := rhoNew / rho * alpha / omega
		rho = rhoNew
		for i := range k.p {
			k.p[i] = k.r[i] + beta*(k.p[i]-omega*k.v[i])
		}
		P(k.p, k.y)
		if !A(k.y, k.v) {
			return its, false, true
		}
		its++
		rv := dot(k.rh, k.v)
		if rv == 0 {
			return its, false, false
		}
		alpha = rho / rv
		for i := range k.s {
			k.s[i] = k.r[i] - alpha*k.v[i]
		}
		if pnorm(k.s) <= stop {
			for i := range x {
				x[i] += alpha * k.y[i]
			}
			copy(k.r, k.s)
			return its, true, false
		}
		P(k.s, k.q) // q = P⁻¹ s
		if !A(k.q, k.t) {
			return its, false, true
		}
		tt := dot(k.t, k.t)
		if tt == 0 {
			return its, false, false
		}
		omega = dot(k.t, k.s) / tt
		for i := range x {
			x[i] += alpha*k.y[i] + omega*k.q[i]
			k.r[i] = k.s[i] - omega*k.t[i]
		}
		if pnorm(k.r) <= stop {
			return its, true, false
		}
	}
	return its, false, false
}

// solve runs CG and, when CG breaks down or misses the tolerance in maxIt
// iterations, continues with BiCGStab from the CG iterate. An unconverged
// result is still a usable (inexact) Newton direction.
func (k *krylov) solve(A linOp, P precond, b, x []float64, tol float64, maxIt int) (its int, fellBack, conv, fail bool) {
	its, conv, fail = k.cg(A, P, b, x, tol, maxIt)
	if conv || fail {
		return its, false, conv, fail
	}
	n, conv, fail := k.bicgstab(A, P, b, x, tol, maxIt)
	return its + n, true, conv, fail
}
