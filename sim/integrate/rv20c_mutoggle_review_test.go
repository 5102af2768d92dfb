package integrate

import (
	"testing"

	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Review r3 (session 20): μ edited on and off live, several times, on
// frictionless spheres falling onto a plate with a hole (rim moments) —
// the arrays go shared → two → shared → two: lazy (sharing) against eager
// bodies, every step's statistics and the final bodies to the bit.
func TestRv20cRotShareMuToggled(t *testing.T) {
	lw := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50, Kt: 60, GammaT: 25}
	build := holedPlateFall(t)
	mu := map[int]float64{30: 0.5, 60: 0, 90: 0.5, 100: 0, 2000: 0.5, 2500: 0}
	var arrays []int
	edit := func(lazy bool) func(w *world.World, step int) {
		return func(w *world.World, step int) {
			if v, ok := mu[step]; ok {
				if lazy {
					arrays = append(arrays, w.SphereRotArrays())
				}
				if err := w.SetParam("contact.default.mu", v); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	eager := rotSkipRun(t, lw, 0, build, edit(false), 3000, false, false)
	lazy := rotSkipRun(t, lw, 0, build, edit(true), 3000, true, false)
	t.Logf("lazy: arrays before each edit %v; %d skips of %d steps", arrays, lazy.skips, lazy.steps)
	if eager.out != lazy.out {
		t.Error("lazy (shared rotational array) and eager runs differ with μ toggled live")
	}
	if len(arrays) < 3 || arrays[0] > 1 || arrays[1] != 2 || arrays[2] > 1 {
		t.Errorf("arrays before the edits %v: want ≤ 1 (none or shared), 2 (μ on), ≤ 1 (none or shared again) first", arrays)
	}
}
