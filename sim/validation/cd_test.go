package validation

import (
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// cdWorld loads a built-in scene and switches it to the cd integrator
// (defaults of integrate.NewCD, Δt = dt), friction from the scene's materials.
func cdWorld(t testing.TB, name string, dt float64, sets ...string) (*world.World, *integrate.CD) {
	t.Helper()
	w := load(t, name, sets...)
	x := integrate.NewCD()
	x.Dt = dt
	w.Integrator = x
	return w, x
}

// S0 example 3a under cd (Coulomb cones, sim/cd/friction.go): the friction
// equals the applied force (±2% of μ_s·W) while F < 0.95 μ_s·W, the block
// does not move before F reaches μ_s·W, and it slides at μ_d·W (±2%).
func TestCDS0Ex3aFrictionLimits(t *testing.T) {
	w, _ := cdWorld(t, "sliding-block-a", 1e-3)
	checkS0Ex3a(t, w)
}

// S0 example 4 under cd: W/3 per tip (±2%); the friction moment tracks the
// applied moment below μWr (±3% of μWr) and stays at μWr beyond (±3%).
func TestCDS0Ex4Twist(t *testing.T) {
	w, _ := cdWorld(t, "tetrapod-twist", 1e-3)
	checkS0Ex4(t, w)
}

// S0 example 3c under cd: the trailing edge unloads at F ∈ [0.48, 0.55]·W
// and the block topples 10° with the leading edge slid < 1 mm.
func TestCDS0Ex3cTopple(t *testing.T) {
	w, _ := cdWorld(t, "sliding-block-c", 1e-3)
	checkS0Ex3c(t, w)
}
