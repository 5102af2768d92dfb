package integrate

import "grainlab/sim/world"

// implicitSmoothTol is the superquadric midway-point tolerance (units of the
// particle size, World.SetSmoothTol) of the Newton integrators' evaluations:
// at the world's default 1e-8 the residual of a settled n = 10 bed is
// reproducible only to 4e-7 of Newmark's reference acceleration (40× its
// Tol), at 1e-12 to 1e-11 (World.SetSmoothTol, docs/validation.md).
const implicitSmoothTol = 1e-12

// tightSmooth sets implicitSmoothTol for the evaluations of one step and
// returns the function that puts the previous setting back.
func tightSmooth(w *world.World) func() {
	tol0 := w.SmoothTol()
	w.SetSmoothTol(implicitSmoothTol)
	return func() { w.SetSmoothTol(tol0) }
}
