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
// (LAMMPS keeps its atoms the same way), and their centres apart in X.
type Flat struct {
	S []State
	// X[k] is a copy of S[k].X that the kernels test the cut-off on: most
	// listed pairs do not touch, and their test then reads 24 bytes of
	// each sphere from a compact array instead of a 152-byte state (at 10⁶
	// spheres the states are 152 MB, the centres 24 MB). The owner keeps X
	// equal to the centres of S before every evaluation (SyncX).
	X []geom.Vec3
}

// Resize makes f hold n spheres, reusing the storage when it can, else
// allocating exactly n (no growth slack: the number of spheres is known).
func (f *Flat) Resize(n int) {
	if cap(f.S) < n {
		f.S = make([]State, n)
	}
	if cap(f.X) < n {
		f.X = make([]geom.Vec3, n)
	}
	f.S, f.X = f.S[:n], f.X[:n]
}

// SyncX copies the centre of every state S[k] to X[k].
func (f *Flat) SyncX() {
	X := f.X[:len(f.S)]
	for k := range f.S {
		X[k] = f.S[k].X
	}
}

// resize returns s with length n, reallocated only when its capacity is short.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
