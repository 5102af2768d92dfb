package integrate

import (
	"fmt"
	"math"

	"grainlab/sim/body"
	"grainlab/sim/cd"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// CD is the contact-dynamics integrator of Olsen & Kamrin (S3): each step
// detects the contacts, solves the non-penetration complementarity problem at
// the end of the step (S3 eq. 13–21) by PGS or APGD, and advances the bodies
// by semi-implicit Euler. Contacts whose material has friction (μ_s > 0, or
// the smooth law's μ) get Coulomb cones (sim/cd/friction.go: APGD on the
// cone complementarity problem, then exact Coulomb by non-smooth
// Gauss–Seidel, whatever Method); μ_s applies while a contact sticks, μ_d
// once it slides. With Compatible set it then replaces the
// (indeterminate) contact forces by the compatible ones of a no-tension
// elastic truss (S3 §6–7, Algorithm 1); the motion is the same either way,
// since the velocities of frictionless CD are unique (S3 §6.4).
//
// The step is fixed, Δt = min(Dt, dtMax), where Dt defaults to w.Dt
// (w.Settings.Dt when w.Dt is unset), unless fast bodies need a shorter one
// to meet their contacts (Approach). The integrator starts from whatever
// state the world holds, so it can take over from another integrator at any
// step (set Dt then: an explicit integrator leaves a tiny w.Dt behind).
//
// Contact forces are written into the committed contacts (c.Fn = impulse/Δt,
// c.Ft the friction force on A, zero when frictionless); body F, T hold the external load plus the contact
// resultant, and each wall's Force its total force on the bodies.
type CD struct {
	Dt           float64   // fixed step; 0 = w.Dt (w.Settings.Dt when unset), as left by the previous integrator
	Method       cd.Method // cd.PGS or cd.APGD
	Restitution  float64   // e_n ∈ [0, 1]: 0 is the gap form (S3 eq. 16), > 0 the velocity form of S3 §4.3
	MaxIter      int       // PGS sweeps or APGD iterations per step (default 10000)
	Tol          float64   // relative complementarity residual (default 1e-8)
	Warm         bool      // start PGS/APGD from the previous step's forces of the same contacts
	Frictionless bool      // ignore the materials' friction coefficients (S3's frictionless CD)

	// Compatible runs the compatibility post-processing (S3 Algorithm 1, step 2).
	Compatible    bool
	CompatLaw     cd.Law          // law assumed for contacts without a smooth material law (polyhedra)
	MaterialLaw   bool            // smooth contacts use their material's law (hooke → Hookean, hertz → Hertzian) instead of CompatLaw
	CompatMethod  cd.CompatMethod // solver of S3 eq. (36) (default: active set for Hookean, augmented Lagrangian otherwise)
	CompatTol     float64         // relative equilibrium residual of the truss problem (default 1e-10)
	CompatMaxIter int             // outer iterations (default 100)
	ShowClassic   bool            // with Compatible: write the classic forces into the contacts instead

	// Stiffness, when set, gives the relative stiffness k̃ (> 0) of a contact
	// between bodies a and b (S3 eq. 35), e.g. per species as in S3 §8.2.2;
	// returning 0 keeps the default: the smooth law's stiffness for smooth
	// contacts, the normal law's tangent at the contact's gap for polyhedra
	// (polyStiffness, S0 eq. 49–51).
	Stiffness func(w *world.World, a, b int, c *contact.Contact) float64

	// Margin is the gap, as a fraction of the skin ḡ, that polyhedron contacts
	// are driven to instead of 0, so that round-off and rotation never make a
	// vertex cross a face (the barrier contacts of S0 only exist within ḡ).
	Margin float64
	// Overlap is the overlap, as a fraction of the smaller body radius, that
	// contacts of smooth bodies (spheres, superquadrics) are driven to instead
	// of 0: the world only reports smooth contacts that overlap, so a resting
	// contact must keep a little overlap to stay in the contact set.
	Overlap float64
	// Approach caps the step so that contacts are seen before bodies pass
	// through each other: no body point may move more than Approach × its
	// reach per step, the reach being half the skin left above the margin,
	// (1 − Margin)·ḡ/2, for a polyhedron and a tenth of the radius for a
	// smooth body. 0 turns the cap off (a fixed step).
	Approach float64
	// Touch is the gap below which a contact counts as formed for restitution
	// (S3 §4.3); default 1e-6 × the smallest free body's radius.
	Touch float64

	// Classic and Compat are the forces of the last step (impulse/Δt, N) in
	// EachContact order, zero for suppressed contacts; Compat is nil unless
	// Compatible.
	Classic, Compat []float64
	// CompatFailures counts the steps whose compatibility solve missed its
	// tolerance (those beyond 1e-6 relative show the classic forces).
	CompatFailures int64
	// Last and LastCompat are the solver reports of the last step.
	Last       cd.StepResult
	LastCompat cd.CompatResult

	warm    map[cdKey]float64
	warmT   map[cdKey]geom.Vec3 // previous tangential forces (friction)
	slid    map[cdKey]bool      // contacts that slid at the previous step
	dtRatio float64             // Δt over the nominal step (the approach cap's share)
	rev     map[cdKey]bool      // reversed contacts of the previous step
	sc      cdScratch
}

// cdKey identifies a contact across steps for warm starting.
type cdKey struct {
	a, b int
	k    contact.Key
}

// NewCD returns a CD integrator with APGD, no restitution, warm starts, the
// Hookean compatibility post-processing with material laws for smooth
// contacts, a polyhedron contact margin of 0.1 ḡ, a smooth contact overlap
// of 1e-6 radii and the approach cap 0.5.
func NewCD() *CD {
	return &CD{Method: cd.APGD, Warm: true, Compatible: true, CompatLaw: cd.Hookean, MaterialLaw: true, Margin: 0.1, Overlap: 1e-6, Approach: 0.5}
}

// Name returns "cd".
func (*CD) Name() string { return "cd" }

// validate checks the options, naming the field at fault.
func (x *CD) validate() error {
	switch {
	case x.Method != cd.PGS && x.Method != cd.APGD:
		return fmt.Errorf("cd.method: unknown solver %d (want PGS or APGD)", x.Method)
	case !(x.Dt >= 0) || math.IsInf(x.Dt, 0):
		return fmt.Errorf("cd.dt must be a finite number ≥ 0 (got %g)", x.Dt)
	case !(x.Restitution >= 0 && x.Restitution <= 1):
		return fmt.Errorf("cd.restitution must be in [0, 1] (got %g)", x.Restitution)
	case x.MaxIter < 0:
		return fmt.Errorf("cd.max_iter must be ≥ 0 (got %d)", x.MaxIter)
	case !(x.Tol >= 0) || math.IsInf(x.Tol, 0):
		return fmt.Errorf("cd.tol must be a finite number ≥ 0 (got %g)", x.Tol)
	case x.CompatLaw != cd.Hookean && x.CompatLaw != cd.Hertzian:
		return fmt.Errorf("cd.compat_law: unknown law %d (want Hookean or Hertzian)", x.CompatLaw)
	case !(x.CompatTol >= 0) || math.IsInf(x.CompatTol, 0):
		return fmt.Errorf("cd.compat_tol must be a finite number ≥ 0 (got %g)", x.CompatTol)
	case x.CompatMaxIter < 0:
		return fmt.Errorf("cd.compat_max_iter must be ≥ 0 (got %d)", x.CompatMaxIter)
	case !(x.Margin >= 0 && x.Margin < 1):
		return fmt.Errorf("cd.margin must be in [0, 1) (got %g)", x.Margin)
	case !(x.Overlap >= 0 && x.Overlap < 0.1):
		return fmt.Errorf("cd.overlap must be in [0, 0.1) (got %g)", x.Overlap)
	case !(x.Approach >= 0 && x.Approach <= 1):
		return fmt.Errorf("cd.approach must be in [0, 1] (got %g)", x.Approach)
	case !(x.Touch >= 0) || math.IsInf(x.Touch, 0):
		return fmt.Errorf("cd.touch must be a finite number ≥ 0 (got %g)", x.Touch)
	}
	return nil
}

// Step advances w by one CD step of Δt = min(Dt, dtMax, approach cap) (S3 Algorithm 1).
func (x *CD) Step(w *world.World, dtMax float64) (float64, error) {
	if err := x.validate(); err != nil {
		return 0, err
	}
	dt := x.Dt
	if !(dt > 0) {
		dt = w.Dt
	}
	if !(dt > 0) {
		dt = w.Settings.Dt
	}
	dt0 := min(dt, dtMax)
	dt = max(min(dt0, x.approachDt(w, dt0)), min(dt0, w.Settings.DtMin))
	if !(dt > 0) || math.IsInf(dt, 0) {
		return 0, fmt.Errorf("t=%g s: cd: time step %g must be positive (integrator.dt)", w.Time, dt)
	}
	x.dtRatio = dt / dt0
	w.DetectContacts()
	w.ExternalForces(w.Time)
	sys, err := x.build(w)
	if err != nil {
		return 0, fmt.Errorf("t=%g s: %w", w.Time, err)
	}
	o := cd.StepOptions{Dt: dt, Restitution: x.Restitution, Touch: x.touch(w), Method: x.Method,
		MaxIter: x.MaxIter, Tol: x.Tol}
	if x.Warm {
		o.Warm = x.warmStart()
		if sys.Frictional() {
			o.WarmT = make([]geom.Vec3, len(x.sc.keys))
			for i, k := range x.sc.keys {
				o.WarmT[i] = x.warmT[k]
			}
		}
	}
	res, err := sys.Step(o)
	if err != nil {
		return 0, fmt.Errorf("t=%g s: %w", w.Time, err)
	}
	x.Last = res
	shown := res.F
	w.Stats.NewtonIters = 0
	if x.Compatible {
		co := cd.CompatOptions{Method: x.CompatMethod, Tol: x.CompatTol, MaxIter: x.CompatMaxIter, Init: res.F}
		load := res.Load
		if res.FrictionLoad != nil {
			// With friction the truss redistributes the normal forces only:
			// it carries F̃ minus the friction resultant (S3 eq. 37), and the
			// result must keep every friction force inside its cone.
			load = append([]float64(nil), res.Load...)
			for k, f := range res.FrictionLoad {
				load[k] -= f
			}
		}
		cr, err := sys.Compatible(load, co) // S3 eq. (36)–(37)
		if err != nil {
			return 0, fmt.Errorf("t=%g s: %w", w.Time, err)
		}
		x.LastCompat = cr
		w.Stats.NewtonIters = cr.Iter
		if !cr.Converged {
			x.CompatFailures++
		}
		// A truss solve that missed equilibrium by more than 1e-6 is not
		// statically admissible: the classic forces are shown instead.
		if !x.ShowClassic && cr.Residual <= 1e-6 && x.inCones(sys, res, cr.F) {
			shown = cr.F
		}
	}
	x.publish(w, res.F, shown)
	// Semi-implicit Euler (S3 eq. 13): the new state of every free body.
	for i, b := range w.Bodies() {
		if b.Fixed {
			continue
		}
		b.V, b.W, b.X, b.Q = res.V[i], res.W[i], res.X[i], res.Q[i].Normalize()
	}
	w.Time += dt
	w.Steps++
	w.UpdateStats()
	w.Stats.Integrator = x.Name()
	w.Stats.LinearIters = res.Iter
	w.Stats.Residual = res.Residual
	w.Stats.Dt = dt
	if !(w.Dt > 0) {
		w.Dt = dt0
	}
	return dt, nil
}

// touch returns the formed-contact threshold for restitution.
func (x *CD) touch(w *world.World) float64 {
	if x.Touch > 0 {
		return x.Touch
	}
	r := math.Inf(1)
	for _, b := range w.Bodies() {
		if !b.Fixed && b.R > 0 {
			r = min(r, b.R)
		}
	}
	if math.IsInf(r, 1) {
		return 0
	}
	return 1e-6 * r
}

// warmStart returns the previous forces of the contacts of this step.
func (x *CD) warmStart() []float64 {
	f := make([]float64, len(x.sc.keys))
	for i, k := range x.sc.keys {
		f[i] = x.warm[k]
	}
	return f
}

// publish writes the shown normal forces and the friction forces into the
// committed contacts, records the classic and compatible forces in EachContact
// order, sets every body's force and moment to the external load plus the
// contact resultant, and sums each wall's force on the bodies.
func (x *CD) publish(w *world.World, classic, shown []float64) {
	x.Classic = x.Classic[:0]
	x.Compat = x.Compat[:0]
	if x.warm == nil {
		x.warm = make(map[cdKey]float64)
	}
	clear(x.warm)
	if x.warmT == nil {
		x.warmT = make(map[cdKey]geom.Vec3)
		x.slid = make(map[cdKey]bool)
	}
	clear(x.warmT)
	clear(x.slid)
	k := 0
	w.EachContact(func(a, b int, c *contact.Contact) {
		c.Ft, c.Epot = geom.Vec3{}, 0
		j := x.sc.row[k]
		k++
		if j < 0 {
			c.Fn = 0
			x.Classic = append(x.Classic, 0)
			if x.Compatible {
				x.Compat = append(x.Compat, 0)
			}
			return
		}
		c.Fn = shown[j]
		x.Classic = append(x.Classic, classic[j])
		if x.Compatible {
			x.Compat = append(x.Compat, x.LastCompat.F[j])
		}
		x.warm[x.sc.keys[j]] = classic[j]
		// Force on A along the solver's normal (reversed for a flipped contact)
		// plus friction.
		f := x.sc.normal[j].Scale(shown[j])
		if x.Last.Ft != nil {
			c.Ft = x.Last.Ft[j]
			f = f.Add(c.Ft)
			x.warmT[x.sc.keys[j]] = c.Ft
			if x.Last.Slide[j] {
				x.slid[x.sc.keys[j]] = true
			}
		}
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		p := x.sc.point[j]
		ba.ApplyForceAt(f, p)
		bb.ApplyForceAt(f.Neg(), p.Sub(x.sc.shift[j])) // B's lever arm to its image
		if ba.Wall >= 0 {
			w.Walls[ba.Wall].Force = w.Walls[ba.Wall].Force.Sub(f)
		}
		if bb.Wall >= 0 {
			w.Walls[bb.Wall].Force = w.Walls[bb.Wall].Force.Add(f)
		}
	})
	if !x.Compatible {
		x.Compat = nil
	}
}

// inCones reports whether the friction forces of res stay within their cones
// (|f_t| ≤ μ f_n, 1e-6 relative slack) under the normal forces fn, with μ_d
// for sliding contacts and μ_s for the others.
func (x *CD) inCones(sys *cd.System, res cd.StepResult, fn []float64) bool {
	if res.Ft == nil {
		return true
	}
	for i, c := range sys.Contacts {
		mu := c.MuS
		if res.Slide[i] {
			mu = c.MuD
		}
		if t := res.Ft[i].Norm(); t > mu*fn[i]*(1+1e-6)+1e-12*t {
			return false
		}
	}
	return true
}

// approachDt returns the largest step (≤ dt) that keeps every free body's
// fastest point, |v| + |ω|R + |g|Δt, within Approach × its reach (see
// Approach), counting both bodies of a pair at that speed.
func (x *CD) approachDt(w *world.World, dt float64) float64 {
	if x.Approach == 0 {
		return dt
	}
	reachPoly := 0.5 * (1 - x.Margin) * w.MaxGap()
	g := w.Gravity.Norm()
	for _, b := range w.Bodies() {
		if b.Fixed {
			continue
		}
		reach := reachPoly
		if b.Kind != body.Polyhedral {
			reach = 0.1 * b.R
		}
		if !(reach > 0) {
			continue
		}
		// 2(v + g·Δt)Δt ≤ Approach·reach: vΔt + ½(2g)Δt² ≤ ½·Approach·reach.
		v := b.V.Norm() + b.W.Norm()*b.R
		dt = min(dt, world.ApproachDt(x.Approach*reach/2, v, 2*g))
	}
	return dt
}

// CompatibleForces reports whether the contact forces shown (c.Fn) are the
// compatible ones (S3 §6–7) rather than the classic CD solution.
func (x *CD) CompatibleForces() bool { return x.Compatible && !x.ShowClassic }

// SetCompatibleForces turns the compatibility post-processing on (the shown
// forces are the compatible ones) or off (classic forces, cheaper).
func (x *CD) SetCompatibleForces(on bool) { x.Compatible, x.ShowClassic = on, !on }
