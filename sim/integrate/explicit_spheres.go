package integrate

import (
	"fmt"
	"math"
	"time"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
	"grainlab/sim/world"
)

// sphereStep is the world's sphere path (world.Spheres) driven by velocity
// Verlet: its Drift and Accept passes run the explicit integrator's
// kinematics on the flat state (sphereKickDrift, sphereKick).
type sphereStep struct{ *world.Spheres }

// Drift is world.Spheres.Drift with velocity Verlet's half kick and drift.
func (s sphereStep) Drift(dt float64) { s.Spheres.Drift(dt, sphereKickDrift) }

// Accept is world.Spheres.Accept with velocity Verlet's second half kick of h.
// It returns false if the kick found a force not finite after EvaluateKick
// (nothing accepted: the step is to be rejected).
func (s sphereStep) Accept(h float64) bool { return s.Spheres.Accept(h, sphereKick) }

// sphereKickDrift is kickDrift on the sphere path, with the world's part
// of the pass (world.SphereDrift): the trial state d.Tr[i] of each sphere i
// of the block (species d.Spec[i]) from its accepted state d.Acc[i], half
// kick with the stored forces (halfKickSphere) and drift over d.Dt; in the
// same loop the trial force set to the weight, the centre copied to d.X
// and tested against d.Ref (world.ListDisplaced), so that the pass reads
// each sphere's state once. The orientation turns only while ω ≠ 0
// (kickDrift turns it always: Integrate with ω = 0 renormalises q, which
// may change its last bits). The translational and rotational states are
// two streams (sphere.States), each in its own loop: the arithmetic of
// halfKickSphere, one field each, with h/m and h/I taken when the species
// changes (spheres of a species come in runs; the same products). With
// d.Tr.R nil the rotational states are left alone: the world's rotational
// skip (world.Spheres.Drift), taken only when they already hold what this
// loop would write (ω, q unchanged, T = +0). Without the list test the
// translational loop goes a run of one species at a time to driftRun (on
// amd64 v1 SSE2 assembly, kick_amd64.s: 32 instructions a sphere against
// 44, the same bits); a system of one species (len(d.Kin) = 1) goes in one
// call to driftRun1, which does not test the species and goes two spheres
// a turn (24 a sphere), unless its stores are non-temporal (driftNT). With
// the list test a run of one species at a time goes to driftRunGoT, and a
// system of one species in one call to driftRun1T (on amd64 v1
// drift1TSSE2: ≈ 40 instructions a sphere against ≈ 55).
func sphereKickDrift(d *world.SphereDrift) {
	dt, spec, kin := d.Dt, d.Spec, d.Kin
	h := 0.5 * dt
	al, tl, X := d.Acc.L[:len(spec)], d.Tr.L[:len(spec)], d.X[:len(spec)]
	cur, hm, mg := int32(-1), 0.0, geom.Vec3{}
	if d.Ref == nil {
		nt := driftNT(d.N)
		for i := 0; i < len(spec); {
			if sp := spec[i]; sp != cur {
				c := &kin[sp]
				cur, hm, mg = sp, h*c.InvM, c.Weight
			}
			if len(kin) == 1 && !nt {
				// One species: every sphere is cur's (no run ends).
				i += driftRun1(tl[i:], al[i:], X[i:], spec[i:], cur, hm, dt, &mg)
				continue
			}
			i += driftRun(tl[i:], al[i:], X[i:], spec[i:], cur, hm, dt, &mg, nt)
		}
	} else {
		ref := d.Ref[:len(spec)]
		lt := listTest{D1: d.D1, D2: d.D2, Finite: d.Finite}
		for i := 0; i < len(spec); {
			if sp := spec[i]; sp != cur {
				c := &kin[sp]
				cur, hm, mg = sp, h*c.InvM, c.Weight
			}
			if len(kin) == 1 {
				// One species: every sphere is cur's (no run ends).
				i += driftRun1T(tl[i:], al[i:], X[i:], ref[i:], spec[i:], cur, hm, dt, &mg, &lt)
				continue
			}
			i += driftRunGoT(tl[i:], al[i:], X[i:], ref[i:], spec[i:], cur, hm, dt, &mg, &lt)
		}
		d.D1, d.D2, d.Finite = lt.D1, lt.D2, lt.Finite
	}
	if d.Tr.R == nil {
		return
	}
	ar, tro := d.Acc.R[:len(spec)], d.Tr.R[:len(spec)]
	cur, hi := int32(-1), 0.0
	for i, sp := range spec {
		if sp != cur {
			cur, hi = sp, h*kin[sp].InvI
		}
		b, st := &ar[i], &tro[i]
		om := addScaled(b.W, hi, b.T) // halfKickSphere's ω + h·T/I
		st.W, st.Q, st.T = om, b.Q, geom.Vec3{}
		if om.Norm2() != 0 {
			st.Q = b.Q.Integrate(om, dt)
		}
	}
}

// sphereKick is kick on the sphere path: the half kick of a.H of the
// trial state a.Tr[i] of each sphere i of the block (species a.Spec[i])
// with its trial forces (halfKickSphere), both streams in one loop (two
// loops measured 1.4× the instructions). With a.Tr.R nil (the world's
// rotational skip: every ω and T is +0, so ω + h·T/I would be +0 again)
// only the velocities are kicked, and the world's part of the pass
// (world.SphereAccept: energies and maxima, world.AcceptSphere,
// world.SphereMax.Keep) runs in
// the same loop, so that each sphere's state is read once: a run of one
// species at a time in kickRun (on amd64 v1 SSE2 assembly, kick_amd64.s:
// 47 instructions a sphere with the force test's sum, the same bits); a
// system of one species (len(a.Kin) = 1) in one call to kickRun1, which
// does not test the species (42 a sphere), or with a.NoEnergy (lazy
// energies: the world sums Ekin and Egrav when they are read) to
// kickRun1N, which leaves them and goes two spheres a turn (27 a sphere).
func sphereKick(a *world.SphereAccept) {
	spec, kin, h := a.Spec, a.Kin, a.H
	if a.Tr.R == nil {
		tl := a.Tr.L[:len(spec)]
		g, cur, m := a.G, a.Cur, a.Mass
		sums := kickSums{Ekin: a.Ekin, Egrav: a.Egrav, Max: a.Max, FSum: a.FSum}
		for i := 0; i < len(spec); {
			if sp := spec[i]; sp != cur {
				cur = sp
				m, sums.Max = a.Species(sp, sums.Max)
			}
			if len(kin) == 1 {
				// One species: every sphere is cur's (no run ends).
				if a.NoEnergy {
					i += kickRun1N(tl[i:], spec[i:], cur, h*kin[cur].InvM, &sums)
					continue
				}
				i += kickRun1(tl[i:], spec[i:], cur, h*kin[cur].InvM, m, &g, &sums)
				continue
			}
			i += kickRun(tl[i:], spec[i:], cur, h*kin[cur].InvM, m, &g, &sums)
		}
		a.Ekin, a.Egrav, a.Mass, a.Max, a.FSum = sums.Ekin, sums.Egrav, m, sums.Max, sums.FSum
		return
	}
	tl, trr := a.Tr.L[:len(spec)], a.Tr.R[:len(spec)]
	for i, sp := range spec {
		c := &kin[sp]
		st, ro := &tl[i], &trr[i]
		st.V, ro.W = halfKickSphere(st.V, ro.W, st.F, ro.T, h, c.InvM, c.InvI)
	}
}

// driftNTMin is the number of bytes of trial state and centres
// (sphere.Lin and geom.Vec3: 96 a sphere) of the whole system
// (world.SphereDrift.N) from which driftRun stores them non-temporally (on
// amd64 v1). A store of a normal MOV first reads its cache line
// (write-allocate): the drift's output buffers were last touched two
// passes before, so at 10⁶ spheres (96 MB) every line comes from memory
// to be overwritten, and the next pass (the forces) finds it evicted
// anyway. 12 MiB (131 072 spheres) keeps every system up to 10⁵ spheres
// (9.6 MB, where the next passes may find the lines in this machine's
// 32 MiB L3, and the non-temporal loop measured slower on arrays in cache)
// on the normal loop, and sends all of 10⁶'s through the non-temporal one
// (docs/performance.md, "Session 20: the passes at 10⁶"). A var: the
// tests lower it.
var driftNTMin = 12 << 20

// driftNT reports whether the drift of a system of n spheres stores
// non-temporally (driftNTMin).
func driftNT(n int) bool { return n*96 >= driftNTMin }

// kickSums is what sphereKick carries from sphere to sphere under the
// rotational skip (world.SphereAccept's Ekin, Egrav, Max and FSum), in one
// place for the assembly (kick_amd64.s: Ekin at 0, Egrav at 8, Max.V2 at
// 16, Max.F2 at 24, FSum at 32).
type kickSums struct {
	Ekin, Egrav float64
	Max         world.SphereMax
	FSum        float64
}

// kickRunGo is sphereKick's loop under the rotational skip over a run of
// spheres of one species cur (inverse-mass product hm = h/m, mass m): from
// tl[0] on while spec[i] == cur, the half kick of the velocity and the
// world's part (world.AcceptSphere, world.SphereMax.Keep) summed into s,
// and the sum in sphere order of the forces' F.X + F.Y + F.Z (the world's
// force test, SphereAccept.FSum) — the same rounded operations as forcesBad.
// It returns the number of spheres done (0 if spec[0] ≠ cur). The Go twin
// of kick_amd64.s's kickSSE2 (kickRun runs one of them).
func kickRunGo(tl []sphere.Lin, spec []int32, cur int32, hm, m float64, g *geom.Vec3, s *kickSums) int {
	tl = tl[:len(spec)]
	ekin, egrav, mx, gv, fsum := s.Ekin, s.Egrav, s.Max, *g, s.FSum
	i := 0
	for ; i < len(spec) && spec[i] == cur; i++ {
		st := &tl[i]
		fsum += st.F.X + st.F.Y + st.F.Z // forcesBad's term
		st.V = addScaled(st.V, hm, st.F) // halfKickSphere's v + h·F/m
		var v2 float64
		ekin, egrav, v2 = world.AcceptSphere(st, m, gv, ekin, egrav)
		mx = mx.Keep(v2, &st.F)
	}
	s.Ekin, s.Egrav, s.Max, s.FSum = ekin, egrav, mx, fsum
	return i
}

// kickRunGoN is kickRunGo without the energies (s.Ekin and s.Egrav left
// as they are: lazy energies, world.SphereAccept.NoEnergy): the half kick,
// the maxima and the force test's sum, the same operations on the same
// values in the same order. The Go twin of kick_amd64.s's kick1NSSE2
// (kickRun1N runs one of them).
func kickRunGoN(tl []sphere.Lin, spec []int32, cur int32, hm float64, s *kickSums) int {
	tl = tl[:len(spec)]
	mx, fsum := s.Max, s.FSum
	i := 0
	for ; i < len(spec) && spec[i] == cur; i++ {
		st := &tl[i]
		fsum += st.F.X + st.F.Y + st.F.Z // forcesBad's term
		st.V = addScaled(st.V, hm, st.F) // halfKickSphere's v + h·F/m
		v := &st.V
		v2 := float64(v.X*v.X) + float64(v.Y*v.Y) + float64(v.Z*v.Z) // AcceptSphere's |v|²
		mx = mx.Keep(v2, &st.F)
	}
	s.Max, s.FSum = mx, fsum
	return i
}

// listTest is the Verlet list's displacement test carried through
// sphereKickDrift's loop with the test (world.SphereDrift's D1, D2 and
// Finite; for the assembly, kick_amd64.s: D1 at 0, D2 at 8, Finite at 16).
type listTest struct {
	D1, D2 float64
	Finite bool
}

// driftRunGoT is driftRunGo with the list test (world.ListDisplaced of
// each sphere's new centre against ref[i], into t) over a run of spheres
// of species cur. The Go twin of kick_amd64.s's drift1TSSE2 (driftRun1T
// runs one of them, over a system of one species).
func driftRunGoT(tl, al []sphere.Lin, X, ref []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3, t *listTest) int {
	tl, al, X, ref = tl[:len(spec)], al[:len(spec)], X[:len(spec)], ref[:len(spec)]
	w := *mg
	d1, d2, fin := t.D1, t.D2, t.Finite
	i := 0
	for ; i < len(spec) && spec[i] == cur; i++ {
		b, st := &al[i], &tl[i]
		v := addScaled(b.V, hm, b.F) // halfKickSphere's v + h·F/m
		x := addScaled(b.X, dt, v)   // drift x + Δt·v_{1/2}
		st.X, st.V, st.F = x, v, w
		X[i] = x
		d1, d2, fin = world.ListDisplaced(x, ref[i], d1, d2, fin)
	}
	t.D1, t.D2, t.Finite = d1, d2, fin
	return i
}

// driftRunGo is sphereKickDrift's loop without the list test over a run of
// spheres of one species cur (hm = h/m, weight mg): from tl[0], al[0],
// X[0] on while spec[i] == cur, the trial state tl[i] from the accepted
// al[i] (half kick, drift over dt, force mg) and its centre to X[i]. It
// returns the number of spheres done (0 if spec[0] ≠ cur). The Go twin of
// kick_amd64.s's driftSSE2 (driftRun runs one of them).
func driftRunGo(tl, al []sphere.Lin, X []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3) int {
	tl, al, X = tl[:len(spec)], al[:len(spec)], X[:len(spec)]
	w := *mg
	i := 0
	for ; i < len(spec) && spec[i] == cur; i++ {
		b, st := &al[i], &tl[i]
		v := addScaled(b.V, hm, b.F) // halfKickSphere's v + h·F/m
		x := addScaled(b.X, dt, v)   // drift x + Δt·v_{1/2}
		st.X, st.V, st.F = x, v, w
		X[i] = x
	}
	return i
}

// halfKickSphere is velocity Verlet's half kick of a sphere over h = Δt/2:
// v + h·F/m and ω + h·T/I (isotropic inertia: ω = L/I in any frame, no
// gyroscopic term), shared by kickDrift, kick and the sphere path; h/m and
// h/I are taken first, as the sphere path takes them once a species.
func halfKickSphere(v, w, f, t geom.Vec3, h, invM, invI float64) (geom.Vec3, geom.Vec3) {
	return addScaled(v, h*invM, f), addScaled(w, h*invI, t) // velocity Verlet (S2 §1, its ref. 22; LAMMPS fix nve/sphere)
}

// addScaled is v + s·f (geom.Vec3.AddScaled) with each product rounded
// before the sum: float64(s·f) forbids the compiler to fuse it into one
// multiply-add (Go spec, "Floating-point operators"), which it may do on
// FMA builds (GOAMD64=v3, arm64) wherever the product meets an add —
// inlining decides where, so two loops doing the same kick (sphereKick
// under the rotational skip and halfKickSphere; lazy and eager bodies)
// could round differently. Every kick and drift of the sphere path thus
// has the default build's bits on FMA builds too (docs/ARCHITECTURE.md,
// "Determinism and fused multiply-adds"); on amd64 v1 nothing changes.
func addScaled(v geom.Vec3, s float64, f geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: v.X + float64(s*f.X), Y: v.Y + float64(s*f.Y), Z: v.Z + float64(s*f.Z)}
}

// stepSpheres is Step on the world's sphere path (world.Spheres): the same
// velocity Verlet, rejections and step-size rule, on flat arrays. The
// accepted state is in the flat array world.Spheres keeps (and in the
// bodies unless they are lazy: world.SetLazyBodies); a trial step reads it
// and writes the flat trial state, so a rejection needs no roll-back.
func (x *Explicit) stepSpheres(w *world.World, s sphereStep, dtMax float64) (float64, error) {
	prof := &w.Stats.Profile
	t0, stages0 := time.Now(), prof.Stages()
	dt := math.Min(w.Dt, dtMax)
	rt := newRetry(w, x.Name(), 0.25, nil)
	for {
		s.Drift(dt)
		// The force test may be left to the accept kick (EvaluateKick): a
		// bad step is then found by Accept, which commits nothing.
		owls, bad := s.EvaluateKick(w.Time+dt, dt)
		if !bad && owls == 0 {
			if s.Accept(0.5 * dt) { // the second half kick, the state to the bodies
				break
			}
			bad = true
		}
		w.Stats.NightOwls += int64(owls)
		next, err := rt.reject(dt, rejectWhy(bad))
		if err != nil {
			if bad {
				return 0, err
			}
			// Night owls at the smallest step: accept them; they are now candidates.
			s.Drift(dt)
			s.Evaluate(w.Time+dt, dt) // the test made here (and ignored): Accept accepts
			s.Accept(0.5 * dt)
			break
		}
		dt = next
	}
	w.Time += dt
	w.Steps++
	w.Stats.Dt = dt
	w.Dt = math.Min(dt*1.25, s.StableDt())
	prof.Integrate += time.Since(t0) - (prof.Stages() - stages0) // kicks, drifts, acceptance
	return dt, nil
}

// startSpheres is Start on the sphere path: the forces of the bodies' state.
func startSpheres(w *world.World, s sphereStep) error {
	s.TrialFromBodies()
	if _, bad := s.Evaluate(w.Time, 0); bad {
		return fmt.Errorf("t=%g s: the initial state has penetrating or non-finite contacts", w.Time)
	}
	s.Accept(0)
	if w.Dt <= 0 {
		w.Dt = w.Settings.Dt
	}
	w.Dt = math.Min(w.Dt, s.StableDt())
	w.Stats.Dt = w.Dt
	return nil
}
