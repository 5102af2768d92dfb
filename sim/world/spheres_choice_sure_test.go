package world

import "testing"

// SplitAuto splits every step of a world of splitSureSpheres spheres or
// more, from the first, without the measured choice's probes (which start
// on one worker); a smaller world still starts with the probes of one
// worker, and SplitNever still keeps a large world on one. Fails without
// the size rule in beginRound (the first step of the large world on one
// worker).
func TestSplitAutoLargeWorldsSplit(t *testing.T) {
	for _, tc := range []struct {
		n     int
		mode  SplitMode
		split bool
	}{
		{splitSureSpheres, SplitAuto, true},
		{4 * splitSureSpheres, SplitAuto, true},
		{splitSureSpheres - 1, SplitAuto, false},
		{splitSureSpheres, SplitNever, false},
		{splitSureSpheres, SplitAlways, true},
	} {
		for _, workers := range []int{1, 2} {
			s := splitSpheres(tc.n, workers)
			s.round.split = false
			s.w.Settings.SphereSplit = tc.mode
			for step := 0; step < 3; step++ {
				got := s.beginRound()
				if want := tc.split && workers > 1; got != want {
					t.Errorf("%d spheres, mode %d, %d workers, step %d: split %v, want %v", tc.n, tc.mode, workers, step, got, want)
				}
				s.round.open = false // the step's Accept (endRound without the clock)
			}
		}
	}
}
