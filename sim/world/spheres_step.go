package world

import (
	"math"

	"grainlab/sim/geom"
)

// The per-sphere passes of an explicit step on the sphere path. The generic
// stages walk the bodies once per stage; here each pass does, for one
// sphere, the work of several stages, so that a step walks the sphere array
// three times (Drift, Evaluate, Accept) instead of six:
//
//   - Drift: the first half kick and the drift of velocity Verlet (as
//     integrate's kickDrift for a sphere), the force accumulators set to the
//     weight (stageAccumulate's start) and the displacements of the Verlet
//     test (updateList);
//   - Accept: the second half kick, the state written to the bodies and the
//     statistics of the accepted state (energies, travel bound).
//
// The accepted state is always the bodies' (Drift reads them), so a
// rejected trial needs no roll-back and whatever changes a body between
// steps is seen by the next one.

// Drift fills the trial state from the bodies' accepted state: velocity
// Verlet's half kick with the stored forces and its drift over dt
// (isotropic inertia: ω = L/I in any frame, and the orientation turns only
// while ω ≠ 0). It sets every trial force to the sphere's weight and moment
// to zero, and records the two largest squared displacements from the
// Verlet list's reference positions for Evaluate's list test.
func (s *Spheres) Drift(dt float64) {
	w := s.w
	S := s.tr.S
	ref := w.verlet.Ref()
	test := !w.Periodic.On() && s.listed && len(ref) == len(S) && w.skin == s.skin
	if !test {
		ref = nil
	}
	h := 0.5 * dt
	d1, d2, finite := 0.0, 0.0, true
	for k, b := range s.body {
		st := &S[k]
		v := b.V.AddScaled(h*s.invM[k], b.F)
		x := b.X.AddScaled(dt, v)
		om := b.W.AddScaled(h*s.invI[k], b.T)
		st.X, st.V, st.W, st.Q = x, v, om, b.Q
		if om.Norm2() != 0 {
			st.Q = b.Q.Integrate(om, dt)
		}
		st.F, st.T = s.mg[k], geom.Vec3{}
		if ref == nil {
			continue
		}
		p := ref[k]
		dx, dy, dz := x.X-p.X, x.Y-p.Y, x.Z-p.Z
		d := dx*dx + dy*dy + dz*dz
		if !(d <= math.MaxFloat64) {
			finite = false
		}
		if d > d2 {
			if d > d1 {
				d1, d2 = d, d1
			} else {
				d2 = d
			}
		}
	}
	// Verlet.Update's test: no rebuild while the two largest displacements
	// since the build sum to at most the skin.
	// (The radii are those of the last Update; its other tests concern
	// bodies that are not finite, which send us to Update.)
	s.drift = driftTest{ran: true, keep: test && finite && math.Sqrt(d1)+math.Sqrt(d2) <= w.skin}
}

// driftTest is what the last Drift did for the next updateList.
type driftTest struct {
	ran  bool // the trial forces are the weights
	keep bool // the Verlet list stays valid for the trial state
}

// finish is Accept's pass over the spheres: the second half kick h·F/m,
// h·T/I (h = 0 at the start), the state to the bodies, and the energies and
// travel bound of the accepted state.
func (s *Spheres) finish(h float64) (ekin, egrav, travel float64) {
	S := s.tr.S
	travel = math.Inf(1)
	vmax2 := s.vmax2
	clear(vmax2)
	g := s.w.Gravity
	for k, b := range s.body {
		st := &S[k]
		st.V = st.V.AddScaled(h*s.invM[k], st.F)
		st.W = st.W.AddScaled(h*s.invI[k], st.T)
		b.X, b.V, b.W, b.Q, b.F, b.T = st.X, st.V, st.W, st.Q, st.F, st.T
		m := s.mass[k]
		v2 := st.V.Norm2()
		ke := 0.5 * m * v2 // KineticEnergy
		if w2 := st.W.Norm2(); w2 != 0 {
			wb := st.Q.InvRotate(st.W)
			ke += 0.5 * wb.Dot(b.IBody.MulV(wb))
			s.wr[k] = math.Sqrt(w2) * b.R
			if vr := math.Sqrt(v2) + s.wr[k]; vr > 0 {
				travel = min(travel, 0.05*b.R/vr) // smoothTravelDt
			}
		} else {
			// |v| + |ω|r = |v|: a species' bound 0.05 r/|v| is its fastest sphere's.
			s.wr[k] = 0
			if sp := s.spec[k]; v2 > vmax2[sp] {
				vmax2[sp] = v2
			}
		}
		ekin += ke
		egrav -= m * g.Dot(st.X)
	}
	for i, v2 := range vmax2 {
		if vr := math.Sqrt(v2); vr > 0 {
			travel = min(travel, 0.05*s.rep[i].R/vr) // smoothTravelDt
		}
	}
	return ekin, egrav, travel
}
