package world

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
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

// CheckFinite returns a *NonFiniteError when the position, quaternion,
// velocity or angular velocity of a body, or one of the energies of Stats,
// is NaN or infinite; nil otherwise. It costs 13 subtractions per body.
func (w *World) CheckFinite() error {
	st := &w.Stats
	// x − x is 0 for a finite x and NaN otherwise: one sum tells whether
	// everything is finite; the names are looked up only when it is not.
	z := (st.Kinetic - st.Kinetic) + (st.PotentialGravity - st.PotentialGravity) + (st.PotentialContact - st.PotentialContact)
	for _, b := range w.Bodies {
		z += (b.X.X - b.X.X) + (b.X.Y - b.X.Y) + (b.X.Z - b.X.Z) +
			(b.Q.W - b.Q.W) + (b.Q.X - b.Q.X) + (b.Q.Y - b.Q.Y) + (b.Q.Z - b.Q.Z) +
			(b.V.X - b.V.X) + (b.V.Y - b.V.Y) + (b.V.Z - b.V.Z) +
			(b.W.X - b.W.X) + (b.W.Y - b.W.Y) + (b.W.Z - b.W.Z)
	}
	if z == 0 {
		return nil
	}
	for _, b := range w.Bodies {
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

// BodyStates is a copy of every body's kinematic state (x, q, v, ω) with the
// world's time and step count: the last good state kept beside a run, so a
// run that turns non-finite can still write it. Save reuses its slices.
type BodyStates struct {
	Time  float64
	Steps int64
	X, V  []geom.Vec3
	W     []geom.Vec3
	Q     []geom.Quat
	Valid bool
}

// Save copies the state of every body of w.
func (s *BodyStates) Save(w *World) {
	n := len(w.Bodies)
	if cap(s.X) < n {
		s.X, s.V, s.W, s.Q = make([]geom.Vec3, n), make([]geom.Vec3, n), make([]geom.Vec3, n), make([]geom.Quat, n)
	}
	s.X, s.V, s.W, s.Q = s.X[:n], s.V[:n], s.W[:n], s.Q[:n]
	for i, b := range w.Bodies {
		s.X[i], s.V[i], s.W[i], s.Q[i] = b.X, b.V, b.W, b.Q
	}
	s.Time, s.Steps, s.Valid = w.Time, w.Steps, true
}

// Restore puts the saved states back into the bodies of w (the same world,
// or one with the same bodies) and sets its time and step count. The contact
// history is not restored: the world is good for writing the state or for
// showing it, and for stepping on only after a fresh integrate.Start.
func (s *BodyStates) Restore(w *World) {
	if !s.Valid || len(s.X) != len(w.Bodies) {
		return
	}
	for i, b := range w.Bodies {
		b.X, b.V, b.W, b.Q = s.X[i], s.V[i], s.W[i], s.Q[i]
	}
	w.Time, w.Steps = s.Time, s.Steps
	w.histStale = true // HistoryValid: the contact history is not this state's
}
