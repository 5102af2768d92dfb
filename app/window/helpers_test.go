package window

import (
	"testing"
	"time"

	"grainlab/app"
	"grainlab/sim/snap"
)

// The scenes and steps of app's SimLoop tests (simloop_test.go,
// simloop_smooth_test.go, history_test.go), for the window's tests: test
// helpers are not shared across packages.

// smallScene is the default scene with n tetrapods in a smaller box.
func smallScene(n string) app.Options {
	return app.Options{Scene: app.DefaultScene, Workers: 2, Sets: []string{
		"generators.fill.count=" + n,
		"generators.fill.region.max=[3.2,3.2,3]",
	}}
}

// smallSQ is sq-settling with 20 superquadrics.
func smallSQ() app.Options {
	return app.Options{Scene: "sq-settling", Workers: 2, Sets: []string{
		"generators.p.count=20",
		"generators.p.region.min=[0.03,0.03,0.005]",
		"generators.p.region.max=[0.07,0.07,0.03]",
	}}
}

// startLoop loads o and starts its simulation goroutine (closed at the
// end of the test).
func startLoop(t *testing.T, o app.Options, configure ...func(*app.SimLoop)) *app.SimLoop {
	t.Helper()
	s, err := app.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	l := app.NewSimLoop(s, o)
	for _, f := range configure {
		f(l)
	}
	l.Start()
	t.Cleanup(l.Close)
	return l
}

// sync1 waits for the simulation goroutine and returns its state.
func sync1(t *testing.T, l *app.SimLoop) *app.LoopState {
	t.Helper()
	if !l.Sync(30 * time.Second) {
		t.Fatal("the simulation goroutine did not answer")
	}
	return l.State()
}

// steps single-steps l n times and waits.
func steps(t *testing.T, l *app.SimLoop, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		l.Step()
	}
	sync1(t, l)
}

// mkSnap is a snapshot of step i at time t with nb bodies and nc contacts.
func mkSnap(i int64, t float64, nb, nc int) *snap.Snapshot {
	s := &snap.Snapshot{Bodies: make([]snap.Body, nb), Contacts: make([]snap.Contact, nc)}
	s.Stats.Step, s.Stats.Time = i, t
	return s
}

// firstFree returns the index of the first free body of s (-1: none).
func firstFree(s *snap.Snapshot) int {
	for i := range s.Bodies {
		if !s.Bodies[i].Fixed {
			return i
		}
	}
	return -1
}
