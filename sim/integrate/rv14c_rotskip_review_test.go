package integrate

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
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
		vs := []geom.Vec3{c.Add(geom.V(-sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, sy/2, 0)), c.Add(geom.V(-sx/2, sy/2, 0))}
		p, err := shape.NewSurface(name, vs, [][3]int32{{0, 1, 2}, {0, 2, 3}})
		if err != nil {
			t.Fatal(err)
		}
		i, err := w.AddWall(name, p, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	floorDrop := func(n int, seed int64) func(w *world.World) {
		return func(w *world.World) {
			addPlate(w, "floor", geom.V(0, 0, 0), 0.1, 0.1)
			dropSpheres(w, n, r, geom.V(-0.005, -0.005, 0.0012), geom.V(0.005, 0.005, 0.008), 0.05, seed)
		}
	}
	firstSphere := func(w *world.World) *int {
		for i, b := range w.Bodies {
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
				w.Bodies[*firstSphere(w)].W = geom.V(30, -5, 2)
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
				b := w.Bodies[w.Walls[0].Body]
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
				w.Bodies[*firstSphere(w)+7].W = geom.V(0, 3, 0)
			}
		}},
		{"nan-omega-synced", 200, 1, floorDrop(10, 10), func(w *world.World, step int) {
			if step == 100 {
				w.SyncBodies()
				w.Bodies[*firstSphere(w)+2].W.Y = math.NaN()
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
			var skips []int64
			run := func(lazy bool) string {
				w := smoothWorld(t, frictionless)
				w.Settings.Workers = c.workers
				c.build(w)
				if err := w.Check(); err != nil {
					t.Fatal(err)
				}
				w.Integrator = &Explicit{}
				if err := Start(w); err != nil {
					t.Fatal(err)
				}
				if w.Spheres() == nil {
					t.Fatal("not on the sphere path")
				}
				w.SetLazyBodies(lazy)
				out := ""
				skips = skips[:0]
				for i := range c.steps {
					if c.edit != nil {
						c.edit(w, i)
					}
					_, err := w.Integrator.Step(w, 1)
					if err == nil {
						err = w.CheckFinite()
					}
					if err != nil {
						out += "ERR " + err.Error()
						break
					}
					skips = append(skips, w.SphereRotSkips())
					out += fmt.Sprintf("%x %x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact,
						w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
				}
				w.SetLazyBodies(false)
				turning := 0
				for _, b := range w.Bodies {
					out += fmt.Sprintf("%x %x %x %x %x %x|", b.X, b.Q, b.V, b.W, b.F, b.T)
					if b.Wall < 0 && b.W.Norm2() != 0 {
						turning++
					}
				}
				t.Logf("lazy=%v: skips %d over %d steps; %d turning at end; tail %q", lazy, w.SphereRotSkips(), w.Steps, turning, tail(out))
				return out
			}
			eager := run(false)
			lazy := run(true)
			if eager != lazy {
				t.Error("lazy (skip) and eager runs differ")
			}
		})
	}
}

func tail(s string) string {
	if i := len(s) - 0; i > 120 {
		if j := indexERR(s); j >= 0 {
			return s[j:min(len(s), j+160)]
		}
		return ""
	}
	return s
}

func indexERR(s string) int {
	for i := 0; i+3 <= len(s); i++ {
		if s[i:i+3] == "ERR" {
			return i
		}
	}
	return -1
}

var frictionlessReview = law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}
