// Package cd is the solver core of frictionless contact dynamics (CD) after
// Olsen & Kamrin (S3): the semi-implicit Euler step with the non-penetration
// complementarity at the end of the step (S3 eq. 13–21), solved by projected
// Gauss–Seidel or by accelerated projected gradient descent, and the
// compatibility post-processing (S3 §6–7) that picks, among the statically
// equivalent contact forces, the one of a no-tension elastic truss of
// relative stiffnesses k̃ (S3 eq. 36).
//
// The package is independent of the world: it takes bodies (mass, world-frame
// inertia, state, external loads) and contacts (bodies, point, normal, gap,
// k̃, law) and builds the gap-gradient matrix B from points and normals, so
// any contact geometry works.
//
// Generalised vectors have 6 entries per body, in body order: (v, ω) for
// velocities, (F, T) for forces and torques about the centre of mass.
package cd

import (
	"errors"
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// Law is the elastic contact law assumed by the compatibility step.
type Law int

const (
	// Hookean is the linear law w = k̃c²/2 (p = 2, S3 eq. 34).
	Hookean Law = iota
	// Hertzian is the law w = (2/5)k̃c^{5/2} (p = 5/2, S3 eq. 34).
	Hertzian
)

// Exponent returns p of the strain energy w(c) = k̃c^p/p (S3 eq. 34).
func (l Law) Exponent() float64 {
	if l == Hertzian {
		return 2.5
	}
	return 2
}

// String returns the law's name.
func (l Law) String() string {
	if l == Hertzian {
		return "Hertzian"
	}
	return "Hookean"
}

// Body is one rigid body as the solver sees it.
type Body struct {
	Mass    float64   // > 0 unless Fixed
	Inertia geom.Mat3 // about the centre of mass, world frame; invertible unless Fixed
	X       geom.Vec3 // centre of mass
	Q       geom.Quat // orientation body → world (zero value = identity)
	V, W    geom.Vec3 // linear and angular velocity (world); prescribed when Fixed
	F, T    geom.Vec3 // external force and torque about X (gyroscopic terms are the caller's)
	Fixed   bool      // infinite mass: its degrees of freedom are Γ_D of S3 eq. (32)
}

// Contact is one contact between bodies A and B, frictionless unless MuS > 0.
type Contact struct {
	A, B int       // body indices; B = −1 for a fixed obstacle
	P    geom.Vec3 // contact point (world)
	N    geom.Vec3 // unit normal from B to A
	Gap  float64   // current gap Φ_i (≥ 0, or slightly negative)
	K    float64   // relative stiffness k̃_i (S3 eq. 35); 0 means 1
	Law  Law       // elastic law for the compatibility step
	// ShiftB places B at X_B + ShiftB for this contact (a periodic image);
	// zero otherwise.
	ShiftB geom.Vec3
	// MuS and MuD (0 ≤ MuD ≤ MuS) are the Coulomb coefficients of the
	// contact's cone (see friction.go): MuS while it sticks, MuD once it
	// slides. MuS = 0 is a frictionless contact.
	MuS, MuD float64
	// Slid says the contact slid at the previous step: it starts with MuD.
	Slid bool
}

// row is one row of B (S3 eq. 15): the blocks of bodies a and b.
type row struct {
	a, b   int        // body indices, −1 when absent
	ja, jb [6]float64 // ∂Φ/∂(v,ω) of a and b
	fa, fb bool       // body is free (not Fixed)
}

// System is a set of bodies and contacts with B and the inverse masses built.
type System struct {
	Bodies   []Body    // as given; never modified
	Contacts []Contact // as given; row i of B is contact i

	rows  []row
	free  []bool
	invM  []float64   // 1/m, 0 when fixed
	invJ  []geom.Mat3 // J⁻¹ (world), zero when fixed
	ell   []float64   // length scale √(tr J / 2m) for torque residuals
	kRel  []float64   // k̃ with the default applied
	pExp  []float64   // p of each contact's law
	nFree int
	fric  []tangent // the frictional contacts (MuS > 0), in contact order
}

// NewSystem validates the input and builds B and M⁻¹.
func NewSystem(bodies []Body, contacts []Contact) (*System, error) {
	s := &System{Bodies: bodies, Contacts: contacts}
	nb := len(bodies)
	s.free = make([]bool, nb)
	s.invM = make([]float64, nb)
	s.invJ = make([]geom.Mat3, nb)
	s.ell = make([]float64, nb)
	for i, b := range bodies {
		if b.Fixed {
			continue
		}
		if !(b.Mass > 0) || math.IsInf(b.Mass, 0) {
			return nil, fmt.Errorf("cd: body %d: mass %g must be positive and finite", i, b.Mass)
		}
		inv, ok := b.Inertia.Inv()
		if !ok {
			return nil, fmt.Errorf("cd: body %d: singular inertia", i)
		}
		s.free[i] = true
		s.nFree++
		s.invM[i] = 1 / b.Mass
		s.invJ[i] = inv
		s.ell[i] = math.Sqrt(max(b.Inertia.Trace(), 0) / (2 * b.Mass))
	}
	s.rows = make([]row, len(contacts))
	s.kRel = make([]float64, len(contacts))
	s.pExp = make([]float64, len(contacts))
	for i, c := range contacts {
		if c.A < 0 || c.A >= nb || c.B < -1 || c.B >= nb || c.A == c.B {
			return nil, fmt.Errorf("cd: contact %d: bad bodies (%d, %d)", i, c.A, c.B)
		}
		nn := c.N.Norm()
		if !(nn > 0.5 && nn < 1.5) || !c.P.IsFinite() || math.IsNaN(c.Gap) {
			return nil, fmt.Errorf("cd: contact %d: normal must be unit and data finite", i)
		}
		if c.K < 0 || math.IsNaN(c.K) || math.IsInf(c.K, 0) {
			return nil, fmt.Errorf("cd: contact %d: relative stiffness %g", i, c.K)
		}
		if c.Law != Hookean && c.Law != Hertzian {
			return nil, fmt.Errorf("cd: contact %d: unknown law %d", i, c.Law)
		}
		if !(c.MuD >= 0 && c.MuD <= c.MuS) || math.IsInf(c.MuS, 0) {
			return nil, fmt.Errorf("cd: contact %d: friction coefficients mu_s = %g, mu_d = %g (want 0 ≤ mu_d ≤ mu_s, finite)", i, c.MuS, c.MuD)
		}
		n := c.N.Scale(1 / nn)
		r := row{a: c.A, b: c.B}
		// S3 eq. (15): Φ̇_i = n·(v_A + ω_A×r_A) − n·(v_B + ω_B×r_B) = B_i v,
		// with n·(ω×r) = ω·(r×n); r = P − X.
		ra := c.P.Sub(bodies[c.A].X).Cross(n)
		r.ja = [6]float64{n.X, n.Y, n.Z, ra.X, ra.Y, ra.Z}
		r.fa = s.free[c.A]
		if c.B >= 0 {
			rb := c.P.Sub(bodies[c.B].X.Add(c.ShiftB)).Cross(n)
			r.jb = [6]float64{-n.X, -n.Y, -n.Z, -rb.X, -rb.Y, -rb.Z}
			r.fb = s.free[c.B]
		}
		s.rows[i] = r
		s.kRel[i] = c.K
		if c.K == 0 {
			s.kRel[i] = 1
		}
		s.pExp[i] = c.Law.Exponent()
		if c.MuS > 0 {
			s.fric = append(s.fric, s.tangentRows(i, n))
		}
	}
	return s, nil
}

// NumDOF returns 6 × the number of bodies (the length of generalised vectors).
func (s *System) NumDOF() int { return 6 * len(s.Bodies) }

// active reports whether contact i touches at least one free body.
func (s *System) active(i int) bool { return s.rows[i].fa || s.rows[i].fb }

// GapGradient returns B (S3 eq. 15) as a dense Nc × 6Nb matrix, columns of
// fixed bodies included; row i is (n, r_A×n) for A and (−n, −r_B×n) for B.
func (s *System) GapGradient() [][]float64 {
	out := make([][]float64, len(s.rows))
	for i, r := range s.rows {
		out[i] = make([]float64, s.NumDOF())
		for k := 0; k < 6; k++ {
			out[i][6*r.a+k] += r.ja[k]
			if r.b >= 0 {
				out[i][6*r.b+k] += r.jb[k]
			}
		}
	}
	return out
}

// MulB returns B·v for a generalised velocity v (all bodies, fixed included).
func (s *System) MulB(v []float64) []float64 {
	out := make([]float64, len(s.rows))
	for i, r := range s.rows {
		out[i] = dot6(r.ja[:], v[6*r.a:6*r.a+6])
		if r.b >= 0 {
			out[i] += dot6(r.jb[:], v[6*r.b:6*r.b+6])
		}
	}
	return out
}

// MulBT returns Bᵀ·f (S3 eq. 18, H = Bᵀ): the resultant force and torque of
// the contact forces f on every body (fixed bodies included).
func (s *System) MulBT(f []float64) []float64 {
	out := make([]float64, s.NumDOF())
	for i, r := range s.rows {
		for k := 0; k < 6; k++ {
			out[6*r.a+k] += f[i] * r.ja[k]
		}
		if r.b >= 0 {
			for k := 0; k < 6; k++ {
				out[6*r.b+k] += f[i] * r.jb[k]
			}
		}
	}
	return out
}

// bFree computes out = B z using only the columns of free bodies.
func (s *System) bFree(z, out []float64) {
	for i := range s.rows {
		r := &s.rows[i]
		var w float64
		if r.fa {
			w = dot6(r.ja[:], z[6*r.a:6*r.a+6])
		}
		if r.fb {
			w += dot6(r.jb[:], z[6*r.b:6*r.b+6])
		}
		out[i] = w
	}
}

// btFree computes out = Bᵀ f on the free bodies (fixed entries stay zero).
func (s *System) btFree(f, out []float64) {
	clear(out)
	for i := range s.rows {
		rowAdd(&s.rows[i], f[i], out)
	}
}

// applyInvM computes out = s·M⁻¹ x body by body (S3 eq. 9; zero for fixed bodies).
func (s *System) applyInvM(sc float64, x, out []float64) {
	for a := range s.Bodies {
		o := out[6*a : 6*a+6]
		if !s.free[a] {
			clear(o)
			continue
		}
		xa := x[6*a : 6*a+6]
		m := s.invM[a] * sc
		t := s.invJ[a].MulV(geom.V(xa[3], xa[4], xa[5]))
		o[0], o[1], o[2] = m*xa[0], m*xa[1], m*xa[2]
		o[3], o[4], o[5] = sc*t.X, sc*t.Y, sc*t.Z
	}
}

// invMRow returns M⁻¹ jᵀ of one body block (zero for a fixed body).
func (s *System) invMRow(body int, j [6]float64) [6]float64 {
	if body < 0 || !s.free[body] {
		return [6]float64{}
	}
	m := s.invM[body]
	t := s.invJ[body].MulV(geom.V(j[3], j[4], j[5]))
	return [6]float64{m * j[0], m * j[1], m * j[2], t.X, t.Y, t.Z}
}

// velocities returns the generalised velocity v^t (all bodies).
func (s *System) velocities() []float64 {
	v := make([]float64, s.NumDOF())
	for a, b := range s.Bodies {
		copy(v[6*a:], []float64{b.V.X, b.V.Y, b.V.Z, b.W.X, b.W.Y, b.W.Z})
	}
	return v
}

// External returns F^ext (6 per body; zero for fixed bodies).
func (s *System) External() []float64 {
	f := make([]float64, s.NumDOF())
	for a, b := range s.Bodies {
		if s.free[a] {
			copy(f[6*a:], []float64{b.F.X, b.F.Y, b.F.Z, b.T.X, b.T.Y, b.T.Z})
		}
	}
	return f
}

// StaticLoad returns the generalised load F̃ = −F^ext of a body system at rest
// (S3 eq. 37 with v^{t+Δt} = v^t): the contacts must carry the external loads.
func (s *System) StaticLoad() []float64 {
	f := s.External()
	for i := range f {
		f[i] = -f[i]
	}
	return f
}

// EquilibriumResidual returns the relative out-of-balance of Bᵀf = F̃ over
// the free bodies (S3 eq. 37): max_A max(|ΔF_A|, |ΔT_A|/ℓ_A) divided by the
// same norm of F̃, with ℓ_A = √(tr J_A / 2m_A).
func (s *System) EquilibriumResidual(f, load []float64) float64 {
	h := make([]float64, s.NumDOF())
	s.btFree(f, h)
	var num, den float64
	for a := range s.Bodies {
		if !s.free[a] {
			continue
		}
		num = max(num, s.bodyNorm(a, h[6*a:6*a+6], load[6*a:6*a+6], true))
		den = max(den, s.bodyNorm(a, load[6*a:6*a+6], nil, false))
	}
	if den == 0 {
		return num
	}
	return num / den
}

// bodyNorm returns max(|F|, |T|/ℓ) of x (− y when sub).
func (s *System) bodyNorm(a int, x, y []float64, sub bool) float64 {
	var d [6]float64
	for k := range 6 {
		d[k] = x[k]
		if sub {
			d[k] -= y[k]
		}
	}
	fn := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	tn := math.Sqrt(d[3]*d[3] + d[4]*d[4] + d[5]*d[5])
	if s.ell[a] > 0 {
		tn /= s.ell[a]
	}
	return max(fn, tn)
}

func dot6(a, b []float64) float64 {
	return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] + a[4]*b[4] + a[5]*b[5]
}

// errNoDt reports a missing time step.
var errNoDt = errors.New("cd: time step Dt must be positive")
