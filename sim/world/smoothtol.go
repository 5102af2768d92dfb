package world

import "grainlab/sim/sq"

// SetSmoothTol sets the residual tolerance of the midway-point solve of two
// superquadrics (S1 §2.3, sq.Options.Tol, in units of the particle size) for
// the evaluations that follow; 0 restores the world's default, sqOptions'
// 1e-8. Implicit integrators tighten it for their Newton solves: each solve
// starts from the point of the last evaluation and stops within the
// tolerance, so the contact's point, and with it the moment about each
// centre, depends on which states were evaluated before, not only on the
// state. Between the near-parallel faces of blocky shapes (n = 10) the point
// is free along the faces by far more than the tolerance: on the settled
// n = 10 bed of docs/validation.md the same state evaluated before and
// after an excursion of every body by ±1e-10 m gives forces and moments
// that differ by 6.5e-6 of a body's weight RMS at 1e-8 — above what
// Newmark's and the variational integrator's Newton tolerances ask of the
// residual — and by 1.9e-10 at 1e-12 (TestSqBedImplicitHysteresis).
func (w *World) SetSmoothTol(tol float64) { w.smoothTol = tol }

// SmoothTol returns the tolerance SetSmoothTol set (0: the default).
func (w *World) SmoothTol() float64 { return w.smoothTol }

// sqOpts returns the midway-point solver options of the evaluations now:
// sqOptions with SetSmoothTol's tolerance when one is set.
func (w *World) sqOpts() sq.Options {
	o := sqOptions
	if w.smoothTol > 0 {
		o.Tol = w.smoothTol
	}
	return o
}
