package integrate

import (
	"fmt"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// Review r2 (session 18): the displacement bound against eager bodies with
// split passes (≥ passMin spheres, 3 workers), live gravity and Dt edits,
// and friction (spheres start turning mid-run).
func TestReviewDispBoundEdits(t *testing.T) {
	cases := []struct {
		name  string
		lw    law.Smooth
		n, wk int
		steps int
	}{
		{"split-3-workers", law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}, 2500, 3, 1500},
		{"friction", law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50, Mu: 0.5}, 300, 2, 3000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func(lazy bool) (string, int64) {
				w := smoothWorld(t, c.lw)
				w.Settings.Workers = c.wk
				addSquarePlate(t, w, "floor", geom.V(0, 0, 0), 0.1, 0.1)
				dropSpheres(w, c.n, 0.001, geom.V(-0.03, -0.03, 0.002), geom.V(0.03, 0.03, 0.03), 0.05, 7)
				if err := w.Check(); err != nil {
					t.Fatal(err)
				}
				w.Integrator = &Explicit{}
				if err := Start(w); err != nil {
					t.Fatal(err)
				}
				w.SetLazyBodies(lazy)
				var out strings.Builder
				for i := range c.steps {
					switch {
					case i == c.steps/3:
						w.SyncBodies()
						w.Gravity = geom.V(0.5, 0, -20)
					case i%53 == 52:
						w.Dt = 3e-3
					}
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&out, "%x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.Dt, w.Stats.Contacts)
				}
				w.SetLazyBodies(false)
				for _, b := range w.Bodies() {
					fmt.Fprintf(&out, "%x %x %x %x|", b.X, b.V, b.W, b.F)
				}
				return out.String(), w.SphereDispSkips()
			}
			e, _ := run(false)
			l, skips := run(true)
			t.Logf("%d skips", skips)
			if skips == 0 && c.lw.Mu == 0 {
				t.Error("no skip")
			}
			if e != l {
				t.Error("lazy (bound) differs from eager")
			}
		})
	}
}
