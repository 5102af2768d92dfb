package cd

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// Method selects the solver of the CD complementarity problem.
type Method int

const (
	// PGS is projected Gauss–Seidel on the LCP (S3 eq. 21).
	PGS Method = iota
	// APGD is Nesterov-accelerated projected gradient descent with adaptive
	// step and restart on the QP (S3 eq. 22; Mazhar et al., S3 ref. [17]).
	APGD
)

// String returns the method's name.
func (m Method) String() string {
	if m == APGD {
		return "APGD"
	}
	return "PGS"
}

// StepOptions configures one CD time step.
type StepOptions struct {
	Dt          float64     // time step Δt (> 0)
	Restitution float64     // e_n ∈ [0, 1]; 0 is the gap form (S3 eq. 16)
	Touch       float64     // with e_n > 0, contacts with Φ ≤ Touch count as formed (default 0)
	Method      Method      // PGS or APGD
	MaxIter     int         // sweeps (PGS) or iterations (APGD); default 10000
	Tol         float64     // relative residual to stop (see Residual); default 1e-8
	Order       []int       // PGS visiting order of the contacts; nil = 0…Nc−1
	Omega       float64     // PGS over-relaxation; default 1
	Warm        []float64   // initial forces (nil = zero)
	WarmT       []geom.Vec3 // initial tangential forces on A, world, per contact (nil = zero; friction only)
}

// StepResult is the outcome of one CD time step.
type StepResult struct {
	F    []float64   // contact forces f^{t+Δt} (impulse/Δt, ≥ 0, compressive)
	V, W []geom.Vec3 // end-of-step velocities (S3 eq. 13)
	X    []geom.Vec3 // end-of-step centres x + Δt v^{t+Δt}
	Q    []geom.Quat // end-of-step orientations exp(Δt ω^{t+Δt}) q
	Load []float64   // generalised load F̃ = Bᵀf (+ Tᵀf_t with friction) of S3 eq. (37), 6 per body
	// With friction (System.Frictional): the tangential forces on A (world,
	// impulse/Δt) per contact, which contacts slide at the end of the step,
	// and their resultant Tᵀf_t (6 per body, part of Load); nil otherwise.
	Ft           []geom.Vec3
	Slide        []bool
	FrictionLoad []float64

	Iter      int     // sweeps or iterations used (with friction: APGD iterations plus sweeps)
	Sweeps    int     // with friction: the Gauss–Seidel sweeps among Iter
	Residual  float64 // max_i |min(N_ii f_i, (Nf+p)_i)| / ‖p‖∞ at F
	Converged bool    // Residual ≤ Tol
}

// lcp is the complementarity problem 0 ≤ f ⊥ Nf + p ≥ 0 (S3 eq. 21) with
// N = Δt B M⁻¹ Bᵀ applied matrix-free.
type lcp struct {
	s     *System
	dt    float64
	p     []float64 // S3 eq. (20)
	diag  []float64 // N_ii
	scale float64   // ‖p‖∞ (velocity scale of the residual)
	z     []float64 // work: 6 per body
}

// newLCP assembles p and diag(N) for the step.
func (s *System) newLCP(o StepOptions) *lcp {
	nc := len(s.rows)
	l := &lcp{s: s, dt: o.Dt, p: make([]float64, nc), diag: make([]float64, nc),
		z: make([]float64, s.NumDOF())}
	v := s.velocities()
	bv := s.MulB(v)
	// Δt B M⁻¹ F^ext.
	s.applyInvM(o.Dt, s.External(), l.z)
	bg := make([]float64, nc)
	s.bFree(l.z, bg)
	for i, c := range s.Contacts {
		if !s.active(i) {
			continue
		}
		r := &s.rows[i]
		ma, mb := s.invMRow(r.a, r.ja), s.invMRow(r.b, r.jb)
		l.diag[i] = o.Dt * (dot6(r.ja[:], ma[:]) + dot6(r.jb[:], mb[:])) // N_ii, S3 eq. (20)
		// The velocity-level bias: Φ^t/Δt (S3 eq. 16), or e_n B v^t for a
		// formed contact with restitution (S3 §4.3); min(·, 0) so that a
		// separating contact is not pulled back. A formed contact that
		// penetrates (Φ < 0) is also pushed out at −Φ/Δt when that is the
		// stronger condition, so that overlaps do not persist.
		bias := c.Gap / o.Dt
		if o.Restitution > 0 && c.Gap <= o.Touch {
			bias = min(o.Restitution*min(bv[i], 0), c.Gap/o.Dt)
		}
		l.p[i] = bias + bv[i] + bg[i] // S3 eq. (20)
		l.scale = max(l.scale, math.Abs(l.p[i]))
	}
	return l
}

// mulN computes out = N x = Δt B M⁻¹ Bᵀ x (S3 eq. 20).
func (l *lcp) mulN(x, out []float64) {
	l.s.btFree(x, l.z)
	l.s.applyInvM(l.dt, l.z, l.z)
	l.s.bFree(l.z, out)
}

// residual returns the scaled natural-map residual max_i |min(N_ii f_i, w_i)|/‖p‖∞
// of the LCP with w = N f + p.
func (l *lcp) residual(f, w []float64) float64 {
	var r float64
	for i := range f {
		v := l.diag[i] * f[i] // zero for inert contacts (f = 0 there)
		if w[i] < v && l.diag[i] != 0 {
			v = w[i]
		}
		if v < 0 {
			v = -v
		}
		if v > r {
			r = v
		}
	}
	if l.scale > 0 {
		r /= l.scale
	}
	return r
}

// Step advances the system by one semi-implicit Euler step of CD (S3 eq.
// 13–21), with Coulomb friction cones when some contact has MuS > 0
// (friction.go). The bodies are not modified; the new state is returned.
func (s *System) Step(o StepOptions) (StepResult, error) {
	if !(o.Dt > 0) {
		return StepResult{}, errNoDt
	}
	if o.Restitution < 0 || o.Restitution > 1 {
		return StepResult{}, fmt.Errorf("cd: restitution %g outside [0, 1]", o.Restitution)
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 10000
	}
	if o.Tol <= 0 {
		o.Tol = 1e-8
	}
	if o.Omega <= 0 {
		o.Omega = 1
	}
	nc := len(s.rows)
	f := make([]float64, nc)
	if o.Warm != nil {
		if len(o.Warm) != nc {
			return StepResult{}, fmt.Errorf("cd: warm start has %d entries for %d contacts", len(o.Warm), nc)
		}
		for i, x := range o.Warm {
			if s.active(i) {
				f[i] = max(x, 0)
			}
		}
	}
	if o.WarmT != nil && len(o.WarmT) != nc {
		return StepResult{}, fmt.Errorf("cd: tangential warm start has %d entries for %d contacts", len(o.WarmT), nc)
	}
	l := s.newLCP(o)
	var res StepResult
	if s.Frictional() {
		// The cone complementarity problem is solved by APGD whatever the
		// method (friction.go).
		res.F, res.Ft, res.Slide, res.Iter, res.Sweeps, res.Residual = s.solveFriction(l, f, o)
		res.Converged = res.Residual <= o.Tol
		res.FrictionLoad = s.frictionLoad(res.Ft)
		s.finishStep(&res, o.Dt)
		return res, nil
	}
	switch o.Method {
	case PGS:
		if o.Order != nil {
			seen := make([]bool, nc)
			for _, i := range o.Order {
				if i < 0 || i >= nc || seen[i] {
					return StepResult{}, fmt.Errorf("cd: order is not a permutation of the %d contacts", nc)
				}
				seen[i] = true
			}
			if len(o.Order) != nc {
				return StepResult{}, fmt.Errorf("cd: order has %d entries for %d contacts", len(o.Order), nc)
			}
		}
		res.Iter, res.Residual = l.pgs(f, o)
	case APGD:
		f, res.Iter, res.Residual = l.apgd(f, o)
	default:
		return StepResult{}, fmt.Errorf("cd: unknown method %d", o.Method)
	}
	res.F = f
	res.Converged = res.Residual <= o.Tol
	s.finishStep(&res, o.Dt)
	return res, nil
}

// finishStep applies S3 eq. (13): v⁺ = v + Δt M⁻¹(Bᵀf + F^ext), x⁺ = x + Δt v⁺,
// and records F̃ = Bᵀf, equal to (1/Δt)M(v⁺ − v) − F^ext of S3 eq. (37).
func (s *System) finishStep(res *StepResult, dt float64) {
	nb := len(s.Bodies)
	res.Load = make([]float64, s.NumDOF())
	s.btFree(res.F, res.Load)
	for k, x := range res.FrictionLoad {
		res.Load[k] += x
	}
	tot := s.External()
	for k := range tot {
		tot[k] += res.Load[k]
	}
	dv := make([]float64, s.NumDOF())
	s.applyInvM(dt, tot, dv)
	res.V, res.W = make([]geom.Vec3, nb), make([]geom.Vec3, nb)
	res.X, res.Q = make([]geom.Vec3, nb), make([]geom.Quat, nb)
	for a, b := range s.Bodies {
		d := dv[6*a : 6*a+6]
		res.V[a] = b.V.Add(geom.V(d[0], d[1], d[2]))
		res.W[a] = b.W.Add(geom.V(d[3], d[4], d[5]))
		res.X[a] = b.X.AddScaled(dt, res.V[a]) // S3 eq. (13), first line
		q := b.Q
		if q == (geom.Quat{}) {
			q = geom.QIdent()
		}
		res.Q[a] = q.Integrate(res.W[a], dt) // exact exponential map of L(q)v
	}
}

// pgs runs projected Gauss–Seidel on S3 eq. (21) in place on f:
// f_i ← max(0, f_i − ω (Nf + p)_i / N_ii), contact by contact in the given
// order, keeping z = Δt M⁻¹ Bᵀ f current so each update is O(1).
func (l *lcp) pgs(f []float64, o StepOptions) (int, float64) {
	s := l.s
	nc := len(f)
	order := o.Order
	if order == nil {
		order = make([]int, nc)
		for i := range order {
			order[i] = i
		}
	}
	// Δt M⁻¹ B_iᵀ per contact.
	ma := make([][6]float64, nc)
	mb := make([][6]float64, nc)
	for i := range s.rows {
		r := &s.rows[i]
		ma[i], mb[i] = s.invMRow(r.a, r.ja), s.invMRow(r.b, r.jb)
		for k := range 6 {
			ma[i][k] *= l.dt
			mb[i][k] *= l.dt
		}
	}
	z := make([]float64, s.NumDOF())
	s.btFree(f, z)
	s.applyInvM(l.dt, z, z)
	w := make([]float64, nc)
	res := math.Inf(1)
	it := 0
	for it < o.MaxIter {
		it++
		for _, i := range order {
			if l.diag[i] == 0 {
				continue
			}
			r := &s.rows[i]
			wi := l.p[i]
			if r.fa {
				wi += dot6(r.ja[:], z[6*r.a:6*r.a+6])
			}
			if r.fb {
				wi += dot6(r.jb[:], z[6*r.b:6*r.b+6])
			}
			fn := max(0, f[i]-o.Omega*wi/l.diag[i])
			df := fn - f[i]
			if df == 0 {
				continue
			}
			f[i] = fn
			if r.fa {
				za := z[6*r.a : 6*r.a+6]
				for k := range 6 {
					za[k] += df * ma[i][k]
				}
			}
			if r.fb {
				zb := z[6*r.b : 6*r.b+6]
				for k := range 6 {
					zb[k] += df * mb[i][k]
				}
			}
		}
		s.bFree(z, w)
		for i := range w {
			w[i] += l.p[i]
		}
		res = l.residual(f, w)
		if res <= o.Tol {
			break
		}
	}
	return it, res
}

// apgd minimises ½fᵀNf + pᵀf over f ≥ 0 (S3 eq. 22) from f.
func (l *lcp) apgd(f []float64, o StepOptions) ([]float64, int, float64) {
	q := &boxQP{
		n:    len(f),
		mulQ: l.mulN,
		c:    l.p,
		fix:  func(i int) bool { return l.diag[i] == 0 },
		resid: func(x, g []float64) float64 {
			return l.residual(x, g) // g = Nx + p here
		},
	}
	return q.apgd(f, o.MaxIter, o.Tol)
}
