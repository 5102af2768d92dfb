package sphere

import "grainlab/sim/geom"

// Lin is one sphere's translational state and force accumulator on the
// sphere path of the explicit integrator: what every step's kinematics,
// drift, list test and pair kernels read and write (72 bytes).
type Lin struct {
	X, V, F geom.Vec3 // centre, velocity, force
}

// Rot is one sphere's rotational state and moment accumulator (80 bytes),
// kept apart from Lin: a sphere's moments come only from friction and
// rolling resistance (Smooth), so the frictionless kernels never read it
// and the translational passes stream 72 bytes a sphere instead of 152.
type Rot struct {
	W, T geom.Vec3 // angular velocity, moment about the centre (world frame)
	Q    geom.Quat // orientation (for output: a sphere's law does not depend on it)
}

// States holds the states of n spheres split by field, sphere k at L[k]
// and R[k] (two flat arrays: LAMMPS keeps its atoms' fields the same way).
//
// R may be nil while the owner proves every ω and T +0 and keeps q
// elsewhere (world.Spheres' rotNone: no rotational array while nothing
// turns); Len counts L.
type States struct {
	L []Lin
	R []Rot
}

// Slice returns the spheres lo…hi−1 of s (sharing its storage); with R
// absent (nil: an owner that keeps no rotational states while nothing
// turns, world.Spheres' rotNone), the slice's R is nil too.
func (s States) Slice(lo, hi int) States {
	if s.R == nil {
		return States{L: s.L[lo:hi]}
	}
	return States{L: s.L[lo:hi], R: s.R[lo:hi]}
}

// Len returns the number of spheres of s.
func (s States) Len() int { return len(s.L) }

// Resize makes s hold n spheres, reusing the storage when it can, else
// allocating exactly n (no growth slack: the number of spheres is known;
// large arrays on huge pages: makeHuge).
func (s *States) Resize(n int) {
	if cap(s.L) < n {
		s.L = makeHuge[Lin](n)
	}
	if cap(s.R) < n {
		s.R = makeHuge[Rot](n)
	}
	s.L, s.R = s.L[:n], s.R[:n]
}

// ResizeLin is Resize without the rotational states: R is dropped (nil),
// for an owner that keeps none while nothing turns.
func (s *States) ResizeLin(n int) {
	if cap(s.L) < n {
		s.L = makeHuge[Lin](n)
	}
	s.L, s.R = s.L[:n], nil
}

// Flat holds the states of n spheres split by field (States) and their
// centres apart in X.
type Flat struct {
	States
	// X[k] is a copy of L[k].X that the kernels test the cut-off on: most
	// listed pairs do not touch, and their test then reads 24 bytes of
	// each sphere from a compact array instead of a 72-byte state. The
	// owner keeps X equal to the centres of L before every evaluation
	// (SyncX).
	X []geom.Vec3
}

// Resize makes f hold n spheres, reusing the storage when it can, else
// allocating exactly n (no growth slack: the number of spheres is known).
func (f *Flat) Resize(n int) {
	f.States.Resize(n)
	if cap(f.X) < n {
		f.X = makeHuge[geom.Vec3](n)
	}
	f.X = f.X[:n]
}

// ResizeLin is Resize without the rotational states (States.ResizeLin).
func (f *Flat) ResizeLin(n int) {
	f.States.ResizeLin(n)
	if cap(f.X) < n {
		f.X = makeHuge[geom.Vec3](n)
	}
	f.X = f.X[:n]
}

// SyncX copies the centre of every state L[k] to X[k].
func (f *Flat) SyncX() {
	X := f.X[:len(f.L)]
	for k := range f.L {
		X[k] = f.L[k].X
	}
}

// resize returns s with length n, reallocated only when its capacity is short.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
