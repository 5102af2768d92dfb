package cd

import (
	"fmt"
	"math"

	"grainlab/sim/krylov"
)

// CompatMethod selects the solver of the no-tension truss problem (S3 eq. 36).
type CompatMethod int

const (
	// CompatAuto uses CompatActiveSet when every contact is Hookean and
	// CompatAugLag otherwise (as S3 §7 does for Hertzian contacts).
	CompatAuto CompatMethod = iota
	// CompatActiveSet is a primal–dual active-set (semismooth Newton) method
	// on the truss multipliers λ = −u of S3 eq. (28)/(32), each Newton system
	// solved by Jacobi-preconditioned conjugate gradients; for Hertzian
	// contacts it is a damped Newton method on the same smooth dual.
	CompatActiveSet
	// CompatAugLag is the augmented Lagrangian method of S3 §7 (LANCELOT-type
	// outer loop) with APGD on the bound-constrained subproblems.
	CompatAugLag
)

// String returns the method's name.
func (m CompatMethod) String() string {
	switch m {
	case CompatActiveSet:
		return "active-set"
	case CompatAugLag:
		return "augmented-Lagrangian"
	}
	return "auto"
}

// CompatOptions configures the compatibility post-processing.
type CompatOptions struct {
	Method    CompatMethod
	Tol       float64   // relative equilibrium residual (EquilibriumResidual); default 1e-10
	OptTol    float64   // relative optimality residual (AugLag subproblems); default 1e-9
	MaxIter   int       // outer iterations; default 100
	MaxInner  int       // CG or APGD iterations per outer step; default 5000
	APGDInner bool      // AugLag: solve the subproblems by APGD (as S3 §7) instead of projected Newton–CG
	Init      []float64 // starting forces for AugLag (e.g. the CD forces); nil = zero
}

// CompatResult holds the compatible contact forces.
type CompatResult struct {
	F         []float64 // compatible contact forces (≥ 0, compressive)
	Lambda    []float64 // multipliers of Bᵀf = F̃: λ = −u, the truss displacements of S3 eq. (28) up to scale
	Objective float64   // Σ (p−1)/p k̃^{1/(1−p)} f^{p/(p−1)} (S3 eq. 36)
	Iter      int       // outer iterations
	Inner     int       // total CG or APGD iterations
	Residual  float64   // EquilibriumResidual(F, load)
	OptRes    float64   // relative complementarity residual of the optimality conditions
	Converged bool
}

// phi returns the scaled complementary energy of one contact and its
// derivative (S3 eq. 36): (p−1)/p k̃^{1/(1−p)} f^{p/(p−1)}, extended by 0 for f < 0.
func phi(k, p, f float64) (v, d float64) {
	if f <= 0 {
		return 0, 0
	}
	if p == 2 { // Hookean: f²/(2k̃)
		return 0.5 * f * f / k, f / k
	}
	// Hertzian: (3/5) k̃^{−2/3} f^{5/3}, derivative k̃^{−2/3} f^{2/3}.
	kf := math.Cbrt(f / k)
	d = kf * kf
	return 0.6 * f * d, d
}

// forceOf returns the force of the overlap c: f = k̃ c₊^{p−1} (S3 eq. 31)
// and the dual energy w = k̃ c₊^p / p (S3 eq. 29, 34).
func forceOf(k, p, c float64) (f, w float64) {
	if c <= 0 {
		return 0, 0
	}
	if p == 2 {
		return k * c, 0.5 * k * c * c
	}
	sq := math.Sqrt(c)
	return k * c * sq, 0.4 * k * c * c * sq
}

// Compatible solves the no-tension truss problem (S3 eq. 36): among the
// contact forces f ≥ 0 with Bᵀf = F̃ on the free bodies (S3 eq. 37), the one
// minimising the scaled complementary energy of elastic contacts with
// relative stiffnesses k̃. Use load = StepResult.Load after a CD step, or
// StaticLoad() for a system at rest.
func (s *System) Compatible(load []float64, o CompatOptions) (CompatResult, error) {
	if len(load) != s.NumDOF() {
		return CompatResult{}, fmt.Errorf("cd: load has %d entries, want %d", len(load), s.NumDOF())
	}
	if o.Init != nil && len(o.Init) != len(s.rows) {
		return CompatResult{}, fmt.Errorf("cd: init has %d entries for %d contacts", len(o.Init), len(s.rows))
	}
	if o.Tol <= 0 {
		o.Tol = 1e-10
	}
	if o.OptTol <= 0 {
		o.OptTol = 1e-9
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 100
	}
	if o.MaxInner <= 0 {
		o.MaxInner = 5000
	}
	m := o.Method
	if m == CompatAuto {
		m = CompatActiveSet
		for _, p := range s.pExp {
			if p != 2 {
				m = CompatAugLag
			}
		}
	}
	var r CompatResult
	switch m {
	case CompatActiveSet:
		r = s.compatNewton(load, o, nil)
	case CompatAugLag:
		r = s.compatAugLag(load, o)
	default:
		return CompatResult{}, fmt.Errorf("cd: unknown compatibility method %d", o.Method)
	}
	for i, f := range r.F {
		v, _ := phi(s.kRel[i], s.pExp[i], f)
		r.Objective += v
	}
	r.Residual = s.EquilibriumResidual(r.F, load)
	r.Converged = r.Residual <= o.Tol && r.OptRes <= o.OptTol
	return r, nil
}

// dofMask marks the free degrees of freedom that some contact acts on: the
// unknowns of the truss (Γ_N of S3 eq. 32 restricted to loaded directions).
// A rotational column that is zero up to round-off (a sphere) is dropped.
func (s *System) dofMask() []bool {
	nd := s.NumDOF()
	h := make([]float64, nd)
	for i := range s.rows {
		r := &s.rows[i]
		for k := range 6 {
			if r.fa {
				h[6*r.a+k] += r.ja[k] * r.ja[k]
			}
			if r.fb {
				h[6*r.b+k] += r.jb[k] * r.jb[k]
			}
		}
	}
	mask := make([]bool, nd)
	for a := range s.Bodies {
		if !s.free[a] {
			continue
		}
		t := max(h[6*a], max(h[6*a+1], h[6*a+2]))
		for k := range 6 {
			ref := t
			if k >= 3 {
				ref = t * s.ell[a] * s.ell[a]
			}
			mask[6*a+k] = h[6*a+k] > 1e-22*ref && h[6*a+k] > 0
		}
	}
	return mask
}

// dualState evaluates, at multipliers λ, the overlaps c = Bλ (S3 eq. 28 with
// λ = −u), the forces f = k̃c₊^{p−1}, the dual value
// d(λ) = λᵀF̃ − Σ k̃c₊^p/p (the negated potential energy of S3 eq. 32) and
// its gradient F̃ − Bᵀf on the masked DOFs.
type dualState struct {
	c, f, g []float64
	d       float64
}

func (s *System) evalDual(lam, load []float64, mask []bool, st *dualState) {
	s.bFree(lam, st.c)
	var w float64
	for i, c := range st.c {
		fi, wi := forceOf(s.kRel[i], s.pExp[i], c)
		st.f[i] = fi
		w += wi
	}
	s.btFree(st.f, st.g)
	var lf float64
	for j := range st.g {
		if !mask[j] {
			st.g[j] = 0
			continue
		}
		st.g[j] = load[j] - st.g[j]
		lf += lam[j] * load[j]
	}
	st.d = lf - w
}

// compatNewton maximises the concave dual d(λ) (equivalently: minimises the
// no-tension truss potential energy, S3 eq. 32) by Newton's method with the
// generalised Hessian Bᵀ diag(D) B, D_i = (p−1)k̃c₊^{p−2} (S3 eq. 31). For
// Hookean contacts D switches between k̃ (c > 0) and 0: the active set of a
// primal–dual active-set method. Inactive or nearly-inactive contacts get a
// softening ρ·D_ref that vanishes as full steps are accepted; an Armijo line
// search on d globalises the iteration. lam0 = nil starts from zero.
func (s *System) compatNewton(load []float64, o CompatOptions, lam0 []float64) CompatResult {
	nd, nc := s.NumDOF(), len(s.rows)
	mask := s.dofMask()
	lam := make([]float64, nd)
	if lam0 != nil {
		copy(lam, lam0)
	}
	st := &dualState{c: make([]float64, nc), f: make([]float64, nc), g: make([]float64, nd)}
	tr := &dualState{c: make([]float64, nc), f: make([]float64, nc), g: make([]float64, nd)}
	hertz := false
	for _, p := range s.pExp {
		hertz = hertz || p != 2
	}
	var res CompatResult
	if hertz && lam0 == nil {
		// Start from the Hookean solution, scaled to the best multiple σλ_H
		// for the true laws.
		hk := *s
		hk.pExp = make([]float64, nc)
		for i := range hk.pExp {
			hk.pExp[i] = 2
		}
		ho := o
		ho.Tol = max(o.Tol, 1e-6)
		hr := hk.compatNewton(load, ho, nil)
		res.Iter, res.Inner = hr.Iter, hr.Inner
		copy(lam, hr.Lambda)
		s.bFree(lam, st.c)
		var a float64
		for j := range lam {
			if mask[j] {
				a += lam[j] * load[j]
			}
		}
		if sig := s.bestScale(st.c, a); sig > 0 {
			for j := range lam {
				lam[j] *= sig
			}
		}
	}
	s.evalDual(lam, load, mask, st)
	D := make([]float64, nc)
	diag := make([]float64, nd)
	dl := make([]float64, nd)
	rho := 1.0
	var kw krylov.Work
	tc := make([]float64, nc) // B·x on the contacts, inside the Hessian product
	lt := make([]float64, nd) // trial multipliers of the line search
	for res.Iter < o.MaxIter {
		if s.EquilibriumResidual(st.f, load) <= o.Tol {
			break
		}
		res.Iter++
		// Curvature D_i and its reference scale for the softening.
		var cref float64
		for _, c := range st.c {
			cref = max(cref, c)
		}
		for i, c := range st.c {
			k, p := s.kRel[i], s.pExp[i]
			var dref float64
			if p == 2 {
				dref = k
				if c > 0 {
					D[i] = k
				} else {
					D[i] = 0
				}
			} else {
				dref = 1.5 * k * math.Sqrt(cref)
				D[i] = 1.5 * k * math.Sqrt(max(c, 0))
			}
			D[i] = max(D[i], rho*dref)
		}
		// Jacobi diagonal of Bᵀ D B, and a tiny Levenberg term ε·diag.
		clear(diag)
		for i := range s.rows {
			r := &s.rows[i]
			for k := range 6 {
				if r.fa {
					diag[6*r.a+k] += D[i] * r.ja[k] * r.ja[k]
				}
				if r.fb {
					diag[6*r.b+k] += D[i] * r.jb[k] * r.jb[k]
				}
			}
		}
		const eps = 1e-10
		apply := func(x, out []float64) error {
			s.bFree(x, tc)
			for i := range tc {
				tc[i] *= D[i]
			}
			s.btFree(tc, out)
			for j := range out {
				if mask[j] {
					out[j] += eps * diag[j] * x[j]
				} else {
					out[j] = 0
				}
			}
			return nil
		}
		gn := krylov.Norm(st.g)
		eta := min(1e-2, max(1e-12, 0.1*s.EquilibriumResidual(st.f, load)))
		cr, _ := kw.MaskedCG(apply, diag, mask, st.g, dl, krylov.Options{ATol: eta * gn, MaxIter: o.MaxInner, Stop: krylov.StopAbs})
		res.Inner += cr.Iterations
		// Armijo line search on the concave dual (ascent direction dl).
		slope := krylov.Dot(st.g, dl)
		if !(slope > 0) {
			break
		}
		alpha := 1.0
		tol := 1e-13 * (math.Abs(st.d) + 1e-300)
		for {
			for j := range lam {
				lt[j] = lam[j] + alpha*dl[j]
			}
			s.evalDual(lt, load, mask, tr)
			if tr.d >= st.d+1e-4*alpha*slope-tol || alpha < 1e-12 {
				break
			}
			alpha *= 0.5
		}
		copy(lam, lt)
		st, tr = tr, st
		if alpha == 1 {
			rho = max(rho*1e-2, 1e-12)
		} else if alpha < 0.25 {
			rho = min(rho*10, 1)
		}
	}
	res.F = append([]float64(nil), st.f...)
	res.Lambda = lam
	res.OptRes = 0 // f = k̃c₊^{p−1} satisfies the optimality conditions exactly
	return res
}

// bestScale returns the σ > 0 maximising the concave d(σλ) = σa − Σ k̃(σc)₊^p/p
// given c = Bλ and a = λᵀF̃: the root of a = Σ k̃σ^{p−1}c₊^p, by bisection
// on log σ. It returns 0 when there is none.
func (s *System) bestScale(c []float64, a float64) float64 {
	if !(a > 0) {
		return 0
	}
	dd := func(sig float64) float64 {
		v := a
		for i, ci := range c {
			if ci > 0 {
				v -= s.kRel[i] * math.Pow(sig, s.pExp[i]-1) * math.Pow(ci, s.pExp[i])
			}
		}
		return v
	}
	lo, hi := 1.0, 1.0
	for k := 0; dd(hi) > 0; k++ {
		if k > 200 {
			return 0
		}
		hi *= 4
	}
	for k := 0; dd(lo) < 0; k++ {
		if k > 200 {
			return 0
		}
		lo /= 4
	}
	for range 100 {
		mid := math.Sqrt(lo * hi)
		if dd(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}
