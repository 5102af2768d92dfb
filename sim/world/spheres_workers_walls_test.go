package world_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// Review r2 (session 13): Drift/Accept in 8 ranges and the wall slots'
// rebuild give the same bits on 1, 2, 3, 5 and 9 workers (9: more workers
// than ranges, some claim none) on ≥ passMin spheres: sphere-piling
// (finite planes + box; frictional, and frictionless for the species
// maxima vmax2) with a funnel wall switched off and on live and the floor
// given a velocity (a moving wall: not still), and sq-settling made of
// spheres (periodic in x and y).
func TestSphereWorkersWallsPeriodic(t *testing.T) {
	cases := []struct {
		scene string
		sets  []string
		live  bool
	}{
		{"sphere-piling", []string{"generators.0.count=3000"}, true},
		{"sphere-piling", []string{"generators.0.count=2500", "contact.default.mu=0", "generators.0.region.min=[-0.038, -0.038, 0.02]", "generators.0.region.max=[0.038, 0.038, 0.075]"}, true},
		{"sphere-piling", []string{"generators.0.count=2500", "generators.0.region.min=[-0.038, -0.038, 0.02]", "generators.0.region.max=[0.038, 0.038, 0.075]"}, true},
		{"periodic", nil, false},
		{"periodic-fast", nil, false},
	}
	steps := 240
	if testing.Short() {
		steps = 60
	}
	for _, c := range cases {
		run := func(workers int) string {
			var sp *scene.Spec
			var err error
			if c.scene == "periodic" {
				sp, err = scene.Parse([]byte(periodicBedYAML), "r2-periodic.yaml")
			} else if c.scene == "periodic-fast" {
				sp, err = scene.Parse([]byte(strings.Replace(periodicBedYAML, "kt: 5, gamma_t: 10, mu: 0.3", "kt: 0, gamma_t: 0, mu: 0", 1)), "r2-periodic-fast.yaml")
			} else {
				sp, err = scene.LoadBuiltin(c.scene, c.sets...)
			}
			if err != nil {
				t.Fatal(err)
			}
			w, err := scene.Build(sp)
			if err != nil {
				t.Fatal(err)
			}
			if c.scene == "periodic-fast" {
				// Frictionless spheres (no moment: the species maxima
				// vmax2 of finish) at speeds up to 4 m/s, each its own:
				// the travel bound ApproachDt(0.05 R, v) sets Δt, from
				// whichever worker's range holds the fastest.
				for i, b := range w.Bodies() {
					if b.Wall < 0 {
						f := math.Mod(float64(i)*0.6180339887, 1)
						b.V = geom.V(f-0.5, 0.5-f, -0.2).Scale(4 * f)
					}
				}
			}
			if err := integrate.Start(w); err != nil {
				t.Fatal(err)
			}
			w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
			out := ""
			for step := range steps {
				if c.live {
					switch step {
					case steps / 3:
						if err := w.SetWallEnabled("funnel_left", false); err != nil {
							t.Fatal(err)
						}
						for _, b := range w.Bodies() {
							if b.Wall >= 0 && b.Name != "" && b.X.Z < 1e-9 {
								b.V = geom.V(0.01, 0, 0)
							}
						}
					case 2 * steps / 3:
						if err := w.SetWallEnabled("funnel_left", true); err != nil {
							t.Fatal(err)
						}
					}
				}
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				st := &w.Stats
				out += fmt.Sprintf("%x %x %x %d %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
			}
			w.SyncBodies()
			for _, b := range w.Bodies() {
				out += fmt.Sprintf("%x %x %x|", b.X, b.V, b.W)
			}
			if w.Spheres() == nil {
				t.Fatalf("%s: not on the sphere path", c.scene)
			}
			if workers > 1 && w.Stats.Profile.ForkJoins == 0 {
				t.Fatalf("%s: %d workers, no fork-join", c.scene, workers)
			}
			t.Logf("%s %d workers: %d spheres, %d fork-joins, %d contacts at the end", c.scene, workers, len(w.Spheres().Bodies()), w.Stats.Profile.ForkJoins, w.Stats.Contacts)
			return out
		}
		ref := run(1)
		for _, nw := range []int{2, 3, 5, 9} {
			if got := run(nw); got != ref {
				t.Errorf("%s %v: %d workers differ from one", c.scene, c.sets, nw)
			}
		}
	}
}

// periodicBedYAML: 3000 frictional Hooke spheres packed in a box periodic in x
// and y between a floor and a lid (plane walls).
const periodicBedYAML = `
name: r2-periodic
time: 1.0
integrator: {name: explicit, dt: 1.0e-5, dt_min: 1.0e-9, dt_max: 1.0e-4, safety: 0.2}
contact:
  default: {model: hooke, kn: 10.02, gamma_n: 20, kt: 5, gamma_t: 10, mu: 0.3}
shapes:
  ball: {type: sphere, radius: 0.001}
generators:
  - {name: s, shape: ball, count: 3000, density: 2500, region: {min: [0, 0, 0.001], max: [0.03, 0.03, 0.03]}, seed: 1}
periodic: {x: true, y: true, min: [0, 0, 0], max: [0.03, 0.03, 0.05]}
walls:
  - {name: floor, type: plane, point: [0.015, 0.015, 0], normal: [0, 0, 1], size: [0.03, 0.03]}
  - {name: lid, type: plane, point: [0.015, 0.015, 0.05], normal: [0, 0, -1], size: [0.03, 0.03]}
`
