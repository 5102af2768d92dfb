package integrate

import "math"

// gmresWork holds the Krylov basis and Hessenberg matrix of restarted GMRES.
type gmresWork struct {
	v        [][]float64
	h        [][]float64
	cs, sn   []float64
	g, yk    []float64
	t, u, r0 []float64
}

// solve approximately solves A x = b by restarted GMRES with right
// preconditioning (A M⁻¹ z = b, x = M⁻¹ z), starting from x = 0, until
// ‖b − A x‖ ≤ tol·‖b‖ or maxIt products with A. It returns the number of
// products taken (the linear iterations).
func (g *gmresWork) solve(A, Minv func(v, out []float64), b, x []float64, tol float64, restart, maxIt int) int {
	n := len(b)
	g.alloc(n, restart)
	clear(x)
	bn := norm2(b)
	if bn == 0 {
		return 0
	}
	its := 0
	copy(g.r0, b)
	first := true
	for its < maxIt {
		if !first { // true residual at the restart
			A(x, g.t)
			its++
			for i := range g.r0 {
				g.r0[i] = b[i] - g.t[i]
			}
		}
		first = false
		beta := norm2(g.r0)
		if beta <= tol*bn {
			return its
		}
		for i := range g.r0 {
			g.v[0][i] = g.r0[i] / beta
		}
		clear(g.g)
		g.g[0] = beta
		j := 0
		done := false
		for j < restart && its < maxIt {
			Minv(g.v[j], g.t)
			A(g.t, g.u)
			its++
			for i := 0; i <= j; i++ { // modified Gram–Schmidt
				hij := dot(g.u, g.v[i])
				g.h[i][j] = hij
				axpy(-hij, g.v[i], g.u)
			}
			hn := norm2(g.u)
			g.h[j+1][j] = hn
			if hn > 0 {
				for i := range g.u {
					g.v[j+1][i] = g.u[i] / hn
				}
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
			if math.Abs(g.g[j]) <= tol*bn || hn == 0 {
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
			axpy(g.yk[i], g.v[i], g.t)
		}
		Minv(g.t, g.u)
		axpy(1, g.u, x)
		if done {
			return its
		}
	}
	return its
}

func (g *gmresWork) alloc(n, restart int) {
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

// dot returns the Euclidean inner product of a and b (shared by the Krylov solvers).
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// axpy sets y += a·x.
func axpy(a float64, x, y []float64) {
	for i := range x {
		y[i] += a * x[i]
	}
}
