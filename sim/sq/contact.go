package sq

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// ContactResult is the outcome of a particle–particle contact query.
type ContactResult struct {
	InContact bool
	Point     geom.Vec3 // midway point X₀ of S1 eq. (19)–(23); pass it back as the warm start
	Normal    geom.Vec3 // unit contact normal from B to A
	PA, PB    geom.Vec3 // contact-line intersections with the surfaces of A and B, S1 eq. (36)
	Overlap   float64   // δ = (PB − PA)·Normal ≥ 0 when in contact, else 0
	Gap       float64   // (PA − PB)·Normal: −Overlap in contact, the separation otherwise
	Iter      int       // Newton iterations spent on the midway point, all stages
	Converged bool      // the midway point met the tolerance
	Err       error     // why not, when !Converged
}

// ConvergenceError reports a midway-point solve that missed its tolerance.
type ConvergenceError struct {
	Stage    string  // "continuation" (the warm start, if any, failed too)
	Iter     int     // Newton iterations spent
	Residual float64 // final ‖Φ‖ (scaled by the length scale)
}

// Error implements error.
func (e *ConvergenceError) Error() string {
	return fmt.Sprintf("sq: midway point did not converge (%s, %d iterations, |Φ| = %.3g)", e.Stage, e.Iter, e.Residual)
}

// Options tunes the contact solver; zero fields take the defaults.
type Options struct {
	Tol     float64 // ‖Φ‖ tolerance in units of the length scale (default 1e-10)
	MaxIter int     // Newton iterations per solve (default 60)
	Steps   int     // continuation steps N of S1 §2.3 (default from the blockiness)
}

// DefaultOptions are the options Contact uses.
var DefaultOptions = Options{Tol: 1e-10, MaxIter: 60}

// Contact returns the contact between shape a at pose pa and shape b at pose
// pb. warm, when not nil, is a previous midway point (ContactResult.Point);
// otherwise, or when the warm start fails, the point is found by blockiness
// continuation from volume-equivalent spheres (S1 §2.3 steps 1–5).
func Contact(a Shape, pa Pose, b Shape, pb Pose, warm *geom.Vec3) ContactResult {
	return ContactWith(DefaultOptions, a, pa, b, pb, warm)
}

// ContactWith is Contact with explicit options.
func ContactWith(o Options, a Shape, pa Pose, b Shape, pb Pose, warm *geom.Vec3) ContactResult {
	if o.Tol <= 0 {
		o.Tol = DefaultOptions.Tol
	}
	if o.MaxIter <= 0 {
		o.MaxIter = DefaultOptions.MaxIter
	}
	// Work relative to A's centre in units of the smaller particle, so that
	// the tolerance is relative and the rows of Φ are commensurate.
	L := math.Min(math.Max(a.A, math.Max(a.B, a.C)), math.Max(b.A, math.Max(b.B, b.C)))
	invL := 1 / L
	origin := pa.X
	var sol newtonState
	ok := false
	iter := 0
	A, B := a.posed(pa, origin, invL), b.posed(pb, origin, invL)
	if warm != nil && warm.IsFinite() {
		sol.x = warm.Sub(origin).Scale(invL)
		sol.mu = -1 // from the gradients
		ok = newton(&A, &B, &sol, o.Tol, o.MaxIter)
		iter += sol.iter
	}
	if !ok {
		n := o.Steps
		if n <= 0 {
			n = defaultSteps(a, b)
		}
		for try := 0; try < 3 && !ok; try++ {
			ok = continuation(a, pa, b, pb, &A, &B, origin, invL, n, o, &sol)
			iter += sol.iter
			n *= 3
		}
	}
	res := finish(&A, &B, &sol)
	res.Iter = iter
	res.Converged = ok
	if !ok {
		res.Err = &ConvergenceError{Stage: "continuation", Iter: iter, Residual: sol.res}
	}
	// back to world units
	res.Point = res.Point.Scale(L).Add(origin)
	res.PA = res.PA.Scale(L).Add(origin)
	res.PB = res.PB.Scale(L).Add(origin)
	res.Overlap *= L
	res.Gap *= L
	return res
}

// defaultSteps returns the continuation step count N for the pair.
func defaultSteps(a, b Shape) int {
	m := math.Max(math.Max(a.N1, a.N2), math.Max(b.N1, b.N2))
	return 1 + int(math.Ceil((m-2)/4))
}

// continuation runs S1 §2.3 steps 1–5: start from the analytic contact point of
// the volume-equivalent spheres and move shape and blockiness linearly to the
// real ones in n steps, each solved by Newton from the previous point.
func continuation(a Shape, pa Pose, b Shape, pb Pose, fa, fb *posed, origin geom.Vec3, invL float64, n int, o Options, st *newtonState) bool {
	r1, r2 := a.VolumeRadius(), b.VolumeRadius()
	c1, c2 := pa.X.Sub(origin).Scale(invL), pb.X.Sub(origin).Scale(invL)
	st.x = c1.Scale(r2).Add(c2.Scale(r1)).Scale(1 / (r1 + r2)) // S1 eq. (25)
	st.mu = math.Sqrt(r2 / r1)                                 // |∇F₁|/|∇F₂| = r₂/r₁ for the spheres
	total := 0
	ok := false
	for k := 1; k <= n; k++ {
		t := float64(k) / float64(n)
		if k < n {
			sa, sb := blend(a, r1, t), blend(b, r2, t) // S1 eq. (26)–(27)
			A, B := sa.posed(pa, origin, invL), sb.posed(pb, origin, invL)
			ok = newton(&A, &B, st, math.Max(o.Tol, 1e-4), o.MaxIter)
		} else {
			ok = newton(fa, fb, st, o.Tol, o.MaxIter)
		}
		total += st.iter
		if !ok && k < n && !finite(st) {
			break
		}
	}
	st.iter = total
	return ok
}

func finite(st *newtonState) bool { return st.x.IsFinite() && !math.IsNaN(st.mu) }

// blend returns the shape a fraction t of the way from the sphere of radius r
// to s, S1 eq. (26)–(27).
func blend(s Shape, r, t float64) Shape {
	return Shape{
		A:  r + t*(s.A-r), // S1 eq. (27)
		B:  r + t*(s.B-r),
		C:  r + t*(s.C-r),
		N1: 2 + t*(s.N1-2),
		N2: 2 + t*(s.N2-2),
	}
}

// newtonState is the unknown Z = (X, μ) of S1 eq. (23) with the last residual.
type newtonState struct {
	x      geom.Vec3
	mu     float64
	res    float64 // ‖Φ‖ at x, μ
	iter   int
	ea, eb evalOut // F, ∇F, H of A and B at x
}

// phi returns Φ of S1 eq. (24) and its norm from the evaluations at one point.
func phi(ea, eb *evalOut, mu float64) ([4]float64, float64) {
	m2 := mu * mu
	v := [4]float64{ea.g.X + m2*eb.g.X, ea.g.Y + m2*eb.g.Y, ea.g.Z + m2*eb.g.Z, ea.f - eb.f} // S1 eq. (24)
	return v, math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3])
}

// newton solves S1 eq. (23) for the midway point by Newton's method with
// step halving on ‖Φ‖ (S1 §2.3), starting from st. A negative st.mu is
// initialised from the gradients, μ² = |∇F₁|/|∇F₂|.
func newton(A, B *posed, st *newtonState, tol float64, maxIter int) bool {
	var ta, tb evalOut
	ea, eb := &st.ea, &st.eb
	A.evalW(st.x, true, ea)
	B.evalW(st.x, true, eb)
	if st.mu <= 0 || math.IsNaN(st.mu) {
		na, nb := ea.g.Norm(), eb.g.Norm()
		st.mu = 1
		if na > 0 && nb > 0 {
			st.mu = math.Sqrt(na / nb)
		}
	}
	st.iter = 0
	f, r := phi(ea, eb, st.mu)
	st.res = r
	for st.iter < maxIter {
		if converged(&f, ea.g, tol) {
			return true
		}
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return false
		}
		st.iter++
		// S1 §2.3: J δZ = −Φ with J = [[H₁ + μ²H₂, 2μ∇F₂], [(∇F₁ − ∇F₂)ᵀ, 0]].
		var j [4][5]float64
		m2 := st.mu * st.mu
		for i := 0; i < 3; i++ {
			for k := 0; k < 3; k++ {
				j[i][k] = ea.h[i][k] + m2*eb.h[i][k]
			}
			j[i][4] = -f[i]
		}
		j[0][3], j[1][3], j[2][3] = 2*st.mu*eb.g.X, 2*st.mu*eb.g.Y, 2*st.mu*eb.g.Z
		j[3][0], j[3][1], j[3][2], j[3][3], j[3][4] = ea.g.X-eb.g.X, ea.g.Y-eb.g.Y, ea.g.Z-eb.g.Z, 0, -f[3]
		d, ok := solve4(&j)
		if !ok {
			return false
		}
		dx := geom.Vec3{X: d[0], Y: d[1], Z: d[2]}
		dmu := d[3]
		if s := dx.Norm(); s > maxStep { // trust-region cap on the position step
			dx, dmu = dx.Scale(maxStep/s), dmu*maxStep/s
		}
		// Step halving until ‖Φ‖ decreases (S1 §2.3).
		alpha := 1.0
		accepted := false
		for h := 0; h < 40; h++ {
			xn := st.x.AddScaled(alpha, dx)
			mun := math.Abs(st.mu + alpha*dmu)
			A.evalW(xn, true, &ta)
			B.evalW(xn, true, &tb)
			fn, rn := phi(&ta, &tb, mun)
			if rn < r {
				st.x, st.mu, *ea, *eb, f, r = xn, mun, ta, tb, fn, rn
				accepted = true
				break
			}
			alpha /= 2
		}
		st.res = r
		if !accepted {
			return converged(&f, ea.g, tol)
		}
	}
	return converged(&f, ea.g, tol)
}

// converged reports whether Φ of S1 eq. (24) meets the tolerance: |F₁ − F₂|
// below tol and the gradient rows below tol·min(1, |∇F₁|). The relative part
// matters only at deep overlaps, where the midway point lies near the centres
// and the gradients of blocky shapes nearly vanish, so that an absolute test
// would accept a point whose gradients are not antiparallel.
func converged(f *[4]float64, ga geom.Vec3, tol float64) bool {
	g := math.Sqrt(f[0]*f[0] + f[1]*f[1] + f[2]*f[2])
	return math.Abs(f[3]) < tol && g < tol*math.Min(1, ga.Norm())
}

// maxStep caps a Newton position step (in units of the length scale).
const maxStep = 0.5

// solve4 solves the 4×4 system stored as an augmented matrix by Gaussian
// elimination with partial pivoting.
func solve4(m *[4][5]float64) ([4]float64, bool) {
	var x [4]float64
	for c := 0; c < 4; c++ {
		p := c
		for r := c + 1; r < 4; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if m[p][c] == 0 || math.IsNaN(m[p][c]) {
			return x, false
		}
		m[c], m[p] = m[p], m[c]
		inv := 1 / m[c][c]
		for r := c + 1; r < 4; r++ {
			k := m[r][c] * inv
			if k == 0 {
				continue
			}
			for q := c; q < 5; q++ {
				m[r][q] -= k * m[c][q]
			}
		}
	}
	for r := 3; r >= 0; r-- {
		s := m[r][4]
		for q := r + 1; q < 4; q++ {
			s -= m[r][q] * x[q]
		}
		x[r] = s / m[r][r]
	}
	return x, true
}

// finish computes the normal at the midway point and the overlap along the
// contact line, S1 eq. (36)–(37); lengths stay in the scaled frame.
func finish(A, B *posed, st *newtonState) ContactResult {
	ea, eb := &st.ea, &st.eb
	// At the solution ∇F_A ∥ −∇F_B; average the two unit normals (S1 §2.3: n₁₂ = ∇F₁/|∇F₁| = −∇F₂/|∇F₂|).
	n := eb.g.Unit().Sub(ea.g.Unit()).Unit()
	if n == (geom.Vec3{}) { // both gradients vanish: the centres coincide
		n = A.c.Sub(B.c).Unit()
		if n == (geom.Vec3{}) {
			n = geom.Vec3{Z: 1}
		}
	}
	sa := A.lineExit(st.x, n.Neg(), ea)
	sb := B.lineExit(st.x, n, eb)
	r := ContactResult{Point: st.x, Normal: n}
	r.PA = st.x.AddScaled(-sa, n)
	r.PB = st.x.AddScaled(sb, n)
	r.Gap = r.PA.Sub(r.PB).Dot(n) // S1 after eq. (36): δ_n = X_i − X_j along the contact line
	if r.Gap < 0 {
		r.InContact, r.Overlap = true, -r.Gap
	}
	return r
}

// lineExit returns s such that X₀ + s·d lies on the surface where the line
// leaves the body in direction d (d ≈ the outward normal there), by Newton's
// iteration S1 eq. (37) — on the gauge (1 + F)^(1/n1) − 1, which has the same
// root and is convex and degree-one along the line, when X₀ is far from the
// surface. e0 holds F, ∇F at X₀. From inside, the root is bracketed and
// bisection guards each step; from outside, the iteration is monotone, and if
// the line misses the body (possible only for separated pairs) the radial
// projection of X₀ is used instead.
func (ps *posed) lineExit(x0, d geom.Vec3, e0 *evalOut) float64 {
	s := 0.0
	e := *e0
	useGauge := e.f < -0.5 || e.f > 1
	inside := e.f < 0
	lo, hi := 0.0, 0.0
	if inside { // the exit lies within |X₀ − c| + the half-diagonal
		a, b, c := 1/ps.q.ia, 1/ps.q.ib, 1/ps.q.ic
		hi = x0.Sub(ps.c).Norm() + math.Sqrt(a*a+b*b+c*c)
	}
	for it := 0; it < 200; it++ {
		if it > 0 {
			ps.evalW(x0.AddScaled(s, d), false, &e)
		}
		h, dh := e.f, e.g.Dot(d) // S1 eq. (37): f and ∇f·n̂ along the line
		if h == 0 {
			return s
		}
		if useGauge {
			if g := ps.q.root1(1 + e.f); g > 0 {
				h, dh = g-1, g/(ps.q.n1*(1+e.f))*dh
			}
		}
		var ds float64
		if inside {
			if h < 0 {
				lo = s
			} else {
				hi = s
			}
			ds = -h / dh // S1 eq. (37)
			if !(dh > 0) || s+ds <= lo || s+ds >= hi {
				ds = (lo+hi)/2 - s
			}
		} else {
			if !(dh > 0) {
				break
			}
			ds = -h / dh // S1 eq. (37)
		}
		s += ds
		if math.Abs(ds) < 1e-14*(1+math.Abs(s)) {
			return s
		}
	}
	if inside {
		return s
	}
	// Fallback: radial projection of X₀ onto the surface, measured along d.
	x := ps.r.TMulV(x0.Sub(ps.c))
	if g := ps.q.root1(ps.q.phi(x)); g > 0 {
		p := ps.r.MulV(x.Scale(1 / g)).Add(ps.c)
		return p.Sub(x0).Dot(d)
	}
	return 0
}
