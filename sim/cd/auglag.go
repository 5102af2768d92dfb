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
	nd, nc := s.NumDOF(), len(s.rows)
	mask := s.dofMask()
	f := make([]float64, nc)
	if o.Init != nil {
		for i, x := range o.Init {
			if s.active(i) {
				f[i] = math.Max(x, 0)
			}
		}
	}
	// Scales: a typical force f̄, the mean curvature of φ at f̄ and the mean
	// diagonal of B M⁻¹ Bᵀ.
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
				fbar = math.Max(fbar, s.bodyNorm(a, load[6*a:6*a+6], nil, false))
			}
		}
		if fbar == 0 {
			fbar = 1
		}
	}
	var sPhi, sB float64
	var nact int
	dB := make([]float64, nc) // diag(B M⁻¹ Bᵀ)
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
	res := CompatResult{Lambda: make([]float64, nd)}
	if nact == 0 {
		res.F = f
		return res
	}
	sB /= float64(nact)
	sPhi /= float64(nact)
	mu := 10 * sPhi / sB
	lam := res.Lambda
	h := make([]float64, nd)
	t := make([]float64, nd)
	cvec := make([]float64, nc)
	q := &boxQP{
		n: nc,
		mulQ: func(x, out []float64) { // μ B M⁻¹ Bᵀ x on the masked DOFs
			s.btFree(x, h)
			for j := range h {
				if !mask[j] {
					h[j] = 0
				}
			}
			s.applyInvM(mu, h, h)
			s.bFree(h, out)
		},
		c:   cvec,
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
				r = math.Max(r, math.Abs(math.Min(x[i], g[i]/sPhi)))
			}
		}
		return r / fbar
	}
	viol := s.EquilibriumResidual(f, load)
	innerTol := 1e-3
	for res.Iter < o.MaxIter {
		res.Iter++
		// Linear term: −B(λ + μ M⁻¹ F̃).
		for j := range t {
			if mask[j] {
				t[j] = load[j]
			} else {
				t[j] = 0
			}
		}
		s.applyInvM(mu, t, t)
		for j := range t {
			t[j] = -(t[j] + lam[j])
		}
		s.bFree(t, cvec)
		for i := range q.diagQ {
			q.diagQ[i] = mu * dB[i]
		}
		var it int
		if o.APGDInner {
			q.lip = 0
			f, it, res.OptRes = q.apgd(f, o.MaxInner, innerTol)
		} else {
			f, it, res.OptRes = q.projNewton(f, o.MaxInner, innerTol)
		}
		res.Inner += it
		nv := s.EquilibriumResidual(f, load)
		if nv <= o.Tol && res.OptRes <= o.OptTol {
			viol = nv
			break
		}
		// Multiplier update λ ← λ − μ M⁻¹ (Bᵀf − F̃) (Nocedal & Wright eq. 17.39).
		s.btFree(f, h)
		for j := range h {
			if mask[j] {
				h[j] -= load[j]
			} else {
				h[j] = 0
			}
		}
		s.applyInvM(mu, h, h)
		for j := range lam {
			lam[j] -= h[j]
		}
		if nv > 0.1*viol {
			mu *= 10
		}
		viol = nv
		innerTol = math.Max(0.1*o.OptTol, math.Min(0.1*innerTol, nv))
	}
	res.F = f
	return res
}
