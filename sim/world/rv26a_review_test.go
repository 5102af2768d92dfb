package world_test

import (
	"bytes"
	"fmt"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// r1 (session 26 review of b1): cases TestSphereRekeySameBits may miss.
// Each runs the same script with SetRekeyOff(true) (round trip) and
// false (rekey) and compares every step's digest and the final file.
func rv26aRun(t *testing.T, mk func() *world.World, pre float64, script func(t *testing.T, w *world.World, dig func())) ([]uint64, []byte, int64) {
	run := func(off bool) ([]uint64, []byte, int64) {
		world.SetRekeyOff(off)
		defer world.SetRekeyOff(false)
		w := mk()
		if _, err := integrate.Advance(w, pre, nil); err != nil {
			t.Fatal(err)
		}
		var ds []uint64
		script(t, w, func() { ds = append(ds, stepDigest(w)) })
		return ds, finalBytes(t, w), w.SphereRekeys()
	}
	dOff, fOff, _ := run(true)
	dOn, fOn, n := run(false)
	if n == 0 {
		t.Errorf("no key change made in place")
	}
	if len(dOn) != len(dOff) {
		t.Fatalf("%d vs %d digests", len(dOn), len(dOff))
	}
	for k := range dOff {
		if dOn[k] != dOff[k] {
			t.Fatalf("digest %d: in place differs from the round trip", k)
		}
	}
	if !bytes.Equal(fOn, fOff) {
		t.Fatalf("final state file differs")
	}
	return dOn, fOn, n
}

func step1(t *testing.T, w *world.World) {
	t.Helper()
	if _, err := w.Integrator.Step(w, 1); err != nil {
		t.Fatal(err)
	}
}

// An edit before EVERY step (so some edit lands on a list-rebuild /
// renumbering step), sometimes two edits between two steps, on the 5000
// box (≥ 4096: spatial order), blocks and records, 1 and 2 workers.
func TestRV26aRekeyEveryStep(t *testing.T) {
	big := []string{"generators[0].count=5000", "generators[0].region.max=[0.03,0.03,0.12]", "walls[0].max=[0.03,0.03,0.12]"}
	for _, records := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("records=%v/workers=%d", records, workers), func(t *testing.T) {
				mk := func() *world.World { return rekeyWorld(t, "sphere-box-soft", big, records, workers) }
				_, _, n := rv26aRun(t, mk, 0.05, func(t *testing.T, w *world.World, dig func()) {
					for k := range 60 {
						if err := w.SetParam("contact.default.gamma_n", 20+float64(k%7)); err != nil {
							t.Fatal(err)
						}
						if k%5 == 2 { // two edits between two steps
							if err := w.SetParam("contact.default.kn", 10.02*(1+0.01*float64(k%3))); err != nil {
								t.Fatal(err)
							}
						}
						if k%11 == 4 { // friction on a world without rotational array, then off
							if err := w.SetParam("contact.default.mu", 0.3); err != nil {
								t.Fatal(err)
							}
						}
						if k%11 == 7 {
							if err := w.SetParam("contact.default.mu", 0); err != nil {
								t.Fatal(err)
							}
						}
						step1(t, w)
						dig()
					}
				})
				t.Logf("%d in place", n)
			})
		}
	}
}

// An edit, then an integrator switch (explicit → newmark → explicit)
// before any Accept on the sphere path.
func TestRV26aRekeyIntegratorSwitch(t *testing.T) {
	for _, sc := range []string{"sphere-box-soft", "sphere-piling"} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", sc, workers), func(t *testing.T) {
				mk := func() *world.World { return rekeyWorld(t, sc, nil, false, workers) }
				pre := 0.05
				if sc == "sphere-piling" {
					pre = 0.1
				}
				rv26aRun(t, mk, pre, func(t *testing.T, w *world.World, dig func()) {
					for k := range 3 {
						if err := w.SetParam("contact.default.mu", 0.2+0.1*float64(k)); err != nil {
							t.Fatal(err)
						}
						w.VerletSkin() // the path rebuilt in place (rekey), no Accept yet
						w.Integrator = integrate.NewNewmark()
						for range 2 {
							step1(t, w)
							dig()
						}
						if err := w.SetParam("contact.default.mu_roll", 0.01*float64(k)); err != nil {
							t.Fatal(err)
						}
						w.Integrator = &integrate.Explicit{}
						for range 4 {
							step1(t, w)
							dig()
						}
					}
				})
			})
		}
	}
}

// Two key changes, each seen by the path (VerletSkin), before one Accept;
// then the path left before the step (EachContact in stepDigest).
func TestRV26aRekeyTwiceBeforeAccept(t *testing.T) {
	for _, sc := range []string{"sphere-box-soft", "sphere-piling"} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", sc, workers), func(t *testing.T) {
				mk := func() *world.World { return rekeyWorld(t, sc, nil, false, workers) }
				m0 := world.Materializations()
				rv26aRun(t, mk, 0.1, func(t *testing.T, w *world.World, dig func()) {
					mm := world.Materializations()
					defer func() { t.Logf("this run: %d materializations", world.Materializations()-mm) }()
					for k := range 6 {
						if err := w.SetParam("contact.default.mu", 0.2+0.1*float64(k%2)); err != nil {
							t.Fatal(err)
						}
						w.VerletSkin()
						w.Gravity.X = 0.01 * float64(k)
						w.VerletSkin()
						if k%2 == 0 {
							dig()
						}
						for range 3 {
							step1(t, w)
							dig()
						}
					}
				})
				t.Logf("materializations (both runs): %d", world.Materializations()-m0)
			})
		}
	}
}

// A periodic sphere world (x, y periodic, planes at z = 0 and the top):
// the listed pairs' shifts through rekey (TestSphereRekeySameBits has no
// periodic case). 218 spheres, 1 and 2 workers (the review also ran 1500:
// ≈ 150 s, not kept).
func TestRV26aRekeyPeriodic(t *testing.T) {
	for _, n := range []int{218} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(t *testing.T) {
				mk := func() *world.World { return rv26aPeriodicWorld(t, n, workers) }
				rv26aRun(t, mk, 0.3, func(t *testing.T, w *world.World, dig func()) {
					t.Logf("contacts at first edit: %d", w.Stats.Contacts)
					for k, e := range rekeyEdits(10.02, 20) {
						if err := e.do(w); err != nil {
							t.Fatal(err)
						}
						if k%2 == 1 {
							w.VerletSkin()
							dig()
						}
						for range 6 {
							step1(t, w)
							dig()
						}
					}
				})
			})
		}
	}
}

// Key changes while lawGen is 0 (no law ever edited): gravity and the
// safety factor, back and forth (export's springGen 0 equals lawGen 0).
func TestRV26aRekeyLawGenZero(t *testing.T) {
	for _, sc := range []string{"sphere-box-soft", "sphere-piling"} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", sc, workers), func(t *testing.T) {
				mk := func() *world.World { return rekeyWorld(t, sc, nil, false, workers) }
				rv26aRun(t, mk, 0.1, func(t *testing.T, w *world.World, dig func()) {
					s0 := w.Settings.Safety
					for k := range 8 {
						switch k % 4 {
						case 0:
							w.Gravity.X = 0.02 * float64(k+1)
						case 1:
							w.Settings.Safety = 0.7 * s0
						case 2:
							w.Settings.Safety = s0
						case 3:
							w.Gravity.X = 0
							w.VerletSkin()
							dig()
						}
						for range 4 {
							step1(t, w)
							dig()
						}
					}
				})
			})
		}
	}
}

// An edit, then a step whose first attempts are rejected (Δt 30× the
// controller's: night owls, penetrations) and retried, before its Accept.
func TestRV26aRekeyRejectedStep(t *testing.T) {
	big := []string{"generators[0].count=5000", "generators[0].region.max=[0.03,0.03,0.12]", "walls[0].max=[0.03,0.03,0.12]"}
	for _, c := range []struct {
		sc   string
		sets []string
	}{{"sphere-box-soft", nil}, {"sphere-piling", nil}, {"sphere-box-soft", big}} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/%d/workers=%d", c.sc, len(c.sets), workers), func(t *testing.T) {
				mk := func() *world.World { return rekeyWorld(t, c.sc, c.sets, false, workers) }
				var rej int64
				rv26aRun(t, mk, 0.1, func(t *testing.T, w *world.World, dig func()) {
					r0 := w.Stats.Rejected
					for k := range 6 {
						if err := w.SetParam("contact.default.mu", 0.1*float64(k%2)); err != nil {
							t.Fatal(err)
						}
						if err := w.SetParam("contact.default.gamma_n", 2+float64(k)); err != nil {
							t.Fatal(err)
						}
						w.Dt *= 30
						step1(t, w)
						dig()
						for range 3 {
							step1(t, w)
							dig()
						}
					}
					rej = w.Stats.Rejected - r0
				})
				t.Logf("%d rejected attempts", rej)
				if rej == 0 {
					t.Errorf("no attempt rejected")
				}
			})
		}
	}
}

// rv26aPeriodicWorld builds testdata/rv26a-periodic.yaml with n spheres
// (and the further sets), lazy bodies, explicit, on workers workers (every
// step split when more than one), started.
func rv26aPeriodicWorld(t *testing.T, n, workers int, sets ...string) *world.World {
	t.Helper()
	sp, err := scene.Load("testdata/rv26a-periodic.yaml", append([]string{fmt.Sprintf("generators[0].count=%d", n), "generators[0].region.max=[0.012,0.012,0.2]"}, sets...)...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(sp)
	if err != nil {
		t.Fatal(err)
	}
	w.SetLazyBodies(true)
	w.Settings.Workers = workers
	if workers > 1 {
		w.Settings.SphereSplit = world.SplitAlways
	}
	w.Integrator = &integrate.Explicit{}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}
