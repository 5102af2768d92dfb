package sphere

import "grainlab/sim/geom"

// State is one sphere's kinematic state and force and moment accumulators
// on the sphere path of the explicit integrator. What the pair kernels read
// and write (x, v, F) comes first, within two cache lines.
type State struct {
	X, V, F geom.Vec3 // centre, velocity, force
	W, T    geom.Vec3 // angular velocity, moment about the centre (world frame)
	Q       geom.Quat // orientation (for output: a sphere's law does not depend on it)
}

// Flat holds the states of n spheres in one flat array, sphere k at S[k]
// (LAMMPS keeps its atoms the same way).
type Flat struct {
	S []State
}

// Resize makes f hold n spheres, reusing the storage when it can.
func (f *Flat) Resize(n int) { f.S = resize(f.S, n) }

// resize returns s with length n, reallocated only when its capacity is short.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
