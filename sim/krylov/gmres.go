package krylov

import "math"

// gmres holds the Krylov basis and Hessenberg matrix of restarted GMRES.
type gmres struct {
	v        [][]float64
	h        [][]float64
	cs, sn   []float64
	g, yk    []float64
	t, u, r0 []float64
}

func (g *gmres) alloc(n, restart int) {
	if len(g.t) != n || len(g.v) != restart+1 {
		g.v = make([][]float64, restart+1)
		for i := range g.v {
			g.v[i] = make([]float64, n)
		}
		g.h = make([][]float64, restart+1)
		for i := range g.h {
			g.h[i] = make([]float64, restart)
		}
		g.cs, g.sn = make([]float64, restart), make([]float64, restart)
		g.g, g.yk = make([]float64, restart+1), make([]float64, restart)
		g.t, g.u, g.r0 = make([]float64, n), make([]float64, n), make([]float64, n)
	}
}

// GMRES approximately solves A·x = b by restarted GMRES(m), m = o.Restart,
// with right preconditioning (A M⁻¹ z = b, x = M⁻¹ z; M = nil is the
// identity), starting from x = 0, until ‖b − A·x‖₂ ≤ o.Tol·‖b‖₂ or o.MaxIter
// products with A (Saad Alg. 6.9: modified Gram–Schmidt Arnoldi, Givens
// rotations, §6.5.3). Within a cycle the residual is the Givens estimate
// |γ_{j+1}|; at each restart it is recomputed as b − A·x (one product). A
// cycle also ends on a lucky breakdown (h_{j+1,j} = 0). Result.Iterations
// counts the products with A; x holds the last iterate even on an error.
func (w *Work) GMRES(A Operator, M Preconditioner, b, x []float64, o Options) (Result, error) {
	if M == nil {
		M = func(v, out []float64) { copy(out, v) }
	}
	return w.gmres(A, M, nil, b, x, o)
}

// ScaledPreconditioner sets v = u/s entry by entry (a division, as GMRES
// normalises its basis vectors) and then out = M⁻¹·v, in one pass (a
// caller may split it over workers).
type ScaledPreconditioner func(u []float64, s float64, v, out []float64)

// GMRESScaled is GMRES with the normalisation of each new Arnoldi vector
// (v_{j+1} = u/h_{j+1,j}, and v_1 = r_0/β at a restart) left to MS, which
// applies the preconditioner to it in the same pass: the same operations
// and results, bit for bit, as GMRES with M⁻¹ = MS's.
func (w *Work) GMRESScaled(A Operator, MS ScaledPreconditioner, b, x []float64, o Options) (Result, error) {
	return w.gmres(A, nil, MS, b, x, o)
}

func (w *Work) gmres(A Operator, M Preconditioner, MS ScaledPreconditioner, b, x []float64, o Options) (Result, error) {
	if MS == nil {
		MS = func(u []float64, s float64, v, out []float64) {
			for i := range u {
				v[i] = u[i] / s
			}
			M(v, out)
		}
	}
	restart := max(o.Restart, 1)
	g := &w.gm
	n := len(b)
	g.alloc(n, restart)
	clear(x)
	var res Result
	bn := Norm(b)
	if bn == 0 {
		res.Converged = true
		return res, nil
	}
	tol := o.Tol
	copy(g.r0, b)
	first := true
	for res.Iterations < o.MaxIter {
		if !first { // true residual at the restart
			if err := A(x, g.t); err != nil {
				return res, opError(err)
			}
			res.Iterations++
			for i := range g.r0 {
				g.r0[i] = b[i] - g.t[i]
			}
		}
		first = false
		beta := Norm(g.r0)
		res.Residual = beta
		if beta <= tol*bn {
			res.Converged = true
			return res, nil
		}
		clear(g.g)
		g.g[0] = beta
		j := 0
		done := false
		var err error
		src, scale := g.r0, beta // v_j = src/scale, formed by MS
		for j < restart && res.Iterations < o.MaxIter {
			MS(src, scale, g.v[j], g.t)
			if err = A(g.t, g.u); err != nil {
				break
			}
			res.Iterations++
			// Modified Gram–Schmidt, each subtraction fused with the next
			// inner product (or, after the last, with ‖u‖²): the same
			// operations in the same order as Dot, Axpy, …, Norm, one pass
			// over u per basis vector instead of two.
			hij := Dot(g.u, g.v[0])
			for i := 0; i < j; i++ {
				g.h[i][j] = hij
				hij = axpyDot(-hij, g.v[i], g.u, g.v[i+1])
			}
			g.h[j][j] = hij
			hn := math.Sqrt(axpyDot(-hij, g.v[j], g.u, g.u))
			g.h[j+1][j] = hn
			src, scale = g.u, hn // v_{j+1}, formed by the next MS
			if !(hn > 0) {
				// hn NaN (hn = 0 ends the cycle below): keep v_{j+1} as it
				// was (v/1 = v), as GMRES did before the scaled form.
				src, scale = g.v[j+1], 1
			}
			for i := 0; i < j; i++ { // previous Givens rotations
				a, c := g.h[i][j], g.h[i+1][j]
				g.h[i][j] = g.cs[i]*a + g.sn[i]*c
				g.h[i+1][j] = -g.sn[i]*a + g.cs[i]*c
			}
			a, c := g.h[j][j], g.h[j+1][j]
			d := math.Hypot(a, c)
			if d == 0 {
				g.cs[j], g.sn[j] = 1, 0
			} else {
				g.cs[j], g.sn[j] = a/d, c/d
			}
			g.h[j][j] = d
			g.h[j+1][j] = 0
			g.g[j+1] = -g.sn[j] * g.g[j]
			g.g[j] = g.cs[j] * g.g[j]
			j++
			res.Residual = math.Abs(g.g[j])
			if math.Abs(g.g[j]) <= tol*bn || hn == 0 {
				res.Converged = math.Abs(g.g[j]) <= tol*bn
				done = true
				break
			}
		}
		// Back substitution for the Krylov coefficients, then x += M⁻¹ V y.
		for i := j - 1; i >= 0; i-- {
			s := g.g[i]
			for k := i + 1; k < j; k++ {
				s -= g.h[i][k] * g.yk[k]
			}
			if g.h[i][i] != 0 {
				g.yk[i] = s / g.h[i][i]
			} else {
				g.yk[i] = 0
			}
		}
		clear(g.t)
		for i := 0; i < j; i++ {
			Axpy(g.yk[i], g.v[i], g.t)
		}
		if M != nil {
			M(g.t, g.u)
		} else {
			MS(g.t, 1, g.t, g.u) // t/1 = t exactly
		}
		Axpy(1, g.u, x)
		if err != nil {
			return res, opError(err)
		}
		if done {
			return res, nil
		}
	}
	return res, nil
}

// axpyDot sets y += a·x and returns the inner product of the updated y with
// z, summed in index order: Axpy(a, x, y) then Dot(y, z) in one pass, with
// the same bits (z may be y, giving ‖y‖² as Norm sums it).
func axpyDot(a float64, x, y, z []float64) float64 {
	n := len(x)
	y = y[:n]
	z = z[:n]
	s := 0.0
	i := 0
	for ; i+4 <= n; i += 4 { // unrolled; s still summed in index order
		x4, y4, z4 := x[i:i+4:i+4], y[i:i+4:i+4], z[i:i+4:i+4]
		y0 := y4[0] + float64(a*x4[0])
		y4[0] = y0
		s += float64(y0 * z4[0])
		y1 := y4[1] + float64(a*x4[1])
		y4[1] = y1
		s += float64(y1 * z4[1])
		y2 := y4[2] + float64(a*x4[2])
		y4[2] = y2
		s += float64(y2 * z4[2])
		y3 := y4[3] + float64(a*x4[3])
		y4[3] = y3
		s += float64(y3 * z4[3])
	}
	for ; i < n; i++ {
		yi := y[i] + float64(a*x[i])
		y[i] = yi
		s += float64(yi * z[i])
	}
	return s
}
