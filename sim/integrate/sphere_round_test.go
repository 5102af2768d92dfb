package integrate

import (
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// TestSphereRoundOneChoice: on two workers a step of the sphere path is
// split as a whole or not at all (world's splitRound): Drift's pass, the
// evaluation, a list rebuild and Accept's pass all on both workers, or all
// on the caller. Seen in the fork–joins a step adds to Stats.Profile: 0 for
// a step on the caller, at least 3 (Drift, evaluation, Accept) for a split
// one — never 1 or 2, which a step with its evaluation on the caller and
// its passes split gave (session 17's SplitAuto: the passes split whenever
// two workers could). The SplitAuto probes alternate the two ways in the
// first steps (no clock read by the test: the alternation does not depend
// on the times), so both kinds of step are checked. 2 500 spheres (at
// least passMin, 2048: the passes split) fall to a floor. SplitNever: no
// fork–join; SplitAlways: every step split.
func TestSphereRoundOneChoice(t *testing.T) {
	const L, r = 0.02, 0.0004
	for _, mode := range []world.SplitMode{world.SplitAuto, world.SplitNever, world.SplitAlways} {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50})
		if _, err := w.AddWall("floor", plane(t, "floor", geom.V(L/2, L/2, 0), geom.V(0, 0, 1), 2*L), 0, true); err != nil {
			t.Fatal(err)
		}
		dropSpheres(w, 2500, r, geom.V(0, 0, r), geom.V(L, L, 0.02), 0.05, 7)
		w.Integrator = &Explicit{}
		w.Settings.Workers, w.Settings.SphereSplit = 2, mode
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
		var split, serial int
		for step := range 40 {
			f0 := w.Stats.Profile.ForkJoins
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			switch d := w.Stats.Profile.ForkJoins - f0; {
			case d == 0:
				serial++
			case d >= 3:
				split++
			default:
				t.Fatalf("%v: step %d: %d fork–joins — part of the step split, part on the caller", mode, step, d)
			}
		}
		switch {
		case mode == world.SplitAuto && (split == 0 || serial == 0):
			t.Errorf("SplitAuto: %d split steps, %d on the caller: the probes did not try both ways", split, serial)
		case mode == world.SplitNever && split > 0:
			t.Errorf("SplitNever: %d split steps", split)
		case mode == world.SplitAlways && serial > 0:
			t.Errorf("SplitAlways: %d steps on the caller", serial)
		}
		t.Logf("mode %v: %d split steps, %d on the caller", mode, split, serial)
	}
}
