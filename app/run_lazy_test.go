package app

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// grainlab run keeps the sphere path's bodies lazy between output rows
// (integrate.AdvancePastLazy): the finite guard and the last good state
// read the flat state. A sphere box under a gravity that overflows the
// kinetic energy after ~1300 steps must stop with exit 1 at the step the
// state turns non-finite, and final.json must hold exactly (same bits) the
// bodies of the step before, as an eager run stopped there has them — in
// body order and with the spheres in Morton order.
func TestRunNonFiniteSpheresLastGoodState(t *testing.T) {
	sets := []string{"gravity=[0,0,1e160]"}
	for _, morton := range []bool{false, true} {
		name := "body-order"
		if morton {
			name = "morton-order"
		}
		t.Run(name, func(t *testing.T) {
			if morton {
				m, e := world.SphereReorderMin, world.SphereReorderEvery
				world.SphereReorderMin, world.SphereReorderEvery = 64, 100
				t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
			}
			dir := t.TempDir()
			var stderr bytes.Buffer
			code := Main([]string{"run", "sphere-box-soft", "--set", sets[0], "--workers", "1", "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
			msg := stderr.String()
			m := regexp.MustCompile(`non-finite state at t=\S+ s \(step (\d+)\)`).FindStringSubmatch(msg)
			if code != ExitFailure || m == nil {
				t.Fatalf("exit %d, stderr %q", code, msg)
			}
			failStep, _ := strconv.ParseInt(m[1], 10, 64)
			if failStep < 10 {
				t.Fatalf("the state turns non-finite at step %d: too early to test the lazy guard", failStep)
			}
			f, err := state.Read(filepath.Join(dir, FinalFile))
			if err != nil {
				t.Fatal(err)
			}
			if f.Steps != failStep-1 {
				t.Fatalf("final.json holds step %d, want the step before the failure, %d", f.Steps, failStep-1)
			}

			s, err := Load(Options{Scene: "sphere-box-soft", Sets: sets, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			w := s.World
			if _, err := integrate.AdvancePast(w, s.End, s.End, func() bool { return w.Steps >= f.Steps }); err != nil {
				t.Fatal(err)
			}
			if w.Steps != f.Steps || w.Time != f.Time {
				t.Fatalf("eager run at step %d t=%g, final.json at step %d t=%g", w.Steps, w.Time, f.Steps, f.Time)
			}
			byName := map[string]state.Body{}
			for _, b := range f.Bodies {
				byName[b.Name] = b
			}
			n := 0
			for _, b := range w.Bodies() {
				if b.Wall >= 0 {
					continue
				}
				g, ok := byName[b.Name]
				n++
				if !ok || g.Position != [3]float64{b.X.X, b.X.Y, b.X.Z} || g.Velocity != [3]float64{b.V.X, b.V.Y, b.V.Z} ||
					g.AngularVelocity != [3]float64{b.W.X, b.W.Y, b.W.Z} || g.Quaternion != [4]float64{b.Q.W, b.Q.X, b.Q.Y, b.Q.Z} {
					t.Fatalf("body %s: final.json %+v, eager run x=%v v=%v ω=%v q=%v", b.Name, g, b.X, b.V, b.W, b.Q)
				}
			}
			if n != len(f.Bodies) || n < 100 {
				t.Fatalf("%d spheres compared, final.json has %d bodies", n, len(f.Bodies))
			}
		})
	}
}
