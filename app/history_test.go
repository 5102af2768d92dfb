package app

import (
	"math"
	"strings"
	"testing"
	"time"

	"grainlab/sim/snap"
	"grainlab/sim/state"
)

// maxDiff returns the largest difference of body positions (m) and
// velocities (m/s) between two frames of the same scene.
func maxDiff(a, b *snap.Snapshot) (dx, dv float64) {
	for i := range a.Bodies {
		dx = math.Max(dx, a.Bodies[i].Pos.Sub(b.Bodies[i].Pos).Norm())
		dv = math.Max(dv, a.Bodies[i].Vel.Sub(b.Bodies[i].Vel).Norm())
	}
	return dx, dv
}

// steps single-steps the loop n times (one published frame per step).
func steps(t *testing.T, l *SimLoop, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		l.Step()
	}
	sync1(t, l)
}

// framesAfter copies the history's frames after index from.
func framesAfter(h *History, from int) []*snap.Snapshot {
	var out []*snap.Snapshot
	for i := from + 1; i < h.Len(); i++ {
		s, _ := h.Frame(i)
		out = append(out, s)
	}
	return out
}

// resumeAndCompare resumes from frame idx of the history, single-steps as
// many frames as were recorded after it and returns the largest differences
// to the old future, frame by frame in step and time.
func resumeAndCompare(t *testing.T, l *SimLoop, idx int, edit func(), exact bool) (dx, dv float64) {
	t.Helper()
	h := l.History()
	old := framesAfter(h, idx)
	tf := h.Time(idx)
	l.ResumeFrom(tf)
	if edit != nil { // after the resume, as the window sends it (a keyframe may restore parameters)
		edit()
	}
	st := sync1(t, l)
	if st.StatusErr {
		t.Fatalf("resume: %s", st.Status)
	}
	if got := st.Snap.Stats.Time; got != tf && (exact || math.Abs(got-tf) > 1e-9*tf) {
		t.Fatalf("resumed at t=%.17g, want the frame's t=%.17g", got, tf)
	}
	if h.Len() != idx+1 {
		t.Fatalf("history after resume holds %d frames, want %d (the future dropped)", h.Len(), idx+1)
	}
	steps(t, l, len(old))
	now := framesAfter(h, idx)
	if len(now) != len(old) {
		t.Fatalf("%d frames after resume, want %d", len(now), len(old))
	}
	for i := range old {
		if exact && (now[i].Stats.Step != old[i].Stats.Step || now[i].Stats.Time != old[i].Stats.Time) {
			t.Fatalf("frame %d: step %d t=%.17g, want step %d t=%.17g", i, now[i].Stats.Step, now[i].Stats.Time, old[i].Stats.Step, old[i].Stats.Time)
		}
		x, v := maxDiff(now[i], old[i])
		dx, dv = math.Max(dx, x), math.Max(dv, v)
	}
	return dx, dv
}

// TestSimLoopResume: the branch of issue 14 item 4 at the sim-loop level.
// In free flight (no contact history) an unchanged resume from a past frame
// replays the old frames bit for bit, and so it does in contact (keyframes
// are complete state files: contact history, integrator state); an edited
// resume (a far softer barrier) departs from the old future.
func TestSimLoopResume(t *testing.T) {
	l := startLoop(t, smallScene("8"), func(l *SimLoop) { l.KeyEvery = 5 })
	h := l.History()
	steps(t, l, 24)
	if h.Len() != 25 {
		t.Fatalf("history holds %d frames after 24 steps, want 25", h.Len())
	}
	if st := l.State(); st.Snap.Stats.Contacts != 0 {
		t.Fatalf("want free flight for the first part, %d contacts", st.Snap.Stats.Contacts)
	}
	dx, dv := resumeAndCompare(t, l, 12, nil, true) // keyframe at frame 10, two steps replayed
	t.Logf("free flight: unchanged resume max |Δx| = %g m, |Δv| = %g m/s", dx, dv)
	if dx != 0 || dv != 0 {
		t.Errorf("free flight: unchanged resume differs: |Δx| = %g m, |Δv| = %g m/s (want bitwise equal)", dx, dv)
	}

	// step into contact (deterministic: single steps), then branch again
	for st := l.State(); st.Snap.Stats.Contacts < 8 && st.Snap.Stats.Time < 2; st = l.State() {
		steps(t, l, 200)
	}
	steps(t, l, 10)
	n := h.Len()
	if l.State().Snap.Stats.Contacts == 0 {
		t.Fatal("no contacts for the second part")
	}
	dx, dv = resumeAndCompare(t, l, n-8, nil, false)
	t.Logf("in contact: unchanged resume max |Δx| = %g m, |Δv| = %g m/s", dx, dv)
	if dx != 0 || dv != 0 { // keyframes are complete state files (sim/state version 2)
		t.Errorf("in contact: unchanged resume differs: |Δx| = %g m, |Δv| = %g m/s (want bitwise equal)", dx, dv)
	}
	ex, ev := resumeAndCompare(t, l, n-8, func() { l.SetParam("contact.default.eps1", 1e-3) }, false)
	t.Logf("in contact: edited (ε1 = 1e-3) resume max |Δx| = %g m, |Δv| = %g m/s", ex, ev)
	if !(ex > 1e-9) {
		t.Errorf("edited resume |Δx| = %g m: the edit did not change the future", ex)
	}
	var branch int
	for _, m := range h.Markers() {
		if m.Kind == MarkBranch {
			branch++
		}
	}
	if branch != 3 {
		t.Errorf("%d branch markers, want 3", branch)
	}
}

// mkSnap is a frame with nb bodies and nc contacts at step i, time t.
func mkSnap(i int64, t float64, nb, nc int) *snap.Snapshot {
	s := &snap.Snapshot{Bodies: make([]snap.Body, nb), Contacts: make([]snap.Contact, nc)}
	s.Stats.Step, s.Stats.Time = i, t
	return s
}

// TestHistoryBudget: frames are kept in time order within the budget; when
// full the oldest go first (with a note saying so), keyframes older than
// the oldest frame's own keyframe go with them; a snapshot of the same step
// replaces the last frame; Truncate drops the future of a branch point.
func TestHistoryBudget(t *testing.T) {
	one := SnapshotBytes(mkSnap(0, 0, 10, 5))
	h := NewHistory(10 * one)
	h.SetSpill("", false) // the drop path (spilling off, or failed: TestHistorySpillFails)
	for i := 0; i < 25; i++ {
		if !h.Add(mkSnap(int64(i), float64(i)*0.01, 10, 5)) {
			t.Fatalf("frame %d not appended", i)
		}
		if i%5 == 0 {
			h.AddKeyframe(Keyframe{Time: float64(i) * 0.01, Step: int64(i), State: []byte("{}")})
		}
	}
	if h.Len() != 9 && h.Len() != 10 {
		t.Fatalf("%d frames held within a budget of 10 frames' bytes", h.Len())
	}
	if h.Bytes() > h.Budget() {
		t.Errorf("bytes %d over the budget %d", h.Bytes(), h.Budget())
	}
	if got := h.Time(h.Len() - 1); got != 0.24 {
		t.Errorf("newest frame t=%g, want 0.24", got)
	}
	n, tdrop := h.Dropped()
	if n != 25-h.Len() || tdrop != h.Time(0)-0.01 {
		t.Errorf("dropped %d up to t=%g; held %d from t=%g", n, tdrop, h.Len(), h.Time(0))
	}
	if !strings.Contains(h.Note(), "dropped") {
		t.Errorf("note %q", h.Note())
	}
	k, ok := h.KeyframeAt(h.Time(0))
	if !ok || k.Time > h.Time(0) {
		t.Errorf("no keyframe at or before the oldest frame t=%g: %v %v", h.Time(0), k, ok)
	}
	if _, ok := h.KeyframeAt(k.Time - 0.001); ok {
		t.Errorf("a keyframe older than the oldest frame's own was kept")
	}
	if h.Add(mkSnap(24, 0.24, 10, 5)) || h.Len() > 10 {
		t.Errorf("the same step was appended, not replaced")
	}
	for i := 1; i < h.Len(); i++ {
		if h.Time(i) <= h.Time(i-1) {
			t.Fatalf("frames out of order at %d", i)
		}
	}
	if i := h.Index(0.2049); h.Time(i) != 0.2 {
		t.Errorf("Index(0.2049) → t=%g, want 0.2", h.Time(i))
	}
	h.Mark(Marker{Time: 0.2, Kind: MarkWall})
	h.Mark(Marker{Time: 0.23, Kind: MarkParam})
	h.Truncate(0.2)
	if h.Time(h.Len()-1) != 0.19 || len(h.Markers()) != 1 {
		t.Errorf("after Truncate(0.2): newest t=%g, %d markers", h.Time(h.Len()-1), len(h.Markers()))
	}
	if k, _ := h.KeyframeAt(1); k.Time >= 0.2 {
		t.Errorf("keyframe at t=%g survived Truncate(0.2)", k.Time)
	}
	if _, err := h.Frame(h.Len()); err == nil {
		t.Error("Frame out of range: no error")
	}
	if DefaultHistoryBytes() <= 0 || DefaultHistoryBytes() > 2<<30 {
		t.Errorf("default budget %d", DefaultHistoryBytes())
	}
}

// TestHistoryRace reads the history the way the time bar does while the
// simulation goroutine records and a branch truncates it (run with -race).
func TestHistoryRace(t *testing.T) {
	l := startLoop(t, smallScene("4"), func(l *SimLoop) { l.KeyEvery = 3; l.PublishInterval = time.Millisecond })
	h := l.History()
	// 5× real time: ≈ 1 s simulated in the test's 200 ms, well before the
	// scene's event at t = 6 s that removes the side walls (as fast as
	// possible, a quiet machine got past it and "left" was off at the
	// branch point for a reason other than the toggle).
	l.SetSpeed(5, false)
	l.Play()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if n := h.Len(); n > 0 {
				s, err := h.Frame(FrameIndex(h, h.Time(n/2)))
				if err == nil && s == nil {
					t.Error("nil frame")
				}
			}
			_ = h.Markers()
			_ = h.Note()
		}
	}()
	time.Sleep(200 * time.Millisecond)
	l.SetWall("left", false)
	sync1(t, l)
	time.Sleep(50 * time.Millisecond)
	var wall *Marker
	for _, m := range h.Markers() {
		if m.Kind == MarkWall {
			wall = &m
		}
	}
	if wall == nil {
		t.Fatalf("no wall marker: %v", h.Markers())
	}
	// branch from before the toggle: the wall is on again there, and the
	// toggle's marker belongs to the dropped future
	l.ResumeFrom(h.Time(h.Index(wall.Time) / 2))
	time.Sleep(100 * time.Millisecond)
	close(stop)
	<-done
	l.Pause()
	st := sync1(t, l)
	if st.StatusErr {
		t.Errorf("status: %s", st.Status)
	}
	for _, w := range st.Snap.Walls {
		if w.Name == "left" && !w.Enabled {
			t.Error("branch from before the wall toggle: wall left still off")
		}
	}
	for _, m := range h.Markers() {
		if m.Kind == MarkWall {
			t.Errorf("the dropped future's wall marker is still on the bar: %v", m)
		}
	}
}

// BenchmarkKeyframe measures a keyframe (state.Encode on the simulation
// goroutine) and a recorded frame's snapshot on the default scene (300
// tetrapods, packed) next to one step: docs/performance.md.
func BenchmarkKeyframe(b *testing.B) {
	o := Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked}
	s, err := Load(o)
	if err != nil {
		b.Fatal(err)
	}
	w := s.World
	b.Run("encode", func(b *testing.B) {
		var n int
		for i := 0; i < b.N; i++ {
			data, err := state.Encode(w)
			if err != nil {
				b.Fatal(err)
			}
			n = len(data)
		}
		b.ReportMetric(float64(n), "bytes")
	})
	b.Run("snapshot", func(b *testing.B) {
		var prev *snap.Snapshot
		for i := 0; i < b.N; i++ {
			prev = w.Snapshot(prev)
		}
		b.ReportMetric(float64(SnapshotBytes(prev)), "bytes")
		b.ReportMetric(float64(prev.Stats.Contacts), "contacts")
	})
	b.Run("step", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSimLoopEventMarker: a scene event (the packed box's side walls go)
// puts a marker on the bar at its time and a keyframe there.
func TestSimLoopEventMarker(t *testing.T) {
	l := startLoop(t, Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked, Workers: 2})
	h := l.History()
	t0 := l.State().Snap.Stats.Time
	steps(t, l, 3)
	var ev []Marker
	for _, m := range h.Markers() {
		if m.Kind == MarkEvent {
			ev = append(ev, m)
		}
	}
	if len(ev) != 1 || ev[0].Time != 6 || t0 != 6 {
		t.Fatalf("event markers %v (start t=%g), want one at the event's t=6 s", ev, t0)
	}
	if k, ok := h.KeyframeAt(l.State().Snap.Stats.Time); !ok || k.Time < ev[0].Time {
		t.Errorf("no keyframe at or after the event: %v %v", k.Time, ok)
	}
	t.Logf("event marker at t=%g s: %s", ev[0].Time, ev[0].Label)
}

// TestSimLoopResumeBeforeEvent: a branch from the frame just before a scene
// event fires it again (the side walls go), and from just after keeps it.
func TestSimLoopResumeBeforeEvent(t *testing.T) {
	l := startLoop(t, Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked, Workers: 2})
	h := l.History()
	steps(t, l, 3)
	walls := func() (on int) {
		for _, w := range l.State().Snap.Walls {
			if w.Enabled {
				on++
			}
		}
		return on
	}
	after := walls()
	for _, i := range []int{0, 1} {
		l.ResumeFrom(h.Time(i))
		st := sync1(t, l)
		if st.StatusErr {
			t.Fatal(st.Status)
		}
		s0, _ := h.Frame(i)
		want := 0
		for _, w := range s0.Walls {
			if w.Enabled {
				want++
			}
		}
		if got := walls(); got != want {
			t.Errorf("resumed at frame %d (t=%g): %d walls on, want %d", i, h.Time(i), got, want)
		}
		steps(t, l, 2)
		if got := walls(); got != after {
			t.Errorf("2 steps after resuming at frame %d: %d walls on, want %d (the event applied once)", i, got, after)
		}
	}
}
