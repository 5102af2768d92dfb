package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// Review rv4: the split evaluation by parts with the walls' rims and
// spheres escaping: 600 frictionless Hookean spheres rain on a finite,
// tilted plate smaller than their cloud, so that many pass its rim (rim
// slots, generic entries made by the parts at once) and fall off for good.
// On 2, 3 and 5 workers (every evaluation split) the energies, contact
// counts, Δt and wall forces of every step and the final bodies are those
// of one worker, bit for bit.
func TestReviewSpherePartsRimsEscape(t *testing.T) {
	const yaml = `
name: rv4-rim
time: 1.0
integrator: {name: explicit, dt: 1.0e-5, dt_min: 1.0e-9, dt_max: 1.0e-4, safety: 0.2}
contact:
  default: {model: hooke, kn: 10.02, gamma_n: 20, kt: 0, gamma_t: 10, mu: 0}
shapes:
  ball: {type: sphere, radius: 0.001}
generators:
  - {name: s, shape: ball, count: 600, density: 2500, region: {min: [-0.02, -0.02, 0.003], max: [0.02, 0.02, 0.03]}, seed: 7}
walls:
  - {name: plate, type: plane, point: [0.002, 0, 0], normal: [0.2, 0.1, 1], size: [0.024, 0.02]}
`
	run := func(workers int) (string, int, int) {
		sp, err := scene.Parse([]byte(yaml), "rv4.yaml")
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(sp)
		if err != nil {
			t.Fatal(err)
		}
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		out, rims, parts := "", 0, 0
		for range 2500 {
			if world.SpherePartsReady(w) {
				parts++
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			st := &w.Stats
			out += fmt.Sprintf("%x %x %x %d %x", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
			for _, wl := range w.Walls {
				out += fmt.Sprintf(" %x", wl.Force)
			}
			out += "|"
			rims += world.ReviewRimTouches(w)
		}
		w.SyncBodies()
		below := 0
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x|", b.X, b.V)
			if b.Wall < 0 && b.X.Z < -0.01 {
				below++
			}
		}
		t.Logf("%d workers: t = %g s, %d rim touches over the run, %d evaluations with parts ready, %d spheres fell off, %d contacts at the end",
			workers, w.Time, rims, parts, below, w.Stats.Contacts)
		return out, rims, below
	}
	ref, rims, below := run(1)
	if rims == 0 || below == 0 {
		t.Fatalf("no rim contact (%d) or no sphere fell off (%d): the scene does not test what it says", rims, below)
	}
	for _, nw := range []int{2, 3, 5} {
		if got, _, _ := run(nw); got != ref {
			t.Errorf("%d workers differ from one", nw)
		}
	}
}
