package world

import (
	"math"

	"grainlab/sim/law"
)

// sphereSkinFactor is the sphere path's Verlet skin in units of the
// smallest sphere radius (docs/performance.md, "Session 16: the sphere
// list's skin"): a skin of 0.6 r_min cut the 10⁵-sphere falling box's list
// rebuilds from 119 to 46 in 534 steps with the same body bits, and the
// settled 218-sphere box did not get slower.
const sphereSkinFactor = 0.6

// SphereSkinMin is the smallest number of spheres that takes the sphere
// path's wider skin (sphereSkin; tests lower it). Below it the rebuilds
// cost little (the settled 218-sphere box never rebuilds, and its wider
// list cost 4.9% more instructions), and a few spheres far apart would
// meet their class's spring bound earlier: a Hookean class bounds Δt from
// its first listed pair (Spheres.StableDt), so the skin moves the step at
// which two approaching spheres cut Δt.
var SphereSkinMin = 4096

// sphereSkin is chooseSkin for a world on the sphere path: the user's
// (Settings.Skin) if set, else max(4 ḡ, sphereSkinFactor·r_min) when every
// law in use is Hookean (law.HookeLAMMPS) and there are at least
// SphereSkinMin spheres. Otherwise chooseSkin's: the step bound of a
// non-Hookean class reads the speed of every listed pair
// (Spheres.StableDt), so a wider list would change Δt; and worlds of
// spheres that the generic stages step (loads, bonds, NoSpherePath) keep
// it too.
func (w *World) sphereSkin(gmax float64) float64 {
	if w.Settings.Skin > 0 || len(w.Loads) > 0 || len(w.Bonds) > 0 || w.Settings.NoSpherePath ||
		w.movableCount() < SphereSkinMin || !w.allHookean() {
		return w.chooseSkin(gmax)
	}
	return max(4*gmax, sphereSkinFactor*w.minRadius())
}

// movableCount returns the number of bodies that are not walls.
func (w *World) movableCount() int {
	n := 0
	for i := range w.NumBodies() {
		if w.BodyRec(i).Wall < 0 {
			n++
		}
	}
	return n
}

// allHookean reports whether the smooth law of every pair of materials in
// use is LAMMPS' gran/hooke (law.HookeLAMMPS).
func (w *World) allHookean() bool {
	used := make([]bool, len(w.Materials))
	for i := range w.NumBodies() {
		used[w.BodyRec(i).Material] = true
	}
	for ma := range used {
		for mb := range used {
			if !used[ma] || !used[mb] {
				continue
			}
			if p := w.Params(ma, mb); p.HasSmooth && p.Smooth.Model != law.HookeLAMMPS {
				return false
			}
		}
	}
	return true
}

// VerletBuilds returns how many times the world's Verlet list (the
// bounding spheres' candidate pairs, the sphere path's pair list) has
// been rebuilt since the world began (grainlab bench, tests).
func (w *World) VerletBuilds() int { return w.verlet.Builds() }

// MinBodyRadius returns the smallest bounding radius of a body that is
// not a wall, 0 without one (the unit of the skin in grainlab bench).
func (w *World) MinBodyRadius() float64 {
	if r := w.smallestRadius(); !math.IsInf(r, 1) {
		return r
	}
	return 0
}

// minRadius returns the smallest bounding radius of a body that is not a
// wall (1 without one).
func (w *World) minRadius() float64 {
	if r := w.smallestRadius(); !math.IsInf(r, 1) {
		return r
	}
	return 1
}

// smallestRadius is the smallest bounding radius of a body that is not a
// wall, +Inf without one.
func (w *World) smallestRadius() float64 {
	rmin := math.Inf(1)
	for i := range w.NumBodies() {
		if b := w.BodyRec(i); b.Wall < 0 && b.Radius() < rmin {
			rmin = b.Radius()
		}
	}
	return rmin
}

// MaxSkin is the largest Verlet skin a user may ask for (Settings.Skin,
// scene key contact.skin): the diameter of the smallest body that is not
// a wall. A larger skin lists the neighbours' neighbours, never worth
// their tests.
func (w *World) MaxSkin() float64 { return 2 * w.minRadius() }

// MinSkin is the smallest Verlet skin a user may ask for: a hundredth of
// the smallest body's radius (not a wall). A polyhedral body with no
// candidate pair may travel at most half the skin a step (sim/integrate's
// travel bound), so a skin far below the automatic one (0.2 r_min) would
// cut Δt with it: at 1e-9 m a 0.05 s cube drop took 24.5·10⁶ steps
// instead of 57 (session 16 review r1).
func (w *World) MinSkin() float64 { return 0.01 * w.minRadius() }
