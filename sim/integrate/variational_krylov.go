package integrate

import (
	"errors"

	"grainlab/sim/krylov"
)

// errBadTrial is the error of the variational Jacobian product when its
// finite-difference trial state is bad (non-finite or penetrating).
var errBadTrial = errors.New("variational: bad trial state in the Jacobian product")

// linearSolve solves the Newton system K·x = b of the variational integrator
// from x = 0 with preconditioned CG (S2 Algorithm 1: Δq = CG(K, −F)) to
// ‖r‖_P⁻¹ ≤ tol·‖b‖_P⁻¹ and, when CG breaks down or misses the tolerance in
// maxIt iterations, continues with BiCGStab from the CG iterate: the Jacobian
// of contacts with friction, with rotation (gyroscopic terms) or with moment
// arms is not symmetric, and BiCGStab does not need symmetry. An unconverged
// result is still a usable (inexact) Newton direction. fail reports that the
// operator met a bad trial state.
func linearSolve(k *krylov.Work, A krylov.Operator, P krylov.Preconditioner, b, x []float64, tol float64, maxIt int) (its int, fellBack, conv, fail bool) {
	o := krylov.Options{Tol: tol, MaxIter: maxIt}
	r, err := k.CG(A, P, b, x, o)
	if r.Converged || err != nil {
		return r.Iterations, false, r.Converged, err != nil
	}
	o.Warm = true
	r2, err := k.BiCGStab(A, P, b, x, o)
	return r.Iterations + r2.Iterations, true, r2.Converged, err != nil
}
