package world_test

import (
	"os"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/state"
)

// TestSQBedWorkersRace (review r4): the settled n = 10 bed (250 bodies,
// ~650 smooth contacts, BED from the base binary) stepped with 3 workers:
// for go test -race over the narrow phase's per-batch sq.Scratch.
func TestSQBedWorkersRace(t *testing.T) {
	bed := os.Getenv("RV_BED")
	if bed == "" {
		t.Skip("RV_BED unset")
	}
	s, err := scene.LoadBuiltin("sq-settling", "generators[0].count=250", "periodic.max=[0.05,0.05,0.25]",
		"generators[0].region.max=[0.05,0.05,0.245]", "params.n=10")
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := state.Read(bed)
	if err != nil {
		t.Fatal(err)
	}
	if err := state.Apply(w, f, bed); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 3
	w.Integrator = &integrate.Explicit{}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 30; n++ {
		if err := w.ApplyEvents(); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("stepped to t=%g", w.Time)
}
