// Package body holds rigid-body state — position of the centre of mass x,
// unit quaternion q, velocity v, angular velocity ω (world frame) — with mass
// properties and the external loads applied to it (S0 §2.1–2.3).
package body

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// Body is one rigid body. Walls are Fixed bodies too, so that contact treats
// body-to-boundary exactly as body-to-body (S0 §3).
type Body struct {
	Name     string
	Poly     *shape.Polyhedron // geometry in the body frame (origin = centre of mass)
	Material int               // index into the world's material table

	Mass, InvMass   float64   // InvMass = 0 for a Fixed body
	IBody, IBodyInv geom.Mat3 // inertia about the centre of mass, body frame

	X    geom.Vec3 // centre of mass, world frame
	Q    geom.Quat // orientation: body → world
	V, W geom.Vec3 // linear and angular velocity, world frame

	Fixed bool // never moves (walls, supports)
	Wall  int  // index into the world's walls, or −1

	// F and T accumulate the total force and the moment about X for the step.
	F, T geom.Vec3
}

// New returns a body of the given shape and density with the centre of mass at x.
func New(name string, p *shape.Polyhedron, density float64, x geom.Vec3, q geom.Quat) *Body {
	b := &Body{Name: name, Poly: p, X: x, Q: q.Normalize(), Wall: -1}
	b.SetMass(density*p.Volume, p.InertiaUnit.Scale(density))
	return b
}

// NewFixed returns an immovable body (a wall or support) with infinite mass.
func NewFixed(name string, p *shape.Polyhedron, x geom.Vec3, q geom.Quat) *Body {
	return &Body{Name: name, Poly: p, X: x, Q: q.Normalize(), Fixed: true, Wall: -1}
}

// SetMass sets the mass and body-frame inertia (about the centre of mass).
func (b *Body) SetMass(m float64, I geom.Mat3) {
	b.Mass, b.IBody = m, I
	if b.Fixed || m <= 0 {
		b.InvMass, b.IBodyInv = 0, geom.Mat3{}
		return
	}
	b.InvMass = 1 / m
	inv, ok := I.Inv()
	if !ok {
		inv = geom.Mat3{}
	}
	b.IBodyInv = inv
}

// MassOrInf returns the mass, or +Inf for a fixed body (used by the equivalent mass of S0 eq. 52).
func (b *Body) MassOrInf() float64 {
	if b.Fixed {
		return math.Inf(1)
	}
	return b.Mass
}

// Rot returns the rotation matrix Q of the body (S0 eq. 4).
func (b *Body) Rot() geom.Mat3 { return b.Q.Mat() }

// InertiaWorld returns J = Q J^r Qᵀ. // S0 eq. (15)
func (b *Body) InertiaWorld() geom.Mat3 {
	R := b.Q.Mat()
	return R.Mul(b.IBody).Mul(R.T())
}

// InvInertiaWorld returns J⁻¹ = Q (J^r)⁻¹ Qᵀ (zero for a fixed body).
func (b *Body) InvInertiaWorld() geom.Mat3 {
	R := b.Q.Mat()
	return R.Mul(b.IBodyInv).Mul(R.T())
}

// MulInertia returns J·v = Q J^r Qᵀ v without forming the world tensor.
func (b *Body) MulInertia(v geom.Vec3) geom.Vec3 {
	return b.Q.Rotate(b.IBody.MulV(b.Q.InvRotate(v)))
}

// MulInvInertia returns J⁻¹·v = Q (J^r)⁻¹ Qᵀ v (zero for a fixed body).
func (b *Body) MulInvInertia(v geom.Vec3) geom.Vec3 {
	return b.Q.Rotate(b.IBodyInv.MulV(b.Q.InvRotate(v)))
}

// ToWorld maps a body-frame point to the world frame.
func (b *Body) ToWorld(p geom.Vec3) geom.Vec3 { return b.X.Add(b.Q.Rotate(p)) }

// ToBody maps a world point to the body frame.
func (b *Body) ToBody(p geom.Vec3) geom.Vec3 { return b.Q.InvRotate(p.Sub(b.X)) }

// VelocityAt returns the velocity of the material point at world position p.
func (b *Body) VelocityAt(p geom.Vec3) geom.Vec3 { return b.V.Add(b.W.Cross(p.Sub(b.X))) }

// ApplyForceAt adds force f acting at world point p (force and moment about X).
func (b *Body) ApplyForceAt(f, p geom.Vec3) {
	b.F = b.F.Add(f)
	b.T = b.T.Add(p.Sub(b.X).Cross(f))
}

// KineticEnergy returns ½ m v² + ½ ω·Jω.
func (b *Body) KineticEnergy() float64 {
	if b.Fixed {
		return 0
	}
	wb := b.Q.InvRotate(b.W)
	return 0.5*b.Mass*b.V.Norm2() + 0.5*wb.Dot(b.IBody.MulV(wb))
}

// Radius returns the bounding-sphere radius about the centre of mass.
func (b *Body) Radius() float64 { return b.Poly.Radius }

// Finite reports whether the body's state holds no NaN or Inf.
func (b *Body) Finite() bool {
	return b.X.IsFinite() && b.V.IsFinite() && b.W.IsFinite() && b.Q.IsFinite()
}

// State is the part of a body that time integration changes; used to roll back a rejected step.
type State struct {
	X    geom.Vec3
	Q    geom.Quat
	V, W geom.Vec3
}

// Save returns the body's kinematic state.
func (b *Body) Save() State { return State{b.X, b.Q, b.V, b.W} }

// Restore sets the body's kinematic state.
func (b *Body) Restore(s State) { b.X, b.Q, b.V, b.W = s.X, s.Q, s.V, s.W }
