package body

import "grainlab/sim/geom"

// Ramp is a vector that varies linearly from From at T0 to To at T1 and is
// constant outside [T0, T1] (the load histories of S0 examples 3 and 4).
type Ramp struct {
	From, To geom.Vec3
	T0, T1   float64
}

// Const returns a ramp that is v at all times.
func Const(v geom.Vec3) Ramp { return Ramp{From: v, To: v} }

// At returns the ramp's value at time t.
func (r Ramp) At(t float64) geom.Vec3 {
	switch {
	case t <= r.T0:
		return r.From
	case t >= r.T1 || r.T1 <= r.T0:
		return r.To
	}
	return geom.Lerp(r.From, r.To, (t-r.T0)/(r.T1-r.T0))
}

// IsZero reports whether the ramp is zero at all times.
func (r Ramp) IsZero() bool { return r.From == (geom.Vec3{}) && r.To == (geom.Vec3{}) }

// Frame says in which frame a load's vectors are given.
type Frame uint8

const (
	// World-frame vectors keep their direction as the body turns.
	World Frame = iota
	// BodyFrame vectors turn with the body (a follower load).
	BodyFrame
)

// Load is an external force and moment applied at a material point of a body,
// given in the body frame relative to the centre of mass (S0 §2.3, ex. 3).
type Load struct {
	Name   string
	Body   int
	Point  geom.Vec3 // body frame, relative to the centre of mass
	Frame  Frame
	Force  Ramp
	Moment Ramp
}

// Apply adds the load at time t to body b's force and moment accumulators and
// returns the applied force and moment in the world frame.
func (l *Load) Apply(b *Body, t float64) (f, m geom.Vec3) {
	f, m = l.Force.At(t), l.Moment.At(t)
	if l.Frame == BodyFrame {
		f, m = b.Q.Rotate(f), b.Q.Rotate(m)
	}
	p := b.ToWorld(l.Point)
	b.ApplyForceAt(f, p)
	b.T = b.T.Add(m)
	return f, m
}

// Power returns the rate of work of the load on body b at time t.
func (l *Load) Power(b *Body, t float64) float64 {
	f, m := l.Force.At(t), l.Moment.At(t)
	if l.Frame == BodyFrame {
		f, m = b.Q.Rotate(f), b.Q.Rotate(m)
	}
	return f.Dot(b.VelocityAt(b.ToWorld(l.Point))) + m.Dot(b.W)
}
