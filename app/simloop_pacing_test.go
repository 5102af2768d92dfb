package app

import (
	"bytes"
	"grainlab/sim/state"
	"testing"
	"time"
)

// TestSimLoopResetForgetsPublishCost: a reset or a newly loaded scene
// starts its publication pacing afresh. The pacing of the scene before
// (pubCost: 0.7 s per snapshot of a settled box of 10⁵ spheres gives a gap
// of 7 s at Share 0.1; here an hour, to make the test certain) must not
// hold back the periodic snapshots of the scene after the reset: once
// playing, with the view asking for a frame every 10 ms, a snapshot of a
// later step must come within 3 s (218 spheres: a snapshot costs < 1 ms).
func TestSimLoopResetForgetsPublishCost(t *testing.T) {
	l := startLoop(t, settledSpheres(), func(l *SimLoop) {
		l.OnDemand, l.Share = true, DefaultPublishShare
		l.pubCost = time.Hour // what the scene before the reset cost (set before Start)
	})
	l.Reset()
	l.Play()
	st := sync1(t, l)
	step0 := st.Snap.Stats.Step
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		l.Want()
		if s := l.State(); s.Snap.Stats.Step > step0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("no snapshot after step %d within 3 s of play after a reset: the previous scene's publication cost still paces the view", step0)
}

// TestHistorySetBudgetDuringSpill: the time bar's budget field calls
// History.SetBudget on the render thread. While the simulation goroutine
// spills (holding the writers' lock for the whole write: seconds for a
// large spill with keyframes to encode), the render thread must not wait
// for the disk: SetBudget should return within 1 s (RequestBudget) (it waits for the
// spill here, which the test holds for 3 s).
func TestHistorySetBudgetDuringSpill(t *testing.T) {
	const nb = 20
	one := SnapshotBytes(spillSnap(0, 0, nb, 0))
	h := NewHistory(4 * one)
	h.SetSpill(t.TempDir(), true)
	defer h.Close()
	entered, release := make(chan struct{}), make(chan struct{})
	var once bool
	h.beforeSpill = func() {
		if !once {
			once = true
			close(entered)
			<-release
		}
	}
	go func() {
		for i := range 8 {
			h.Add(spillSnap(int64(i), float64(i)*1e-3, nb, 0))
		}
	}()
	<-entered
	go func() { time.Sleep(3 * time.Second); close(release) }()
	t0 := time.Now()
	h.RequestBudget(8 * one) // the render thread (timeline.go: a.Budget)
	if d := time.Since(t0); d > time.Second {
		t.Errorf("RequestBudget waited %.2g s for a spill in progress: the render thread blocks on the writers' lock", d.Seconds())
	}
}

// TestKeyframeCapturedStaysAfterSteps: a captured keyframe
// (state.Capture, encoded later when spilled or branched from) must not
// share anything the world changes afterwards: its bytes after 40 more steps
// are the bytes state.Encode gave at the capture, for the sphere path, the
// explicit polyhedral path and cd (warm-start maps).
func TestKeyframeCapturedStaysAfterSteps(t *testing.T) {
	for _, o := range []Options{settledSpheres(), {Scene: DefaultScene, Restart: "../assets/states/box-of-tetrapods-300-packed.json", Workers: 2}, {Scene: DefaultScene, Restart: "../assets/states/box-of-tetrapods-300-packed.json", Workers: 2, Integrator: "cd"}, {Scene: DefaultScene, Restart: "../assets/states/box-of-tetrapods-300-packed.json", Workers: 2, Integrator: "variational"}} {
		s, err := Load(o)
		if err != nil {
			t.Fatal(err)
		}
		w := s.World
		if _, err := s.StepTo(w.Time+20*w.Dt, nil); err != nil {
			t.Fatal(err)
		}
		w.SyncBodies()
		if w.Stats.Contacts == 0 {
			t.Fatalf("%s %s: no contacts: the check is void", o.Scene, o.Integrator)
		}
		f := state.Capture(w)
		want, err := state.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		k := NewKeyframe(w.Time, w.Steps, w.Dt, nil, f)
		if _, err := s.StepTo(w.Time+40*w.Dt, nil); err != nil {
			t.Fatal(err)
		}
		got, err := k.Bytes()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s %s: keyframe bytes after 40 more steps (%d, %v) differ from those at its capture (%d)", o.Scene, o.Integrator, len(got), err, len(want))
		}
	}
}
