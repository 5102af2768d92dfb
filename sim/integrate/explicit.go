// Package integrate holds the time integrators. Each advances a world.World
// through the world's solver stages (detect → laws → accumulate).
package integrate

import (
	"fmt"
	"math"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// Explicit is the symplectic velocity-Verlet integrator with quaternions and
// an adaptive step: Δt follows the stiffest active contact (S0 §2.4.7,
// Fig. 11) and the approach speeds; a step whose contacts flip their normal
// (S0 §2.4.5), that yields non-finite forces, or that meets night-owl
// contacts (S0 §2.6) is rejected and retried with a quarter of the step.
type Explicit struct {
	cp checkpoint
	// The step's passes over the bodies (made once: a step allocates
	// nothing of its own) and what they read: the world and the step.
	w                        *world.World
	dt                       float64
	saveDrift, drift, closeK func(i int)
}

// passes readies x's passes over the bodies of w for a step of dt.
func (x *Explicit) passes(w *world.World, dt float64) {
	x.w, x.dt = w, dt
	if x.drift != nil {
		return
	}
	x.drift = func(i int) {
		if b := x.w.Bodies()[i]; !b.Fixed {
			kickDrift(b, x.dt)
		}
	}
	x.saveDrift = func(i int) {
		x.cp.saveBody(x.w, i)
		x.drift(i)
	}
	x.closeK = func(i int) {
		if b := x.w.Bodies()[i]; !b.Fixed {
			kick(b, x.dt)
		}
	}
}

// Name returns "explicit".
func (*Explicit) Name() string { return "explicit" }

// Start evaluates the forces of the initial state (t, no history), on the
// sphere path when the world qualifies (world.Spheres). After a complete
// restore (world.RestoreHistory) the forces and contacts are already those
// of the saved state and Start does nothing.
func Start(w *world.World) error {
	if w.Resumed() {
		return nil
	}
	if s := w.Spheres(); s != nil {
		return startSpheres(w, sphereStep{s})
	}
	if w.Evaluate(w.Time, 0, world.Eval{}).Bad {
		return fmt.Errorf("t=%g s: the initial state has penetrating or non-finite contacts", w.Time)
	}
	w.Commit(world.Commit{Stats: true})
	if w.Dt <= 0 {
		w.Dt = w.Settings.Dt
	}
	// The first step obeys the step controls too (travelDt: the scene's
	// or the command line's dt may be far above what gravity allows).
	sb := w.StableDtBelow(w.Dt)
	w.Dt = min(w.Dt, max(min(sb, travelDtBelow(w, 0.5, sb)), w.Settings.DtMin))
	w.Stats.Dt = w.Dt
	return nil
}

// Step advances w by one accepted step of at most dtMax.
func (x *Explicit) Step(w *world.World, dtMax float64) (float64, error) {
	if s := w.Spheres(); s != nil {
		return x.stepSpheres(w, sphereStep{s}, dtMax)
	}
	prof := &w.Stats.Profile
	t0, stages0 := time.Now(), prof.Stages()
	dt := min(w.Dt, dtMax)
	rt := newRetry(w, x.Name(), 0.25, &x.cp)
	// Each body is saved (the first attempt), kicked and drifted, then
	// placed by the detection, in one pass over the bodies; the closing
	// half kick runs on each body as soon as its forces are summed, in the
	// accumulation's pass (world.Eval.Then), unless the attempt is rejected
	// already (reversed normals, night owls).
	x.cp.begin(w)
	x.passes(w, dt)
	r := w.Evaluate(w.Time+dt, dt, world.Eval{Move: x.saveDrift, Then: x.closeK})
	for r.Bad || r.NightOwls != 0 {
		w.Stats.NightOwls += int64(r.NightOwls)
		next, err := rt.reject(dt, rejectWhy(r.Bad))
		if err != nil {
			if r.Bad {
				x.w = nil
				return 0, err
			}
			// Night owls at the smallest step: accept them; they are now candidates.
			r = w.Evaluate(w.Time+dt, dt, world.Eval{Move: x.drift})
			break
		}
		dt = next
		x.dt = dt
		r = w.Evaluate(w.Time+dt, dt, world.Eval{Move: x.drift, Then: x.closeK})
	}
	w.Time += dt
	w.Steps++
	w.Stats.Dt = dt
	// Both bounds below the growth limit c = 1.25·dt only: terms above it
	// are not evaluated. min(S, c, T) in place of min(S, T) gives the same
	// min(c, max(·, dt_min)): where the two differ, both exceed c.
	// The statistics' body terms and the step bound's were computed with
	// the kick, and the step bound's visit of the pairs runs in Commit's
	// pass (world.Commit.Below; UpdateStats and the body terms read neither time
	// nor steps, so moving them on first changes nothing). Without the
	// kick in the accumulation (night owls accepted at dt_min): the kick,
	// the statistics' and the step bound's body terms in Commit's pass.
	var sb float64
	if r.Ran {
		sb = w.Commit(world.Commit{Stats: true, Below: dt * 1.25})
	} else {
		w.Commit(world.Commit{Move: x.closeK, Stats: true, Bound: true})
		sb = w.StableDtBelow(dt * 1.25)
	}
	x.w = nil // the World is not kept between steps
	w.Dt = min(dt*1.25, max(min(sb, travelDtBelow(w, 0.5, sb)), w.Settings.DtMin))
	prof.Integrate += time.Since(t0) - (prof.Stages() - stages0) // what the stages did not take
	return dt, nil
}

// rejectWhy is the reason of an explicit attempt's rejection: a reversed
// normal or non-finite force (bad), else night-owl contacts.
func rejectWhy(bad bool) int {
	if bad {
		return world.RejectPenetration
	}
	return world.RejectNightOwl
}

// kickDrift is the first half of velocity Verlet: half kick with the stored
// forces, then drift. Rotation uses the angular momentum L = Jω, a midpoint
// orientation for the drift, and the exponential map for the quaternion.
func kickDrift(b *body.Body, dt float64) {
	if b.Kind == body.Sphere {
		b.V, b.W = halfKickSphere(b.V, b.W, b.F, b.T, 0.5*dt, b.InvMass(), b.IBodyInv()[0][0])
		b.X = b.X.AddScaled(dt, b.V)
		b.Q = b.Q.Integrate(b.W, dt)
		return
	}
	b.V = b.V.AddScaled(0.5*dt*b.InvMass(), b.F)
	b.X = b.X.AddScaled(dt, b.V)
	L := b.MulInertia(b.W).AddScaled(0.5*dt, b.T)
	w0 := b.MulInvInertia(L)
	qm := integrateQ(b.Q, w0, 0.5*dt)
	w1 := b.MulInvInertiaAt(qm, L)
	b.Q = integrateQ(b.Q, w1, dt)
	b.W = b.MulInvInertia(L) // half-step ω expressed at the new orientation
}

// integrateQ is q.Integrate(w, dt) — exp(w·dt)·q normalised, the
// exponential map of geom.QFromRotVec — with the same operations in the
// same order (the same bits), written out: the angle |w·dt| is computed
// once (QFromRotVec's norm and Unit's are the same expression) and no
// intermediate quaternion or vector is passed between calls.
func integrateQ(q geom.Quat, w geom.Vec3, dt float64) geom.Quat {
	tx, ty, tz := dt*w.X, dt*w.Y, dt*w.Z // w.Scale(dt)
	a := math.Sqrt(tx*tx + ty*ty + tz*tz)
	var e geom.Quat
	if a < 1e-12 { // QFromRotVec's second-order series
		e = geom.Quat{W: 1, X: tx / 2, Y: ty / 2, Z: tz / 2}.Normalize()
	} else { // QAxisAngle(θ, a): θ.Unit() (a ≠ 0 here), then sin and cos of a/2
		r := 1 / a
		ux, uy, uz := r*tx, r*ty, r*tz
		sn, cs := sincosSmall(a / 2)
		e = geom.Quat{W: cs, X: sn * ux, Y: sn * uy, Z: sn * uz}
	}
	// e.Mul(q), then Normalize.
	m := geom.Quat{
		W: e.W*q.W - e.X*q.X - e.Y*q.Y - e.Z*q.Z,
		X: e.W*q.X + e.X*q.W + e.Y*q.Z - e.Z*q.Y,
		Y: e.W*q.Y - e.X*q.Z + e.Y*q.W + e.Z*q.X,
		Z: e.W*q.Z + e.X*q.Y - e.Y*q.X + e.Z*q.W,
	}
	n := math.Sqrt(m.W*m.W + m.X*m.X + m.Y*m.Y + m.Z*m.Z)
	if n == 0 {
		return geom.QIdent()
	}
	return geom.Quat{W: m.W / n, X: m.X / n, Y: m.Y / n, Z: m.Z / n}
}

// kick is the second half kick with the forces at the new state.
func kick(b *body.Body, dt float64) {
	if b.Kind == body.Sphere {
		b.V, b.W = halfKickSphere(b.V, b.W, b.F, b.T, 0.5*dt, b.InvMass(), b.IBodyInv()[0][0])
		return
	}
	b.V = b.V.AddScaled(0.5*dt*b.InvMass(), b.F)
	L := b.MulInertia(b.W).AddScaled(0.5*dt, b.T)
	b.W = b.MulInvInertia(L)
}

// sincosSmall is math.Sincos(x), to the bit: for 0 < x with x·4/π < 1
// (a step's half rotation angle) the octant is 0, the reduced argument is x
// itself and Sincos's polynomials are evaluated here directly, with the
// same coefficients and operations (Go's math/sin.go, sincos.go); any
// other x goes to math.Sincos.
func sincosSmall(x float64) (sin, cos float64) {
	if !(x > 0 && x*(4/math.Pi) < 1) {
		return math.Sincos(x)
	}
	const (
		s0, s1, s2 = 1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6
		s3, s4, s5 = -1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1
		c0, c1, c2 = -1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7
		c3, c4, c5 = 2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2
	)
	zz := x * x
	cos = 1.0 - 0.5*zz + zz*zz*((((((c0*zz)+c1)*zz+c2)*zz+c3)*zz+c4)*zz+c5)
	sin = x + x*zz*((((((s0*zz)+s1)*zz+s2)*zz+s3)*zz+s4)*zz+s5)
	return sin, cos
}
