package cd

import "math"

// compatAugLag solves S3 eq. (36) by the augmented Lagrangian method the
// paper uses (S3 §7, after LANCELOT / Nocedal & Wright Alg. 17.4):
//
//	min_{f ≥ 0} Σ φ_i(f_i) − λᵀh(f) + (μ/2) h(f)ᵀ M⁻¹ h(f),  h(f) = Bᵀf − F̃,
//
// each bound-constrained subproblem solved by projected Newton–CG (the
// LANCELOT approach) or, with CompatOptions.APGDInner, by APGD as S3 §7 does
// ("we re-use our APGD solver"); then λ ← λ − μ M⁻¹ h, and μ ← 10μ when the equilibrium
// residual fell by less than a factor 4. The penalty metric M⁻¹ makes μ
// a mass-weighted, dimensionally consistent penalty across forces and torques.
func (s *System) compatAugLag(load []float64, o CompatOptions) CompatResult {
	mask := s.dofMask()
	f := s.augLagStart(o.Init)
	fbar := s.forceScale(f, load)
	dB, sPhi, sB, nact := s.augLagScales(fbar)
	res := CompatResult{Lambda: make([]float64, s.NumDOF())}
	if nact == 0 {
		res.F = f
		return res
	}
	al := s.newAugLag(load, mask, dB, res.Lambda, 10*sPhi/sB, sPhi, fbar)
	viol := s.EquilibriumResidual(f, load)
	innerTol := 1e-3
	for res.Iter < o.MaxIter {
		res.Iter++
		al.linearTerm()
		var it int
		if o.APGDInner {
			al.q.lip = 0
			f, it, res.OptRes = al.q.apgd(f, o.MaxInner, innerTol)
		} else {
			f, it, res.OptRes = al.q.projNewton(f, o.MaxInner, innerTol)
		}
		res.Inner += it
		nv := s.EquilibriumResidual(f, load)
		if nv <= o.Tol && res.OptRes <= o.OptTol {
			viol = nv
			break
		}
		al.updateMultipliers(f)
		if nv > 0.1*viol {
			al.mu *= 10
		}
		viol = nv
		innerTol = max(0.1*o.OptTol, min(0.1*innerTol, nv))
	}
	res.F = f
	return res
}

// augLagStart returns the starting contact forces: the nonnegative part of
// init on the active contacts (zero without init).
func (s *System) augLagStart(init []float64) []float64 {
	f := make([]float64, len(s.rows))
	if init != nil {
		for i, x := range init {
			if s.active(i) {
				f[i] = max(x, 0)
			}
		}
	}
	return f
}

// forceScale returns a typical force f̄: the mean of the positive starting
// forces, else the largest load on a free body, else 1.
func (s *System) forceScale(f, load []float64) float64 {
	var fbar float64
	var npos int
	for _, x := range f {
		if x > 0 {
			fbar += x
			npos++
		}
	}
	if npos > 0 {
		fbar /= float64(npos)
	} else {
		for a := range s.Bodies {
			if s.free[a] {
				fbar = max(fbar, s.bodyNorm(a, load[6*a:6*a+6], nil, false))
			}
		}
		if fbar == 0 {
			fbar = 1
		}
	}
	return fbar
}

// augLagScales returns diag(B M⁻¹ Bᵀ) per contact, and over the nact active
// contacts the mean curvature sPhi of φ at f̄ (S3 eq. 36) and the mean sB of
// that diagonal.
func (s *System) augLagScales(fbar float64) (dB []float64, sPhi, sB float64, nact int) {
	dB = make([]float64, len(s.rows))
	for i := range s.rows {
		if !s.active(i) {
			continue
		}
		nact++
		r := &s.rows[i]
		ma, mb := s.invMRow(r.a, r.ja), s.invMRow(r.b, r.jb)
		dB[i] = dot6(r.ja[:], ma[:]) + dot6(r.jb[:], mb[:])
		sB += dB[i]
		if s.pExp[i] == 2 {
			sPhi += 1 / s.kRel[i]
		} else {
			sPhi += 2.0 / 3 * math.Pow(s.kRel[i], -2.0/3) * math.Pow(fbar, -1.0/3)
		}
	}
	if nact > 0 {
		sB /= float64(nact)
		sPhi /= float64(nact)
	}
	return dB, sPhi, sB, nact
}

// augLag is the state of the augmented Lagrangian outer loop: the penalty
// μ, the multipliers λ (on the DOFs) and the bound-constrained subproblem q
// whose quadratic term μ B M⁻¹ Bᵀ and linear term follow μ and λ.
type augLag struct {
	s    *System
	load []float64
	mask []bool
	dB   []float64 // diag(B M⁻¹ Bᵀ)
	lam  []float64
	mu   float64
	h, t []float64 // DOF work vectors
	q    *boxQP
}

// newAugLag sets up the outer loop with penalty mu and multipliers lam, and
// the subproblem min_{f ≥ 0} Σ φ_i(f_i) + ½ fᵀ(μ B M⁻¹ Bᵀ)f + cᵀf with its
// KKT residual measured against the curvature scale sPhi and the force f̄.
func (s *System) newAugLag(load []float64, mask []bool, dB, lam []float64, mu, sPhi, fbar float64) *augLag {
	nd, nc := s.NumDOF(), len(s.rows)
	al := &augLag{s: s, load: load, mask: mask, dB: dB, lam: lam, mu: mu,
		h: make([]float64, nd), t: make([]float64, nd)}
	h := al.h
	q := &boxQP{
		n: nc,
		mulQ: func(x, out []float64) { // μ B M⁻¹ Bᵀ x on the masked DOFs
			s.btFree(x, h)
			for j := range h {
				if !mask[j] {
					h[j] = 0
				}
			}
			s.applyInvM(al.mu, h, h)
			s.bFree(h, out)
		},
		c:   make([]float64, nc),
		psi: func(i int, x float64) (float64, float64) { return phi(s.kRel[i], s.pExp[i], x) },
		fix: func(i int) bool { return !s.active(i) },
		psi2: func(i int, x float64) float64 {
			if s.pExp[i] == 2 {
				return 1 / s.kRel[i]
			}
			return 2.0 / 3 * math.Pow(s.kRel[i], -2.0/3) / math.Cbrt(x) // Hertzian φ''
		},
		diagQ: make([]float64, nc),
	}
	q.resid = func(x, g []float64) float64 {
		// The gradient of the subproblem is φ'(f) − Bλ̂ with the updated
		// multiplier λ̂ = λ − μM⁻¹h: the KKT conditions of S3 eq. (36). Measure
		// their complementarity |min(f, g/φ̄'')| relative to f̄, independent of μ.
		var r float64
		for i := range x {
			if !q.fix(i) {
				r = max(r, math.Abs(min(x[i], g[i]/sPhi)))
			}
		}
		return r / fbar
	}
	al.q = q
	return al
}

// linearTerm sets the subproblem's linear term c = −B(λ + μ M⁻¹ F̃) and its
// Hessian diagonal μ·diag(B M⁻¹ Bᵀ) for the current μ and λ.
func (al *augLag) linearTerm() {
	s, t := al.s, al.t
	for j := range t {
		if al.mask[j] {
			t[j] = al.load[j]
		} else {
			t[j] = 0
		}
	}
	s.applyInvM(al.mu, t, t)
	for j := range t {
		t[j] = -(t[j] + al.lam[j])
	}
	s.bFree(t, al.q.c)
	for i := range al.q.diagQ {
		al.q.diagQ[i] = al.mu * al.dB[i]
	}
}

// updateMultipliers applies λ ← λ − μ M⁻¹ (Bᵀf − F̃) on the masked DOFs
// (Nocedal & Wright eq. 17.39).
func (al *augLag) updateMultipliers(f []float64) {
	s, h := al.s, al.h
	s.btFree(f, h)
	for j := range h {
		if al.mask[j] {
			h[j] -= al.load[j]
		} else {
			h[j] = 0
		}
	}
	s.applyInvM(al.mu, h, h)
	for j := range al.lam {
		al.lam[j] -= h[j]
	}
}
