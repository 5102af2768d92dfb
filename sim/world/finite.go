package world

import (
	"fmt"
	"math"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// NonFiniteError tells that a state or energy became NaN or ±Inf after an
// accepted step: the time and step count reached, the body (empty for an
// energy) and the quantity.
type NonFiniteError struct {
	Time     float64
	Step     int64
	Body     string // body name; empty when Quantity is an energy
	Quantity string // "position", "quaternion", "velocity", "angular velocity", or an energy's name
	Value    float64
}

// Error names the time, step, body and quantity, and the likely cause.
func (e *NonFiniteError) Error() string {
	what := e.Quantity
	if e.Body != "" {
		what = fmt.Sprintf("body %q %s", e.Body, e.Quantity)
	}
	return fmt.Sprintf("non-finite state at t=%.6g s (step %d): %s is %g; likely a parameter out of range "+
		"(e.g. density, gravity, stiffness, a load or a time step)", e.Time, e.Step, what, e.Value)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// firstBad returns the first non-finite component of v (and false), or 0, true.
func firstBad(v ...float64) (float64, bool) {
	for _, x := range v {
		if !finite(x) {
			return x, false
		}
	}
	return 0, true
}

// lazySpheres returns the sphere path while the bodies lag behind its flat
// accepted state (SetLazyBodies), nil otherwise.
func (w *World) lazySpheres() *Spheres {
	if s := w.sph; s != nil && s.stale && len(s.sidx) == w.NumBodies() {
		return s
	}
	return nil
}

// notFinite is 0 when the 13 components x, q, v, ω are all finite and NaN
// otherwise (x − x is 0 for a finite x, NaN for NaN and ±Inf).
func notFinite(x, v, om geom.Vec3, q geom.Quat) float64 {
	return (x.X - x.X) + (x.Y - x.Y) + (x.Z - x.Z) +
		(q.W - q.W) + (q.X - q.X) + (q.Y - q.Y) + (q.Z - q.Z) +
		(v.X - v.X) + (v.Y - v.Y) + (v.Z - v.Z) +
		(om.X - om.X) + (om.Y - om.Y) + (om.Z - om.Z)
}

// CheckFinite returns a *NonFiniteError when the position, quaternion,
// velocity or angular velocity of a body, or one of the energies of Stats,
// is NaN or infinite; nil otherwise. It costs 13 subtractions per body.
// With lazy bodies (SetLazyBodies) it reads the spheres' state from the
// sphere path's flat array, in sphere order, and the bodies only when
// something is not finite (after SyncBodies, to name it).
func (w *World) CheckFinite() error { return w.checkFinite(false) }

// CheckFiniteNext is CheckFinite for a caller that checked the state
// accepted before this one (a run's guard after every step, from its
// second step on): with lazy bodies it does not read what the step
// proves finite. While rotation is still (Spheres.rotStill, set by
// Accept: every ω and moment +0 and every q the one before, which the
// last check found finite) that is the spheres' whole state: their
// kinetic and gravitational energies, summed by Accept (or by
// fillEnergies) from the accepted x and v, are not finite when one of
// those is (energyProof). The same error as CheckFinite when one is
// found, and nil when CheckFinite's is.
func (w *World) CheckFiniteNext() error { return w.checkFinite(true) }

// energyProof: why the energies stand for the spheres' x and v. While
// rotation is still, Accept's kick sums AcceptSphere's terms over every
// sphere of the accepted state (finishRange; energies() the same sums
// for lazy energies): ekin += ½·m·(vx² + vy² + vz²) and
// egrav −= m·(gx·x + gy·y + gz·z), each product rounded. Let a component
// be NaN or ±Inf and m, g finite (a non-finite m or g makes the sums
// non-finite whatever x and v are, which the guard already reports): a
// square of ±Inf is +Inf and of NaN NaN, so |v|² is +Inf or NaN and
// ½·m·|v|² is ±Inf, or NaN when m = 0 (0·Inf); g_k·x_k is ±Inf or NaN
// (NaN when g_k = 0), so is the sum of the three, and m times it. A
// non-finite term leaves every sum it enters non-finite (Inf + finite
// = Inf, Inf − Inf = NaN, NaN + anything = NaN), the chunked sums and
// their total alike. So a non-finite x or v makes E_kin or E_grav
// non-finite, at the step it appears; and a finite state whose energy
// overflows is reported as before. The naming pass is the same either
// way: the same error.
func (w *World) checkFinite(next bool) error {
	st := &w.Stats
	if s := w.sph; s != nil {
		s.fillEnergies() // lazy energies (SetLazyEnergies): those of the accepted state
	}
	// x − x is 0 for a finite x and NaN otherwise: one sum tells whether
	// everything is finite; the names are looked up only when it is not.
	z := (st.Kinetic - st.Kinetic) + (st.PotentialGravity - st.PotentialGravity) + (st.PotentialContact - st.PotentialContact)
	if s := w.lazySpheres(); s != nil {
		if !(next && s.rotStill) {
			// While rotation is still, the energies above prove the spheres'
			// x and v finite (energyProof); otherwise every component is read.
			acc := s.accepted()
			for o := range acc.L {
				a := &acc.L[o]
				om, q := s.rotOf(&acc, o) // +0 and the body's Q without the array (spheres_rotnone.go)
				z += notFinite(a.X, a.V, om, q)
			}
		}
		z += w.wallsNotFinite(s)
		if z == 0 {
			return nil
		}
		w.SyncBodies()
	} else {
		w.eachBodyState(func(_ int, b *body.Body) { z += notFinite(b.X, b.V, b.W, b.Q) })
		if z == 0 {
			return nil
		}
	}
	for _, b := range w.Bodies() {
		for _, q := range []struct {
			name string
			v    []float64
		}{
			{"position", []float64{b.X.X, b.X.Y, b.X.Z}},
			{"quaternion", []float64{b.Q.W, b.Q.X, b.Q.Y, b.Q.Z}},
			{"velocity", []float64{b.V.X, b.V.Y, b.V.Z}},
			{"angular velocity", []float64{b.W.X, b.W.Y, b.W.Z}},
		} {
			if x, ok := firstBad(q.v...); !ok {
				return &NonFiniteError{Time: w.Time, Step: w.Steps, Body: b.Name, Quantity: q.name, Value: x}
			}
		}
	}
	for _, e := range []struct {
		name string
		v    float64
	}{{"kinetic energy", st.Kinetic}, {"gravity potential energy", st.PotentialGravity},
		{"contact potential energy", st.PotentialContact}} {
		if !finite(e.v) {
			return &NonFiniteError{Time: w.Time, Step: w.Steps, Quantity: e.name, Value: e.v}
		}
	}
	return nil
}

// wallsNotFinite is notFinite's sum over the bodies the lazy sphere path s
// does not hold (their bodies are current): the walls, found through
// w.Walls (a few) rather than a pass over every body's sphere index (at
// 10⁵ spheres half a million instructions a step); through that pass when
// the walls do not account for every such body.
func (w *World) wallsNotFinite(s *Spheres) float64 {
	z, n := 0.0, 0
	for wi := range w.Walls {
		i := w.Walls[wi].Body
		if i < 0 || i >= w.NumBodies() || s.sidx[i] >= 0 || w.BodyRec(i).Wall != wi {
			n = -1
			break
		}
		b := w.BodyRec(i) // a wall: a record
		z += notFinite(b.X, b.V, b.W, b.Q)
		n++
	}
	if n == w.NumBodies()-len(s.idx) {
		return z
	}
	// Defensive: AddWall keeps Walls[wi].Body and Bodies[i].Wall in step
	// and walls are never removed, so the walls are every non-sphere body
	// of a sphere-path world; should that ever not hold, every one is read.
	z = 0
	for i, k := range s.sidx {
		if k < 0 {
			b := w.BodyRec(i) // not a sphere: a record
			z += notFinite(b.X, b.V, b.W, b.Q)
		}
	}
	return z
}

// BodyStates is a copy of every body's kinematic state (x, q, v, ω) with the
// world's time and step count: the last good state kept beside a run, so a
// run that turns non-finite can still write it. Save reuses its slices.
type BodyStates struct {
	Time  float64
	Steps int64
	X, V  []geom.Vec3
	W     []geom.Vec3
	Q     []geom.Quat
	// Body is the body index of entry i, nil when entry i is body i (with
	// lazy bodies Save copies the spheres in the sphere path's order).
	Body  []int32
	Valid bool

	// SaveRef's reference (finite_ref.go): the sphere path's array holding
	// the saved spheres (nil: the copy above holds them), its key and
	// length, whether ω is +0 throughout (refStill); the other bodies'
	// indices and states.
	ref              *sphere.Lin
	refKey, otherKey spheresKey
	refN             int
	refStill         bool
	otherIdx         []int32
	oX, oV, oW       []geom.Vec3
	oQ               []geom.Quat
}

// Save copies the state of every body of w. With lazy bodies
// (SetLazyBodies) it copies the spheres' state from the sphere path's flat
// array, in its order (Body), without syncing the bodies.
func (s *BodyStates) Save(w *World) {
	s.ref = nil
	n := w.NumBodies()
	if cap(s.X) < n {
		s.X, s.V, s.W, s.Q = make([]geom.Vec3, n), make([]geom.Vec3, n), make([]geom.Vec3, n), make([]geom.Quat, n)
	}
	s.X, s.V, s.W, s.Q = s.X[:n], s.V[:n], s.W[:n], s.Q[:n]
	s.Time, s.Steps, s.Valid = w.Time, w.Steps, true
	if sp := w.lazySpheres(); sp != nil && sp.acc.Len() == len(sp.idx) {
		m := sp.acc.Len()
		s.Body = append(s.Body[:0], sp.idx...)
		X, V, W, Q := s.X[:m], s.V[:m], s.W[:m], s.Q[:m]
		acc := sp.accepted()
		for o := range acc.L {
			a := &acc.L[o]
			om, q := sp.rotOf(&acc, o) // +0 and the body's Q without the array (spheres_rotnone.go)
			X[o], V[o], W[o], Q[o] = a.X, a.V, om, q
		}
		for i, k := range sp.sidx { // the walls, after the spheres
			if k < 0 {
				b := w.BodyRec(i) // not a sphere: a record
				s.X[m], s.V[m], s.W[m], s.Q[m] = b.X, b.V, b.W, b.Q
				s.Body = append(s.Body, int32(i))
				m++
			}
		}
		return
	}
	s.Body = s.Body[:0]
	w.eachBodyState(func(i int, b *body.Body) {
		s.X[i], s.V[i], s.W[i], s.Q[i] = b.X, b.V, b.W, b.Q
	})
}

// Restore puts the saved states back into the bodies of w (the same world,
// or one with the same bodies) and sets its time and step count. The contact
// history is not restored: the world is good for writing the state or for
// showing it, and for stepping on only after a fresh integrate.Start.
func (s *BodyStates) Restore(w *World) {
	s.materialize(w)
	if !s.Valid || len(s.X) != len(w.Bodies()) || len(s.Body) != 0 && len(s.Body) != len(s.X) {
		return
	}
	w.SyncBodies() // the bodies written here are the state of record
	for i := range s.X {
		bi := i
		if len(s.Body) != 0 {
			bi = int(s.Body[i])
		}
		b := w.Bodies()[bi]
		b.X, b.V, b.W, b.Q = s.X[i], s.V[i], s.W[i], s.Q[i]
	}
	w.Time, w.Steps = s.Time, s.Steps
	w.histStale = true // HistoryValid: the contact history is not this state's
}
