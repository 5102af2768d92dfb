package validation

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/sphere"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// TestS2SettlingKineticEnergy's design (S2 §3.4, Fig. 11a). Velocity
// Verlet is cheap here (~0.3 s of CPU a run on the sphere path), the
// implicit variational integrator ~100× dearer (~30 s), so the reference
// ensemble is large and the variational one small.
const (
	// s2T0, s2T1: from t = 0.05 s (the first spheres reach the floor) to
	// 0.2 s, while the kinetic energy per particle falls 300-fold.
	s2T0, s2T1 = 0.05, 0.2
	// s2Win, s2Windows: 12 windows of 12.5 ms. The first ends before the
	// 1-ulp copies diverge (their spread < 1e-4 of the mean, that of the
	// steps 0.4%): there the test is tight; later the chaos S2 describes
	// sets the spread (2% per member in the second window, 50–70% in the
	// last).
	s2Win     = 0.0125
	s2Windows = 12
	// s2Ref: the velocity Verlet members (steps t_c/12 … t_c/20).
	s2Ref = 32
	// s2Members: the variational members (h = t_c/16, S2 §3.1).
	s2Members = 2
	// s2Sigmas: the allowed difference of the variational members' mean
	// log kinetic energy from the reference mean, in reference standard
	// deviations ·√(1 + 1/s2Ref) (see s2Compare): with s2Ref − 1 = 31
	// degrees of freedom Student's t exceeds 4 with probability 4e-4 per
	// window.
	s2Sigmas = 4
)

// s2Shared returns the sphere-box state at s2T0 (velocity Verlet from the
// scene's start) as the bytes of a state file, the copies' shared start.
func s2Shared(t *testing.T) []byte {
	t.Helper()
	w := load(t, "sphere-box")
	advance(t, w, s2T0, nil)
	data, err := state.Encode(w)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// s2ContactTime is t_c = π√(m/2k) of a pair of the box's spheres (S2
// §3.1; 7.18e-5 s), from the last body (a sphere: the walls come first).
func s2ContactTime(w *world.World) float64 {
	b := w.Bodies()[len(w.Bodies())-1]
	kn := w.Params(b.Material, b.Material).Smooth.Kn
	return sphere.HookeOscillator(&law.Smooth{Kn: kn}, b.Mass()/2).ContactTime() // S2 §3.1: t_C = π√(m/2k)
}

// s2Settle runs a copy of the shared start, with sphere k mod 218 (of the
// movable bodies) moved 1 ulp in x — each copy its own sphere, so the
// chaotic settling takes its own path — to s2T1 with the integrator that
// setup installs, and returns the log of the mean kinetic energy per
// particle (S2 eq. 35) in each window, time-averaged over the steps.
func s2Settle(t *testing.T, shared []byte, k int, setup func(w *world.World)) []float64 {
	t.Helper()
	w := load(t, "sphere-box")
	f, err := state.Parse(shared, "shared start")
	if err != nil {
		t.Fatal(err)
	}
	if err := state.Apply(w, f, "shared start"); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	var spheres []*body.Body
	for _, b := range w.Bodies() {
		if !b.Fixed {
			spheres = append(spheres, b)
		}
	}
	b := spheres[k%len(spheres)]
	b.X.X = math.Nextafter(b.X.X, math.Inf(1))
	setup(w)
	e := make([]float64, s2Windows)
	last, n := w.Time, float64(len(spheres))
	advance(t, w, s2T1, func() bool {
		if i := int((w.Time - s2T0 - 1e-12) / s2Win); i >= 0 && i < s2Windows {
			e[i] += w.Stats.Kinetic / n * (w.Time - last) / s2Win
		}
		last = w.Time
		return false
	})
	for i := range e {
		e[i] = math.Log(e[i])
	}
	return e
}

// s2Variational installs S2's integrator at S2 §3.1's fixed step h =
// t_c/16 (4.5e-6 s).
func s2Variational(alpha float64) func(w *world.World) {
	return func(w *world.World) {
		h := s2ContactTime(w) / 16 // S2 §3.1: h = t_c/16
		w.Integrator = integrate.NewVariational(alpha)
		w.Settings.Dt, w.Dt = h, h
	}
}

// s2Verlet runs velocity Verlet (the scene's integrator, LAMMPS' scheme)
// at the fixed step t_c/p, as LAMMPS (the scene's stable-step bound,
// safety 0.2, is ≥ 9e-6 s, above it). S2 §3.1: h = t_c/16.1 "compares
// well with LAMMPS".
func s2Verlet(p float64) func(w *world.World) {
	return func(w *world.World) {
		h := s2ContactTime(w) / p
		w.Settings.Dt, w.Settings.DtMax, w.Dt = h, h, h
	}
}

// s2RefStep is the step divisor of reference member j: t_c/12 … t_c/20
// evenly, around S2 §3.1's t_c/16 (a factor 2.8 in the second-order
// integrators' error).
func s2RefStep(j int) float64 { return 12 + 8*float64(j%9)/8 }

// s2Compare checks S2's claim (Fig. 11a) on the log window means of the
// velocity Verlet reference ref[j][i] and the variational members vi[m][i]
// (member, window): in every window the variational members' mean log
// kinetic energy lies within s2Sigmas·s·√(1 + 1/N) of the reference mean,
// s the reference members' standard deviation (N = len(ref)) — the
// prediction interval of one more member. The reference spans both of
// S2's sources of divergence, "initial conditions and numerical errors"
// (§3.4): 1-ulp different starts and steps t_c/12 … t_c/20. Its spread
// is small (0.4% in window 0) while the copies follow each other and large
// (50%) in the last windows. The variational members are one more step
// size: the step's part of the difference does not average over them, so
// the interval is that of a single member, not of a mean of M. It returns
// the failures and a line per window.
func s2Compare(ref, vi [][]float64) (fails, lines []string) {
	n, m := float64(len(ref)), float64(len(vi))
	for i := 0; i < s2Windows; i++ {
		mu, s, mv := 0.0, 0.0, 0.0
		for _, x := range ref {
			mu += x[i] / n
		}
		for _, x := range ref {
			s += (x[i] - mu) * (x[i] - mu) / (n - 1)
		}
		for _, x := range vi {
			mv += x[i] / m
		}
		s = math.Sqrt(s)
		z := (mv - mu) / (s * math.Sqrt(1+1/n))
		lines = append(lines, fmt.Sprintf("t = %.4f–%.4f s: mean KE/particle %.4g J (Verlet) vs %.4g J (variational): log difference %+.4f, Verlet spread %.4f per member, %+.2f of the allowed ±%d",
			s2T0+float64(i)*s2Win, s2T0+float64(i+1)*s2Win, math.Exp(mu), math.Exp(mv), mv-mu, s, z, s2Sigmas))
		if !(math.Abs(z) <= s2Sigmas) {
			fails = append(fails, fmt.Sprintf("window %d (t = %.4f s): log KE differs by %+.4f = %+.1f reference deviations (allowed %d)", i, s2T0+float64(i)*s2Win, mv-mu, z, s2Sigmas))
		}
	}
	return fails, lines
}

// s2Check runs TestS2SettlingKineticEnergy's ensembles with the 1-ulp
// starts of variant v (sphere 53k + 29v of copy k; every copy its own
// sphere) and the variational integrator that vi installs, and returns
// s2Compare's result.
func s2Check(t *testing.T, shared []byte, v int, vi func(w *world.World)) (fails, lines []string) {
	t.Helper()
	var ref, vs [][]float64
	for j := 0; j < s2Ref; j++ {
		ref = append(ref, s2Settle(t, shared, 53*j+29*v, s2Verlet(s2RefStep(j))))
	}
	for j := 0; j < s2Members; j++ {
		vs = append(vs, s2Settle(t, shared, 53*(s2Ref+j)+29*v, vi))
	}
	return s2Compare(ref, vs)
}

// S2 §3.4, Fig. 11a: 218 spheres settle in an L × L × 20L box (Hookean,
// k d/(m g) = 195 000, μ = 0; scene sphere-box). S2's claim: the settling
// is "sensitive to initial conditions and numerical errors, so particle
// trajectories diverge after a few collisions even for the same
// integration method with different time steps", and the coarse-grained
// kinetic energy per particle (eq. 35) of the variational integrator shows
// "excellent agreement" with LAMMPS' velocity Verlet (Fig. 11a). So the
// test compares ensembles, not single runs: from the state at t = 0.05 s
// (velocity Verlet from the scene's start), s2Ref velocity Verlet copies
// (fixed steps t_c/12 … t_c/20, each from its own 1-ulp different start)
// against s2Members variational copies (α = ½, h = t_c/16, S2 §3.1), in
// log kinetic energy per 12.5 ms window (s2Compare: within 4 reference
// deviations in every window).
//
// What it can tell: gravity 15% too strong (window 0: +4.7% against a
// 0.4% spread), damping halved (every window). What it cannot: α = 0 at
// h = t_c/16 (within 1.8 deviations in every window): integrate's
// TestS2OrderOfAccuracy tells α = 0 from ½ (order 1 vs 2).
// The version before pooled the relative spread of 3 + 3 members over
// windows whose spread is 0.2% early and 35% late: a correct run failed at
// 5σ from another 1-ulp start, and gravity 15% off passed; it also ran the
// variational integrator at the scene's 1e-5 s, not t_c/16 (t_c taken
// from a wall of mass 0).
func TestS2SettlingKineticEnergy(t *testing.T) {
	if testing.Short() {
		t.Skip("short: 34 settling runs (~1.2 min of CPU)")
	}
	fails, lines := s2Check(t, s2Shared(t), 0, s2Variational(0.5))
	for _, l := range lines {
		t.Log(l)
	}
	for _, f := range fails {
		t.Error(f)
	}
}

// impact runs one head-on impact at S2's stiffness (k d/(m g) = 195 000 for
// d = 2 mm, ρ = 2500 kg/m³; S2 §3) without gravity: a sphere against a
// fixed planar wall (m_eff = m) or two equal spheres (m_eff = m/2), at
// damping ratio zeta, with integrator integ at the fixed step tc/perTc, the
// law as written or with limit_damping. It returns the coefficient of
// restitution (separating over approach speed, once apart) and the
// oscillator of the contact.
func impact(t *testing.T, integ string, wall, limit bool, zeta, perTc float64) (e float64, o sphere.Oscillator) {
	t.Helper()
	const d, rho = 0.002, 2500.0
	v0 := 0.05 // m/s, each body's speed
	m := rho * math.Pi / 6 * d * d * d
	kn := 195000 * m * 9.81 / d // S2 §3
	meff := m / 2
	if wall {
		meff = m
	}
	o = sphere.Oscillator{Omega0: math.Sqrt(kn / meff)}
	o.Gamma = 2 * zeta * o.Omega0 // ζ = γ/(2ω0)
	w := world.New("impact")
	w.Gravity = geom.Vec3{}
	w.Settings.Workers = 1
	p := world.ContactParams{HasSmooth: true, Smooth: law.Smooth{Model: law.HookeLAMMPS, Kn: kn, GammaN: o.Gamma, LimitDamping: limit}}
	if err := w.SetParams(0, 0, p); err != nil {
		t.Fatal(err)
	}
	gap := 0.02 * d
	a := body.NewSphere("a", d/2, rho, geom.V(0, 0, d/2+gap))
	a.V = geom.V(0, 0, -v0)
	w.AddBody(a)
	other := func() geom.Vec3 { return geom.Vec3{} }
	if wall {
		s := 10 * d
		surf, err := shape.NewSurface("floor", []geom.Vec3{geom.V(-s, -s, 0), geom.V(s, -s, 0), geom.V(s, s, 0), geom.V(-s, s, 0)},
			[][3]int32{{0, 1, 2}, {0, 2, 3}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.AddWall("floor", surf, 0, true); err != nil {
			t.Fatal(err)
		}
	} else {
		b := body.NewSphere("b", d/2, rho, geom.V(0, 0, -d/2-gap))
		b.V = geom.V(0, 0, v0)
		w.AddBody(b)
		v0 *= 2 // approach speed
		other = func() geom.Vec3 { return b.V }
	}
	in, err := integrate.New(integ)
	if err != nil {
		t.Fatal(err)
	}
	w.Integrator = in
	h := o.ContactTime() / perTc
	w.Settings.Dt, w.Settings.DtMax, w.Dt = h, h, h
	w.Settings.DtMin = min(w.Settings.DtMin, h/64)
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	advance(t, w, 2*gap/v0+2*o.ContactTime(), nil)
	if w.Stats.Contacts != 0 {
		t.Fatalf("%s: still in contact at t = %g s", integ, w.Time)
	}
	return a.V.Sub(other()).Z / v0, o
}

// S2 eq. (32)–(34): the impact of the Hookean law (S2 eq. 20, the dashpot
// free to pull before the overlap closes, as LAMMPS gran/hooke) is the
// linear damped oscillator, whose restitution is e = exp(−πζ/√(1−ζ²))
// (eq. 34 at t_c). At S2's stiffness, for ζ = 0.05, 0.2 and 0.5, sphere–wall
// and sphere–sphere: within 1% under variational (α = ½, h = t_c/160 as S2
// Fig. 8) and 2% under explicit (velocity Verlet, h = t_c/100). The contact
// ends where the overlap crosses zero, where the force jumps from −m γ v to
// 0: an error of up to ζω0h/2 relative that the step has to keep small.
// With limit_damping the force is clamped at 0 and the impact ends earlier
// (t* < t_c), with its own restitution ClampedRestitution > e: same
// tolerances. Each variant must be closer to its own value than to the
// other's, so that the test tells them apart.
func TestS2ImpactRestitution(t *testing.T) {
	for _, c := range []struct {
		integ string
		perTc float64
		tol   float64
	}{{"variational", 160, 0.01}, {"explicit", 100, 0.02}} {
		for _, zeta := range []float64{0.05, 0.2, 0.5} {
			for _, wall := range []bool{true, false} {
				for _, limit := range []bool{false, true} {
					e, o := impact(t, c.integ, wall, limit, zeta, c.perTc)
					want, other := o.Restitution(), o.ClampedRestitution() // S2 eq. (34) at t_c
					if limit {
						want, other = other, want
					}
					t.Logf("%s ζ=%.2f wall=%v limit_damping=%v: e = %.5f, analytic %.5f (%+.3f%%; the other variant %.5f)",
						c.integ, zeta, wall, limit, e, want, 100*(e/want-1), other)
					if math.Abs(e/want-1) > c.tol || math.Abs(e-want) >= math.Abs(e-other) {
						t.Errorf("%s ζ=%.2f wall=%v limit_damping=%v: restitution %.5f, analytic %.5f (±%.0f%%), other variant %.5f",
							c.integ, zeta, wall, limit, e, want, 100*c.tol, other)
					}
				}
			}
		}
	}
}
