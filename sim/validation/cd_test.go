package validation

import (
	"math"
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

// S0 ex. 2 (pile of blocks) under cd through the first landings (0.1 s):
// faces land on faces, several contacts per pair of blocks, and the stick
// conditions of such a pair can be inconsistent, so Gauss–Seidel settles
// above tol. The sweeps must stop there (no step runs to max_iter = 10000)
// with the Coulomb residual of every step ≤ 1e-6 and the blocks' speed
// bounded by their free fall (|v| ≤ g·t + 1e-6 m/s: no energy from the solve).
func TestCDPileSweepsStop(t *testing.T) {
	w := load(t, "pile-of-blocks", "integrator.name=cd")
	x := w.Integrator.(*integrate.CD)
	var worst float64
	var most, steps int
	advance(t, w, 0.1, func() bool {
		steps++
		most = max(most, x.Last.Sweeps)
		worst = math.Max(worst, x.Last.Residual)
		for _, b := range w.Bodies() {
			if v := b.V.Norm(); !b.Fixed && v > 9.81*w.Time+1e-6 {
				t.Fatalf("t=%.4f: %s at %.4g m/s, faster than free fall", w.Time, b.Name, v)
			}
		}
		return false
	})
	t.Logf("%d steps: at most %d sweeps, worst residual %.3g", steps, most, worst)
	if most >= 10000 {
		t.Errorf("a step ran %d sweeps (max_iter)", most)
	}
	if worst > 1e-6 {
		t.Errorf("worst residual %.3g > 1e-6", worst)
	}
}
