package integrate

import (
	"fmt"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Review r3 (session 20): integrator switches (explicit → newmark →
// explicit → variational → explicit → cd → explicit, each with Start, as
// SimLoop.setIntegrator does) on frictionless spheres falling on a floor whose explicit
// stretches run with lazy bodies (one shared rotational array) give the
// same bits as with eager bodies (two arrays all along).
func TestRv20cRotShareIntegratorSwitches(t *testing.T) {
	lw := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50, Kt: 60, GammaT: 25}
	build := func(w *world.World) {
		add := func(name string, c geom.Vec3, sx, sy float64) { addSquarePlate(t, w, name, c, sx, sy) }
		add("floor", geom.V(0, 0, 0), 0.1, 0.1) // no rim within reach: nothing turns
		dropSpheres(w, 25, 0.001, geom.V(-0.005, -0.005, 0.002), geom.V(0.005, 0.005, 0.01), 0, 2)
	}
	seq := []string{"explicit", "newmark", "explicit", "variational", "explicit", "cd", "explicit"}
	shared := 0
	run := func(lazy bool) string {
		w := startSpherePath(t, lw, 0, build, lazy)
		return switchRun(t, w, seq, lazy, 150, 20, func() {
			if lazy && w.SphereRotArrays() <= 1 {
				shared++ // shared (or none: rotNone) when the explicit stretch ends
			}
		})
	}
	eager, lazy := run(false), run(true)
	t.Logf("the rotational array shared at %d of %d switches", shared, len(seq)-1)
	if shared == 0 {
		t.Error("the lazy run never shared its rotational array at a switch: the case does not exercise it")
	}
	if eager != lazy {
		a, b := strings.Split(lazy, "|"), strings.Split(eager, "|")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("lazy and eager runs differ at record %d:\n%s\n%s", i, a[i], b[i])
			}
		}
	}
}

// switchRun runs w through the integrators of seq (after the first, each
// made with NewFor and started, as SimLoop.setIntegrator does; before each
// switch atSwitch is called and the bodies made eager, as Advance's return
// leaves them; explicit stretches lazy again when lazy), nExplicit steps of
// explicit and nOther of the others, and returns a record of every step's
// statistics and the bodies' final states.
func switchRun(t *testing.T, w *world.World, seq []string, lazy bool, nExplicit, nOther int, atSwitch func()) string {
	t.Helper()
	var out strings.Builder
	for k, name := range seq {
		if k > 0 {
			atSwitch()
			w.SetLazyBodies(false) // Advance's return
			in, err := NewFor(name, w)
			if err != nil {
				t.Fatal(err)
			}
			w.Integrator = in
			if err := Start(w); err != nil {
				t.Fatal(err)
			}
			if name == "explicit" {
				w.SetLazyBodies(lazy)
			}
		}
		n := nExplicit
		if name != "explicit" {
			n = nOther
		}
		for range n {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			fmt.Fprintf(&out, "%s %x %x %x %x %d|", name, w.Stats.Kinetic, w.Stats.PotentialContact,
				w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
		}
	}
	writeBodyStates(&out, w)
	return out.String()
}
