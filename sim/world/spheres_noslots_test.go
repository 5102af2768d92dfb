package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// A sphere path without wall slots (periodic in x and y, no walls, no gravity):
// the split Accept skips the slots' fork (review r7) and its chunks' slot
// answers are acceptSlots' for no slot. Two and three workers, every step
// split, give one worker's bits.
func TestSphereSplitNoSlots(t *testing.T) {
	const yaml = `
name: no-slots
time: 1.0
integrator: {name: explicit, dt: 1.0e-5, dt_min: 1.0e-9, dt_max: 1.0e-4, safety: 0.2}
contact:
  default: {model: hooke, kn: 10.02, gamma_n: 20, kt: 0, gamma_t: 0, mu: 0}
shapes:
  ball: {type: sphere, radius: 0.001}
generators:
  - {name: s, shape: ball, count: 3000, density: 2500, region: {min: [0, 0, 0], max: [0.03, 0.03, 0.03]}, seed: 1}
periodic: {x: true, y: true, min: [0, 0, 0], max: [0.03, 0.03, 0.03]}
gravity: [0, 0, 0]
`
	run := func(workers int) (string, int) {
		sp, err := scene.Parse([]byte(yaml), "no-slots.yaml")
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(sp)
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range w.Bodies() {
			f := math.Mod(float64(i)*0.6180339887, 1)
			b.V = geom.V(f-0.5, 0.5-f, 0.3-f).Scale(2 * f)
		}
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		w.SetLazyBodies(true) // the kick's force test: Accept's, by ranges when split
		touched := 0
		for range 150 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			touched = max(touched, w.Stats.Contacts)
		}
		w.SyncBodies()
		out := fmt.Sprint(w.Time, w.Stats.Contacts)
		for _, b := range w.Bodies() {
			out += fmt.Sprint(b.X, b.V)
		}
		return out, touched
	}
	ref, touched := run(1)
	if touched == 0 {
		t.Fatal("no contact in 150 steps: the test compares nothing")
	}
	for _, workers := range []int{2, 3} {
		if got, _ := run(workers); got != ref {
			t.Errorf("%d workers: not one worker's bits", workers)
		}
	}
}
