package validation

import (
	"testing"

	"grainlab/sim/world"
)

// World.Stats.Profile (the stage timers printed by `grainlab bench`) counts
// one detect stage per evaluation — every accepted step plus every rejected
// attempt — and the candidate pairs and list rebuilds of those evaluations,
// and accumulates wall time in the stages; on the first steps of the
// 300-tetrapod collapse with one and two workers.
func TestProfileCountsStages(t *testing.T) {
	for _, workers := range []int{1, 2} {
		w := packed(t, "box-of-tetrapods", "builtin:box-of-tetrapods-300-packed")
		w.Settings.Workers = workers
		p0, rej0 := w.Stats.Profile, w.Stats.Rejected
		const steps = 30
		for i := 0; i < steps; i++ {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		p := w.Stats.Profile.Sub(p0)
		if want := steps + w.Stats.Rejected - rej0; p.Evaluations != want {
			t.Errorf("workers %d: %d evaluations counted, want %d (steps + rejected attempts)", workers, p.Evaluations, want)
		}
		if p.Pairs < p.Evaluations*300 || p.Rebuilds > p.Pairs {
			t.Errorf("workers %d: %d pairs and %d rebuilds over %d evaluations of 300 packed tetrapods", workers, p.Pairs, p.Rebuilds, p.Evaluations)
		}
		if p.Total() <= 0 || p.Total() != p.Stages()+p.Integrate {
			t.Errorf("workers %d: stage times %+v", workers, p)
		}
		var zero world.Profile
		if w.Stats.Profile == zero {
			t.Errorf("workers %d: the profile is empty", workers)
		}
	}
}

// The sphere path fills the same profile: the Verlet list's upkeep as
// Broad, its fused overlap-and-law kernel as Laws, its step bound and the
// kicks and drifts as Integrate; one evaluation per step or rejected
// attempt (sphere-box-soft, 218 spheres, explicit).
func TestProfileSpherePath(t *testing.T) {
	w := load(t, "sphere-box-soft")
	if w.Spheres() == nil {
		t.Fatal("sphere-box-soft does not take the sphere path")
	}
	p0, rej0 := w.Stats.Profile, w.Stats.Rejected
	const steps = 50
	for i := 0; i < steps; i++ {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	p := w.Stats.Profile.Sub(p0)
	if want := steps + w.Stats.Rejected - rej0; p.Evaluations != want {
		t.Errorf("%d evaluations counted, want %d", p.Evaluations, want)
	}
	if p.Pairs < p.Evaluations*218 {
		t.Errorf("%d pairs over %d evaluations of 218 spheres", p.Pairs, p.Evaluations)
	}
	if p.Broad <= 0 || p.Laws <= 0 || p.StepBound <= 0 || p.Integrate <= 0 || p.Total() != p.Stages()+p.Integrate {
		t.Errorf("stage times %+v", p)
	}
}
