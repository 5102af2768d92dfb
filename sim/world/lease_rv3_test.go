package world_test

import (
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// rv3 review probe: held leases never stale with the box's walls ON (wall
// pairs: a wall's large radius in the levers, the swapped kind), one
// worker, under explicit and newmark (several placements a step), and a
// wall turned off and on again mid-run.
func TestRV3HeldLeasesWalls(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	for _, name := range []string{"explicit", "newmark"} {
		w := startScene(t, "box-of-tetrapods", packed)
		it, err := integrate.New(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Integrator = it
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
		w.Settings.Workers = 1
		total, fast, swapped := 0, 0, 0
		steps := 400
		if name != "explicit" {
			steps = 60
		}
		for step := 0; step < steps; step++ {
			switch step {
			case steps / 3:
				if err := w.SetWallEnabled("left", false); err != nil {
					t.Fatal(err)
				}
			case 2 * steps / 3:
				if err := w.SetWallEnabled("left", true); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			h, f, s, stale := world.HeldLeasesStale(w)
			total, fast, swapped = total+h, fast+f, swapped+s
			if stale > 0 {
				t.Fatalf("%s step %d: %d of %d held leases stale", name, step, stale, h)
			}
		}
		t.Logf("%s: t = %.4g s, %d held lease checks (%d weighted, %d swapped), none stale", name, w.Time, total, fast, swapped)
	}
}

// rv3 review probe: a longer run with the walls on, leases on (1 worker)
// against leases off (2 workers), bit for bit, through a travel restart
// forced half-way (every body's travel worn past the grant limit).
func TestRV3LeasesLongSame(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	a := startScene(t, "box-of-tetrapods", packed)
	b := startScene(t, "box-of-tetrapods", packed)
	world.SetPairLeases(b, false)
	a.Settings.Workers, b.Settings.Workers = 1, 2
	for step := 0; step < 1500; step++ {
		if step == 700 {
			for i := range a.Bodies() {
				world.WearTravel(a, i, 300)
			}
		}
		for _, w := range []*world.World{a, b} {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		for i, ba := range a.Bodies() {
			bb := b.Bodies()[i]
			if ba.X != bb.X || ba.V != bb.V || ba.Q != bb.Q || ba.W != bb.W {
				t.Fatalf("step %d, body %d differs", step, i)
			}
		}
	}
	t.Logf("t = %.4g s, %d pairs left alone on leases", a.Time, world.PairLeasesHeld(a))
}
