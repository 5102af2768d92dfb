package integrate

import (
	"grainlab/sim/krylov"
	"grainlab/sim/world"
)

// gmresSolve solves the Newton system J·δ = b (b = n.rt, δ = n.dy) (S0
// §3.5) by restarted GMRES(n.Restart) with the block-Jacobi preconditioner
// applyPrec on the right, to ‖b − J·δ‖ ≤ eta·‖b‖ in at most n.LinMaxIter
// products. J is the assembled tangent (tanMul) when newtonMatrix built
// it, else the finite-difference product jv, which does not fail: where
// both one-sided differences would leave the contact set it returns zero.
// It returns the number of products (linear iterations).
func (n *Newmark) gmresSolve(w *world.World, eta float64) int {
	o := krylov.Options{Tol: eta, Restart: n.Restart, MaxIter: n.LinMaxIter}
	n.tan.zOf = nil
	var r krylov.Result
	if n.useTan {
		// The basis vectors' normalisation in the preconditioner's pass over
		// bodies (GMRESScaled: the same bits as GMRES).
		A := func(v, out []float64) error { n.tanMul(v, out); return nil }
		r, _ = n.gm.GMRESScaled(A, n.applyPrecScaledFrom, n.rt, n.dy, o)
	} else {
		jv := n.jv(w)
		A := func(v, out []float64) error { jv(v, out); return nil }
		r, _ = n.gm.GMRES(A, n.applyPrec, n.rt, n.dy, o)
	}
	n.tan.zOf = nil
	return r.Iterations
}
