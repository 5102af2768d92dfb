package integrate

import (
	"math"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Review (session 14, r3): the sphere path's rotational skip against live
// edits. Each case runs lazy (skip possible) and eager (no skip) and
// compares the statistics step by step and every body's state at the end
// to the bit, as TestSphereRotationalSkip does.
func TestReviewRotSkipEdits(t *testing.T) {
	frictionless := frictionlessReview
	const r = 0.001
	addPlate := func(w *world.World, name string, c geom.Vec3, sx, sy float64) int {
		return addSquarePlate(t, w, name, c, sx, sy)
	}
	floorDrop := func(n int, seed int64) func(w *world.World) {
		return func(w *world.World) {
			addPlate(w, "floor", geom.V(0, 0, 0), 0.1, 0.1)
			dropSpheres(w, n, r, geom.V(-0.005, -0.005, 0.0012), geom.V(0.005, 0.005, 0.008), 0.05, seed)
		}
	}
	firstSphere := func(w *world.World) *int {
		for i, b := range w.Bodies() {
			if b.Wall < 0 {
				return &i
			}
		}
		return nil
	}
	cases := []struct {
		name    string
		steps   int
		workers int
		build   func(w *world.World)
		edit    func(w *world.World, step int)
	}{
		{"omega-set-synced", 600, 1, floorDrop(20, 3), func(w *world.World, step int) {
			if step == 300 {
				w.SyncBodies()
				w.Bodies()[*firstSphere(w)].W = geom.V(30, -5, 2)
			}
		}},
		{"friction-mid-run-nosync", 3000, 1, floorDrop(20, 5), func(w *world.World, step int) {
			if step == 1500 {
				if err := w.SetParams(0, 0, world.ContactParams{Smooth: frictionLaw}); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"wall-toggle-nosync", 3000, 1, floorDrop(20, 6), func(w *world.World, step int) {
			switch step {
			case 1000:
				if err := w.SetWallEnabled("floor", false); err != nil {
					t.Fatal(err)
				}
			case 1010:
				if err := w.SetWallEnabled("floor", true); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"moving-spinning-wall-synced", 2000, 1, floorDrop(20, 7), func(w *world.World, step int) {
			if step == 800 {
				w.SyncBodies()
				b := w.Bodies()[w.Walls[0].Body]
				b.V = geom.V(0.001, 0, 0.002)
				b.W = geom.V(0, 0, 0.5)
			}
		}},
		{"periodic", 2000, 1, func(w *world.World) {
			w.Periodic = world.Periodic{X: true, Y: true, Lo: geom.V(-0.006, -0.006, -1), Hi: geom.V(0.006, 0.006, 1)}
			floorDrop(30, 8)(w)
		}, nil},
		{"two-workers-passes", 150, 2, func(w *world.World) {
			addPlate(w, "floor", geom.V(0, 0, 0), 0.2, 0.2)
			dropSpheres(w, 2500, r, geom.V(-0.03, -0.03, 0.0011), geom.V(0.03, 0.03, 0.03), 0.05, 9)
		}, func(w *world.World, step int) {
			if step == 100 {
				w.SyncBodies()
				w.Bodies()[*firstSphere(w)+7].W = geom.V(0, 3, 0)
			}
		}},
		{"nan-omega-synced", 200, 1, floorDrop(10, 10), func(w *world.World, step int) {
			if step == 100 {
				w.SyncBodies()
				w.Bodies()[*firstSphere(w)+2].W.Y = math.NaN()
			}
		}},
		{"integrator-switch", 400, 1, floorDrop(10, 11), func(w *world.World, step int) {
			switch step {
			case 100:
				w.SyncBodies()
				w.Integrator = NewNewmark()
				if err := Start(w); err != nil {
					t.Fatal(err)
				}
			case 150:
				w.SyncBodies()
				w.Integrator = &Explicit{}
				if err := Start(w); err != nil {
					t.Fatal(err)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func(lazy bool) string {
				res := rotSkipRun(t, frictionless, c.workers, c.build, c.edit, c.steps, lazy, true)
				t.Logf("lazy=%v: skips %d over %d steps; %d turning at end; %s", lazy, res.skips, res.steps, res.turning, errTail(res.out))
				return res.out
			}
			eager := run(false)
			lazy := run(true)
			if eager != lazy {
				t.Error("lazy (skip) and eager runs differ")
			}
		})
	}
}

// errTail is the run's error, if it ended with one.
func errTail(out string) string {
	if j := strings.Index(out, "ERR"); j >= 0 {
		return out[j:min(len(out), j+160)]
	}
	return "no error"
}

var frictionlessReview = law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}
