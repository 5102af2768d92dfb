// Package body holds rigid-body state — position of the centre of mass x,
// unit quaternion q, velocity v, angular velocity ω (world frame) — with mass
// properties and the external loads applied to it (S0 §2.1–2.3).
package body

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
)

// Kind is the geometric model of a body.
type Kind uint8

// The body kinds: polyhedra (S0), spheres, superquadrics (S1).
const (
	Polyhedral Kind = iota
	Sphere
	Superquadric
)

// String returns the kind's scene-file name.
func (k Kind) String() string {
	switch k {
	case Sphere:
		return "sphere"
	case Superquadric:
		return "superquadric"
	}
	return "polyhedron"
}

// Body is one rigid body. Walls are Fixed bodies too, so that contact treats
// body-to-boundary exactly as body-to-body (S0 §3).
//
// The shape and mass properties (Poly, SQ, RVol, Density, Mass, InvMass,
// IBody, IBodyInv) and the generator's name (Group) live in a record that bodies of one species share (10⁶
// spheres of one radius and density hold one record between them) and are
// read through the accessors of the same names. The record is immutable:
// SetMass and SetShape give the body a new one (copy on write), never change
// a shared one.
type Body struct {
	Name     string
	Kind     Kind
	Fixed    bool    // never moves (walls, supports)
	p        *props  // shape and mass properties, shared by a species; never written through
	R        float64 // bounding-sphere radius about the centre of mass
	Material int     // index into the world's material table

	X    geom.Vec3 // centre of mass, world frame
	Q    geom.Quat // orientation: body → world
	V, W geom.Vec3 // linear and angular velocity, world frame

	Wall int // index into the world's walls, or −1

	// F and T accumulate the total force and the moment about X for the step.
	F, T geom.Vec3
}

// props is a body's shape and mass properties: the part that bodies of one
// species share. A props reachable from a Body is never written.
type props struct {
	poly            *shape.Polyhedron // Polyhedral: geometry in the body frame (origin = centre of mass)
	sq              sq.Shape          // Superquadric: the shape in the body frame (Sphere: A = B = C = R, N1 = N2 = 2)
	rVol            float64           // Sphere, Superquadric: radius of the volume-equivalent sphere
	density         float64           // kg/m³ (0 for fixed bodies); kept so live shape edits can update the mass
	mass, invMass   float64           // invMass = 0 for a Fixed body
	iBody, iBodyInv geom.Mat3         // inertia about the centre of mass, body frame
	jMax            float64           // Gershgorin(&iBodyInv), kept with it (InvInertiaBound)
	group           string            // the generator that made the body (Group)
}

// rec returns the body's record. Bodies come from the constructors (New,
// NewSphere, NewSuperquadric, NewFixed), which set it; a zero Body has none.
func (b *Body) rec() *props { return b.p }

// Made reports whether the body has its shape and mass record, as every
// constructor gives it (a Body built by literal has none, and its mass
// properties cannot be read).
func (b *Body) Made() bool { return b.p != nil }

// SameRecord reports whether b and a share one shape and mass record (bodies
// of one species from one constructor or generator): then every accessor of
// the record (Poly, SQ, RVol, Density, Mass, InvMass, IBody, IBodyInv,
// Group) gives both the same bits.
func (b *Body) SameRecord(a *Body) bool { return b.p == a.p }

// Poly returns the polyhedron of a Polyhedral body in the body frame (origin =
// centre of mass), nil otherwise.
func (b *Body) Poly() *shape.Polyhedron { return b.rec().poly }

// SQ returns the superquadric of a Superquadric body in the body frame (for a
// Sphere: A = B = C = R, N1 = N2 = 2).
func (b *Body) SQ() sq.Shape { return b.rec().sq }

// RVol returns the radius of the volume-equivalent sphere (Sphere, Superquadric).
func (b *Body) RVol() float64 { return b.rec().rVol }

// Density returns the density in kg/m³ (0 for fixed bodies).
func (b *Body) Density() float64 { return b.rec().density }

// Mass returns the mass in kg.
func (b *Body) Mass() float64 { return b.rec().mass }

// InvMass returns 1/m (0 for a Fixed body).
func (b *Body) InvMass() float64 { return b.rec().invMass }

// IBody returns the inertia about the centre of mass, body frame (J^r of S0 eq. 15).
func (b *Body) IBody() geom.Mat3 { return b.rec().iBody }

// IBodyInv returns the inverse of IBody (zero for a Fixed body).
func (b *Body) IBodyInv() geom.Mat3 { return b.rec().iBodyInv }

// IBodyInvRef returns a pointer to IBody's inverse, shared by the bodies of
// the species (read only: writing through it changes every such body), for
// readers of every body in a step that would otherwise copy the matrix.
func (b *Body) IBodyInvRef() *geom.Mat3 { return &b.rec().iBodyInv }

// InvInertiaBound returns Gershgorin(IBodyInvRef()): an upper bound of the
// eigenvalues of J⁻¹ (every orientation's), computed once per record
// instead of once per body and step (the step bound's bodySpeed.jmax).
func (b *Body) InvInertiaBound() float64 { return b.rec().jMax }

// Gershgorin returns max_i Σ_j |m_ij|, an upper bound of the eigenvalues of
// m (NaN when m holds one). The row sums are +0 or more, or NaN, so plain
// comparisons give max(0, r0, r1, r2) once a NaN is passed on.
func Gershgorin(m *geom.Mat3) float64 {
	r0 := math.Abs(m[0][0]) + math.Abs(m[0][1]) + math.Abs(m[0][2])
	r1 := math.Abs(m[1][0]) + math.Abs(m[1][1]) + math.Abs(m[1][2])
	r2 := math.Abs(m[2][0]) + math.Abs(m[2][1]) + math.Abs(m[2][2])
	if r1 != r1 || r2 != r2 {
		return r1 + r2 // NaN
	}
	r := r0 // NaN stays: no comparison with it holds
	if r1 > r {
		r = r1
	}
	if r2 > r {
		r = r2
	}
	return r
}

// New returns a body of the given shape and density with the centre of mass at x.
func New(name string, p *shape.Polyhedron, density float64, x geom.Vec3, q geom.Quat) *Body {
	b := &Body{Name: name, R: p.Radius, X: x, Q: q.Normalize(), Wall: -1}
	b.setMass(props{poly: p, density: density}, density*p.Volume, p.InertiaUnit.Scale(density))
	return b
}

// NewSphere returns a sphere of radius r and the given density centred at x.
func NewSphere(name string, r, density float64, x geom.Vec3) *Body {
	b := &Body{Name: name, Kind: Sphere, R: r, X: x, Q: geom.QIdent(), Wall: -1}
	m := density * 4 / 3 * math.Pi * r * r * r
	i := 0.4 * m * r * r
	b.setMass(props{sq: sq.Sphere(r), rVol: r, density: density}, m, geom.Diag(i, i, i))
	return b
}

// NewSuperquadric returns a superquadric body (S1 eq. 1) of the given density.
// The shape must be valid (sq.Shape.Validate).
func NewSuperquadric(name string, s sq.Shape, density float64, x geom.Vec3, q geom.Quat) *Body {
	b := &Body{Name: name, Kind: Superquadric, X: x, Q: q.Normalize(), Wall: -1}
	b.setShape(props{density: density}, s)
	return b
}

// SetShape replaces the superquadric (or sphere, when s is one) of the body and
// updates mass, inertia (S1 §2.1, closed form) and bounding radius (S1 eq. 12)
// at the body's density. The state (x, q, v, ω) is kept. The body gets a new
// record; bodies that shared the old one keep it.
func (b *Body) SetShape(s sq.Shape) { b.setShape(*b.rec(), s) }

// setShape gives r the shape s, sets the body's bounding radius and r's mass
// properties at r's density, and makes r the body's record.
func (b *Body) setShape(r props, s sq.Shape) {
	r.sq = s
	r.rVol = s.VolumeRadius()
	if b.Kind == Sphere {
		b.R = s.A
	} else {
		b.R = s.BoundingRadius()
	}
	m := r.density * s.Volume()
	in := s.Inertia(m)
	b.setMass(r, m, geom.Diag(in.X, in.Y, in.Z))
}

// NewFixed returns an immovable body (a wall or support) with infinite mass.
func NewFixed(name string, p *shape.Polyhedron, x geom.Vec3, q geom.Quat) *Body {
	b := &Body{Name: name, R: p.Radius, X: x, Q: q.Normalize(), Fixed: true, Wall: -1}
	b.p = share(props{poly: p})
	return b
}

// SetMass sets the mass and body-frame inertia (about the centre of mass).
// The body gets a new record (shape and density kept); bodies that shared the
// old one keep it.
func (b *Body) SetMass(m float64, I geom.Mat3) { b.setMass(*b.rec(), m, I) }

// setMass sets r's mass, inertia and their inverses (zero for a fixed body or
// m ≤ 0) and makes it the body's record, shared with an equal recent one.
func (b *Body) setMass(r props, m float64, I geom.Mat3) {
	r.mass, r.iBody = m, I
	if b.Fixed || m <= 0 {
		r.invMass, r.iBodyInv = 0, geom.Mat3{}
	} else {
		r.invMass = 1 / m
		inv, ok := I.Inv()
		if !ok {
			inv = geom.Mat3{}
		}
		r.iBodyInv = inv
	}
	r.jMax = Gershgorin(&r.iBodyInv)
	b.p = share(r)
}

// MassOrInf returns the mass, or +Inf for a fixed body (used by the equivalent mass of S0 eq. 52).
func (b *Body) MassOrInf() float64 {
	if b.Fixed {
		return math.Inf(1)
	}
	return b.rec().mass
}

// Rot returns the rotation matrix Q of the body (S0 eq. 4).
func (b *Body) Rot() geom.Mat3 { return b.Q.Mat() }

// InertiaWorld returns J = Q J^r Qᵀ. // S0 eq. (15)
func (b *Body) InertiaWorld() geom.Mat3 {
	R := b.Q.Mat()
	return R.Mul(b.rec().iBody).Mul(R.T())
}

// InvInertiaWorld returns J⁻¹ = Q (J^r)⁻¹ Qᵀ (zero for a fixed body).
func (b *Body) InvInertiaWorld() geom.Mat3 {
	R := b.Q.Mat()
	return R.Mul(b.rec().iBodyInv).Mul(R.T())
}

// MulInertia returns J·v = Q J^r Qᵀ v without forming the world tensor.
func (b *Body) MulInertia(v geom.Vec3) geom.Vec3 { return Conjugate(b.Q, &b.rec().iBody, v) }

// MulInvInertia returns J⁻¹·v = Q (J^r)⁻¹ Qᵀ v (zero for a fixed body).
func (b *Body) MulInvInertia(v geom.Vec3) geom.Vec3 { return Conjugate(b.Q, &b.rec().iBodyInv, v) }

// MulInvInertiaAt returns q (J^r)⁻¹ qᵀ v: J⁻¹·v at an orientation q other
// than the body's (S0 eq. 15; zero for a fixed body).
func (b *Body) MulInvInertiaAt(q geom.Quat, v geom.Vec3) geom.Vec3 {
	return Conjugate(q, &b.rec().iBodyInv, v)
}

// Conjugate returns q m qᵀ v, a body-frame tensor m applied in the world
// frame at orientation q (S0 eq. 15: J = Q J^r Qᵀ), without forming the
// world tensor: the operations of q.Rotate(m.MulV(q.InvRotate(v))), in the
// same order (the same bits), written out on scalars so that the three
// products inline into one call (rotateS, mulS).
func Conjugate(q geom.Quat, m *geom.Mat3, v geom.Vec3) geom.Vec3 {
	x, y, z := rotateS(q.W, -q.X, -q.Y, -q.Z, v.X, v.Y, v.Z) // q.InvRotate(v) = q.Conj().Rotate(v)
	x, y, z = mulS(m, x, y, z)
	x, y, z = rotateS(q.W, q.X, q.Y, q.Z, x, y, z)
	return geom.Vec3{X: x, Y: y, Z: z}
}

// rotateS is geom.Quat.Rotate on scalars, the same operations in the same
// order: t = 2·(u × v), v + w·t + u × t with q = (w, u).
func rotateS(w, x, y, z, vx, vy, vz float64) (float64, float64, float64) {
	tx, ty, tz := 2*(y*vz-z*vy), 2*(z*vx-x*vz), 2*(x*vy-y*vx)
	return vx + w*tx + (y*tz - z*ty), vy + w*ty + (z*tx - x*tz), vz + w*tz + (x*ty - y*tx)
}

// mulS is geom.Mat3.MulV on scalars, the same operations in the same order.
func mulS(m *geom.Mat3, x, y, z float64) (float64, float64, float64) {
	return m[0][0]*x + m[0][1]*y + m[0][2]*z, m[1][0]*x + m[1][1]*y + m[1][2]*z, m[2][0]*x + m[2][1]*y + m[2][2]*z
}

// ToWorld maps a body-frame point to the world frame.
func (b *Body) ToWorld(p geom.Vec3) geom.Vec3 { return b.X.Add(b.Q.Rotate(p)) }

// ToBody maps a world point to the body frame.
func (b *Body) ToBody(p geom.Vec3) geom.Vec3 { return b.Q.InvRotate(p.Sub(b.X)) }

// VelocityAt returns the velocity of the material point at world position p:
// V + ω × (p − X), written out on scalars (the operations of Add, Cross and
// Sub in the same order, the same bits) so that it inlines.
func (b *Body) VelocityAt(p geom.Vec3) geom.Vec3 {
	rx, ry, rz := p.X-b.X.X, p.Y-b.X.Y, p.Z-b.X.Z
	w := &b.W
	return geom.Vec3{X: b.V.X + (w.Y*rz - w.Z*ry), Y: b.V.Y + (w.Z*rx - w.X*rz), Z: b.V.Z + (w.X*ry - w.Y*rx)}
}

// ApplyForceAt adds force f acting at world point p (force and moment about
// X): F += f, T += (p − X) × f, written out on scalars (the same operations
// in the same order) so that it inlines.
func (b *Body) ApplyForceAt(f, p geom.Vec3) {
	rx, ry, rz := p.X-b.X.X, p.Y-b.X.Y, p.Z-b.X.Z
	b.F = geom.Vec3{X: b.F.X + f.X, Y: b.F.Y + f.Y, Z: b.F.Z + f.Z}
	b.T = geom.Vec3{X: b.T.X + (ry*f.Z - rz*f.Y), Y: b.T.Y + (rz*f.X - rx*f.Z), Z: b.T.Z + (rx*f.Y - ry*f.X)}
}

// KineticEnergy returns ½ m v² + ½ ω·Jω.
func (b *Body) KineticEnergy() float64 {
	if b.Fixed {
		return 0
	}
	// wb = Qᵀω and J^r·wb written out (rotateS, mulS: the same bits).
	x, y, z := rotateS(b.Q.W, -b.Q.X, -b.Q.Y, -b.Q.Z, b.W.X, b.W.Y, b.W.Z)
	jx, jy, jz := mulS(&b.rec().iBody, x, y, z)
	return 0.5*b.rec().mass*b.V.Norm2() + 0.5*(x*jx+y*jy+z*jz)
}

// Radius returns the bounding-sphere radius about the centre of mass.
func (b *Body) Radius() float64 { return b.R }

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
