package cd

import (
	"math"

	"grainlab/sim/krylov"
)

// boxQP is min_x Σ ψ(x_i) + ½xᵀQx + cᵀx over x ≥ 0: the CD QP (S3 eq. 22,
// ψ = 0) and the augmented-Lagrangian subproblems of S3 §7 (ψ = the scaled
// complementary energy of S3 eq. 36).
type boxQP struct {
	n     int
	mulQ  func(x, out []float64)                 // out = Q x (symmetric PSD)
	c     []float64                              // linear term
	psi   func(i int, x float64) (v, dv float64) // separable convex term, C¹ also for x < 0; nil = none
	fix   func(i int) bool                       // variables held at zero; nil = none
	resid func(x, g []float64) float64           // stopping measure given x and the gradient at x
	psi2  func(i int, x float64) float64         // ψ'' (projNewton only)
	diagQ []float64                              // diag(Q) (projNewton only)
	lip   float64                                // initial Lipschitz estimate; 0 = power iteration on Q
	proj  func(x []float64)                      // projection onto a convex set replacing the box (friction cones); nil = box
}

// value returns the objective at x given Qx.
func (q *boxQP) value(x, qx []float64) float64 {
	v, _ := q.valueScale(x, qx)
	return v
}

// valueScale returns the objective at x given Qx and the sum of the
// magnitudes of its terms (the scale of its round-off).
func (q *boxQP) valueScale(x, qx []float64) (v, sc float64) {
	for i, xi := range x {
		a, b := xi*0.5*qx[i], xi*q.c[i]
		v += a + b
		sc += math.Abs(a) + math.Abs(b)
		if q.psi != nil {
			pv, _ := q.psi(i, xi)
			v += pv
			sc += math.Abs(pv)
		}
	}
	return v, sc
}

// grad stores the gradient at x given Qx in g.
func (q *boxQP) grad(x, qx, g []float64) {
	for i := range x {
		g[i] = qx[i] + q.c[i]
		if q.psi != nil {
			_, d := q.psi(i, x[i])
			g[i] += d
		}
	}
}

// project clamps x to the feasible box (x ≥ 0, held variables zero), or
// applies proj when set.
func (q *boxQP) project(x []float64) {
	if q.proj != nil {
		q.proj(x)
		return
	}
	for i := range x {
		if x[i] < 0 || (q.fix != nil && q.fix(i)) {
			x[i] = 0
		}
	}
}

// lipschitz estimates λ_max(Q) by a few power iterations.
func (q *boxQP) lipschitz() float64 {
	v := make([]float64, q.n)
	w := make([]float64, q.n)
	for i := range v {
		v[i] = 1
	}
	q.project(v)
	l := 0.0
	for range 12 {
		nv := krylov.Norm(v)
		if nv == 0 {
			return 1
		}
		for i := range v {
			v[i] /= nv
		}
		q.mulQ(v, w)
		l = krylov.Norm(w)
		v, w = w, v
	}
	if !(l > 0) {
		return 1
	}
	return l
}

// apgd runs accelerated projected gradient descent (Nesterov's method with an
// adaptive Lipschitz estimate, backtracking and gradient restart, after
// Mazhar et al., S3 ref. [17]) from x0. It returns the best iterate by the
// stopping measure, the iteration count and that measure.
func (q *boxQP) apgd(x0 []float64, maxIt int, tol float64) ([]float64, int, float64) {
	n := q.n
	x := append([]float64(nil), x0...)
	q.project(x)
	qx := make([]float64, n)
	q.mulQ(x, qx)
	L := q.lip
	if !(L > 0) {
		L = q.lipschitz()
	}
	y := append([]float64(nil), x...)
	qy := append([]float64(nil), qx...)
	xn := make([]float64, n)
	qxn := make([]float64, n)
	g := make([]float64, n)
	gn := make([]float64, n)
	best := append([]float64(nil), x...)
	q.grad(x, qx, gn)
	bestRes := q.resid(x, gn)
	if bestRes <= tol {
		return best, 0, bestRes
	}
	theta := 1.0
	it := 0
	for it < maxIt {
		it++
		q.grad(y, qy, g)
		fy := q.value(y, qy)
		for {
			for i := range xn {
				xn[i] = y[i] - g[i]/L
			}
			q.project(xn)
			q.mulQ(xn, qxn)
			fx := q.value(xn, qxn)
			var gd, dd float64
			for i := range xn {
				d := xn[i] - y[i]
				gd += g[i] * d
				dd += d * d
			}
			// Sufficient decrease of the quadratic upper model (with a
			// round-off allowance).
			if fx <= fy+gd+0.5*L*dd+1e-14*math.Abs(fy) || dd == 0 {
				break
			}
			L *= 2
		}
		q.grad(xn, qxn, gn)
		r := q.resid(xn, gn)
		if r < bestRes {
			bestRes = r
			copy(best, xn)
		}
		if r <= tol {
			break
		}
		// Nesterov's momentum: θ_{k+1}² = (1 − θ_{k+1}) θ_k².
		thetaN := 0.5 * (-theta*theta + theta*math.Sqrt(theta*theta+4))
		beta := theta * (1 - theta) / (theta*theta + thetaN)
		var gdx float64
		for i := range xn {
			gdx += g[i] * (xn[i] - x[i])
		}
		if gdx > 0 { // the step went uphill: restart the momentum
			copy(y, xn)
			copy(qy, qxn)
			thetaN = 1
		} else {
			for i := range y {
				y[i] = xn[i] + beta*(xn[i]-x[i])
				qy[i] = qxn[i] + beta*(qxn[i]-qx[i])
			}
		}
		x, xn = xn, x
		qx, qxn = qxn, qx
		theta = thetaN
		L *= 0.9
	}
	return best, it, bestRes
}

// projNewton minimises the same objective by a projected Newton method
// (Bertsekas' two-metric projection, the bound-constrained Newton–CG family
// of LANCELOT, S3 ref. [7]): variables at the bound with a positive gradient
// are held, a Newton direction on the others comes from Jacobi-preconditioned
// CG with the Hessian diag(ψ”) + Q, and an Armijo search runs along the
// projection arc. It needs psi2 (ψ”) and diagQ. It returns the iterate,
// the CG iterations used and the stopping measure.
func (q *boxQP) projNewton(x0 []float64, maxCG int, tol float64) ([]float64, int, float64) {
	n := q.n
	x := append([]float64(nil), x0...)
	q.project(x)
	qx := make([]float64, n)
	g := make([]float64, n)
	h := make([]float64, n)
	d := make([]float64, n)
	xt := make([]float64, n)
	qxt := make([]float64, n)
	free := make([]bool, n)
	var kw krylov.Work
	q.mulQ(x, qx)
	q.grad(x, qx, g)
	fx, fsc := q.valueScale(x, qx)
	r := q.resid(x, g)
	cgIt := 0
	gp := make([]float64, n)
	for newton := 0; newton < 200 && !(r <= tol) && cgIt < maxCG; newton++ {
		// Gradient projection (Moré & Toraldo's GPCG): projected steepest
		// descent with the Cauchy step of the quadratic model until the set
		// of variables at the bound stops changing.
		for range 20 {
			var gg float64
			for i := range x {
				gp[i] = 0
				if (q.fix == nil || !q.fix(i)) && (x[i] > 0 || g[i] < 0) {
					gp[i] = g[i]
					gg += g[i] * g[i]
				}
			}
			if gg == 0 {
				break
			}
			q.mulQ(gp, qxt)
			var ghg float64
			for i := range gp {
				ghg += gp[i] * (qxt[i] + (q.psi2(i, max(x[i], 1e-300)))*gp[i])
			}
			alpha := gg / ghg
			changed := false
			var ft float64
			for {
				for i := range xt {
					xt[i] = x[i] - alpha*gp[i]
				}
				q.project(xt)
				q.mulQ(xt, qxt)
				ft, fsc = q.valueScale(xt, qxt)
				var gd float64
				for i := range xt {
					gd += g[i] * (xt[i] - x[i])
				}
				if ft <= fx+1e-4*gd+1e-13*fsc || alpha < 1e-300 {
					break
				}
				alpha *= 0.5
			}
			for i := range xt {
				if (xt[i] == 0) != (x[i] == 0) {
					changed = true
					break
				}
			}
			x, xt = xt, x
			qx, qxt = qxt, qx
			fx = ft
			q.grad(x, qx, g)
			if !changed {
				break
			}
		}
		r = q.resid(x, g)
		if r <= tol {
			break
		}
		// Binding set: at (or within δ of) the bound and pushed into it.
		var xmax float64
		for _, xi := range x {
			xmax = max(xmax, xi)
		}
		delta := min(1e-3, r) * xmax
		for i := range x {
			free[i] = !(q.fix != nil && q.fix(i)) && !(x[i] <= delta && g[i] > 0)
			h[i] = q.psi2(i, max(x[i], 1e-8*xmax)) + q.diagQ[i]
			d[i] = 0
			if !free[i] && !(q.fix != nil && q.fix(i)) {
				d[i] = -g[i] / h[i]
			}
		}
		rhs := make([]float64, n)
		var gn float64
		for i := range g {
			if free[i] {
				rhs[i] = -g[i]
				gn += g[i] * g[i]
			}
		}
		apply := func(v, out []float64) error {
			q.mulQ(v, out)
			for i := range out {
				if free[i] {
					out[i] += (h[i] - q.diagQ[i]) * v[i]
				} else {
					out[i] = 0
				}
			}
			return nil
		}
		dn := make([]float64, n)
		eta := min(0.1, math.Sqrt(r))
		cr, _ := kw.MaskedCG(apply, h, free, rhs, dn, krylov.Options{ATol: eta * math.Sqrt(gn), MaxIter: maxCG - cgIt, Stop: krylov.StopAbs})
		cgIt += cr.Iterations
		for i := range d {
			if free[i] {
				d[i] = dn[i]
			}
		}
		// Armijo along the projection arc.
		alpha := 1.0
		var ft float64
		for {
			for i := range xt {
				xt[i] = x[i] + alpha*d[i]
			}
			q.project(xt)
			q.mulQ(xt, qxt)
			ft, fsc = q.valueScale(xt, qxt)
			var gd float64
			for i := range xt {
				gd += g[i] * (xt[i] - x[i])
			}
			if ft <= fx+1e-4*gd+1e-13*fsc || alpha < 1e-10 {
				break
			}
			alpha *= 0.5
		}
		x, xt = xt, x
		qx, qxt = qxt, qx
		fx = ft
		q.grad(x, qx, g)
		r = q.resid(x, g)
	}
	return x, cgIt, r
}
