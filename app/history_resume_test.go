package app

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// onLoop runs fn on the simulation goroutine between two steps and waits
// for it.
func onLoop(t *testing.T, l *SimLoop, fn func(l *SimLoop)) {
	t.Helper()
	done := make(chan struct{})
	l.send(command{kind: cmdCall, fn: func(l *SimLoop) { fn(l); close(done) }})
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the simulation goroutine did not answer")
	}
}

// worldBits is everything of a loop's world a resume may change, as bytes
// and values to compare exactly: the state file (state.Encode: bodies,
// forces, contact history, walls, events, edits, the parameters' record,
// integrator state), each body's shape state and the default pair's law.
type worldBits struct {
	file   []byte
	shapes []body.ShapeState
	law    world.ContactParams
	edits  []world.Edit
	sets   []string
}

func bitsOf(t *testing.T, l *SimLoop) worldBits {
	t.Helper()
	var b worldBits
	onLoop(t, l, func(l *SimLoop) {
		w := l.sim.World
		var err error
		if b.file, err = state.Encode(w); err != nil {
			t.Error(err)
		}
		for _, bd := range w.Bodies() {
			b.shapes = append(b.shapes, bd.ShapeState())
		}
		b.law, b.edits, b.sets = *w.DefaultParams(), append([]world.Edit(nil), w.Edits...), append([]string(nil), l.lawSets...)
	})
	return b
}

func (a worldBits) diff(b worldBits) string {
	switch {
	case !bytes.Equal(a.file, b.file):
		return "state files differ"
	case !reflect.DeepEqual(a.shapes, b.shapes):
		return "body shapes differ"
	case a.law != b.law:
		return "default law differs"
	case !reflect.DeepEqual(a.edits, b.edits):
		return "edit lists differ"
	case !reflect.DeepEqual(a.sets, b.sets):
		return "reset overrides differ"
	}
	return ""
}

// A resume to a frame before a law edit of the panel (SetLaw) brings the
// keyframe's law back — the scene's, to the bit — with the keyframe's
// (empty) edit list and no reset override, so that the run resumed is the
// restart from that keyframe; a resume to a frame after the edit keeps it
// (one recorded edit, the override). A resume and then the same edit sent
// again (the window's "keep my edit") records it as a new edit at the
// branch's time. Before the fix the edited law stayed in force while the
// edit list went back to the keyframe's.
func TestSimLoopResumeBeforeLawEdit(t *testing.T) {
	l := startLoop(t, smallScene("8"), func(l *SimLoop) { l.KeyEvery = 5 })
	h := l.History()
	steps(t, l, 20)
	scene := bitsOf(t, l)
	k7, ok := h.KeyframeAt(h.Time(7))
	if !ok || k7.Time == 0 {
		t.Fatalf("no keyframe after the start at or before frame 7 (t=%g s)", h.Time(7))
	}
	tBefore := k7.Time
	p := scene.law
	p.Normal.Eps1 *= 0.5
	p.Friction.MuS, p.Friction.MuD, p.Zeta = 0.3, 0.2, 0.1
	l.SetLaw(p)
	steps(t, l, 10)
	edited := bitsOf(t, l)
	if edited.law.Normal.Eps1 != p.Normal.Eps1 || edited.law.Friction.MuS != 0.3 || len(edited.edits) != 1 || edited.edits[0].Law == nil {
		t.Fatalf("after SetLaw: law %+v, edits %+v: want the edited law, one law edit", edited.law, edited.edits)
	}
	tAfter := h.Time(h.Len() - 3)

	l.ResumeFrom(tAfter)
	if st := sync1(t, l); st.StatusErr {
		t.Fatalf("resume after the edit: %s", st.Status)
	}
	if got := bitsOf(t, l); got.law != edited.law || !reflect.DeepEqual(got.edits, edited.edits) || !reflect.DeepEqual(got.sets, edited.sets) {
		t.Fatalf("resumed after the edit: law %+v edits %+v sets %v, want the edited ones", got.law, got.edits, got.sets)
	}

	l.ResumeFrom(tBefore)
	if st := sync1(t, l); st.StatusErr {
		t.Fatalf("resume before the edit: %s", st.Status)
	}
	got := bitsOf(t, l)
	if got.law != scene.law || len(got.edits) != 0 || len(got.sets) != 0 {
		t.Fatalf("resumed before the edit: law %+v, edits %+v, reset overrides %v: want the scene's law, no edit, no override", got.law, got.edits, got.sets)
	}
	// the resumed world is the restart from its keyframe (tBefore is a
	// keyframe's time: no steps replayed): a fresh world of the scene given
	// the same keyframe has the same state file
	k, _ := h.KeyframeAt(tBefore)
	data, err := k.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	f, err := state.Parse(data, "keyframe")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(smallScene("8"))
	if err != nil {
		t.Fatal(err)
	}
	if err := state.Apply(s.World, f, "keyframe"); err != nil {
		t.Fatal(err)
	}
	if err := startAfterRestore(s.World); err != nil {
		t.Fatal(err)
	}
	rb, err := state.Encode(s.World)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rb, got.file) || !bytes.Equal(rb, data) {
		t.Errorf("at t=%g s the resumed world's state file differs from the restart's from the same keyframe, or from the keyframe", tBefore)
	}

	// keep my edit: sent again after the resume, it is a new edit
	l.SetLaw(p)
	sync1(t, l)
	kept := bitsOf(t, l)
	if kept.law != edited.law || len(kept.edits) != 1 || kept.edits[0].Time != tBefore {
		t.Errorf("edit re-applied after the resume: law %+v, edits %+v: want the edited law as one edit at t=%g s", kept.law, kept.edits, tBefore)
	}
	l.Reset()
	if got := bitsOf(t, l); got.law != edited.law {
		t.Errorf("reset after the re-applied edit: law %+v, want the edited one", got.law)
	}
}

// A resume that fails after the keyframe has replaced the shapes (its
// history replays a blockiness edit, then an edit this world refuses)
// leaves the run exactly as it was: the state file (kinematics, forces,
// contact history, edits, parameters, integrator state), every body's
// shape, the default law, the edit list and the reset overrides are the
// same bits, and the run then continues as a twin that never tried the
// resume (state files equal 10 steps on). Before the fix the failed resume
// left the keyframe's shapes, kinematics and history in the world.
func TestSimLoopFailedResumeRollsBack(t *testing.T) {
	run := func() *SimLoop {
		l := startLoop(t, smallSQ(), func(l *SimLoop) { l.KeyEvery = 5 })
		st := sync1(t, l)
		steps(t, l, 12)
		l.SetParam("contact.default.mu", 0.35)
		steps(t, l, 4)
		s := st.Shapes[0].Shape
		s.N1, s.N2 = 4, 3
		l.SetShape(st.Shapes[0].Material, s)
		steps(t, l, 6)
		return l
	}
	a, b := run(), run()
	before := bitsOf(t, a)
	if d := before.diff(bitsOf(t, b)); d != "" {
		t.Fatalf("the twin runs differ before the resume: %s", d)
	}
	// a keyframe whose edits replace the shapes, then fail (μ < 0)
	h := a.History()
	var tk float64
	onLoop(t, a, func(l *SimLoop) {
		k, ok := h.KeyframeAt(h.Time(8))
		if !ok {
			t.Error("no keyframe")
			return
		}
		data, err := k.Bytes()
		if err != nil {
			t.Error(err)
			return
		}
		f, err := state.Parse(data, "keyframe")
		if err != nil {
			t.Error(err)
			return
		}
		ms := l.shapes[0]
		bad := ms.Shape
		bad.N1, bad.N2 = 6, 6
		f.History.Edits = append(f.History.Edits,
			world.Edit{Time: k.Time, Material: ms.Name, Shape: &bad},
			world.Edit{Time: k.Time, Path: "contact.default.mu", Value: -1})
		h.mu.Lock()
		for i := range h.keys {
			if h.keys[i].Time == k.Time {
				h.keys[i] = NewKeyframe(k.Time, k.Step, k.Dt, k.Done, f)
			}
		}
		h.mu.Unlock()
		tk = k.Time
	})
	a.ResumeFrom(h.Time(9))
	st := sync1(t, a)
	if !st.StatusErr || !strings.Contains(st.Status, "resume refused") || !strings.Contains(st.Status, "contact.default.mu") {
		t.Fatalf("status %q: want the resume refused, naming the edit", st.Status)
	}
	after := bitsOf(t, a)
	if d := before.diff(after); d != "" {
		t.Fatalf("a resume from the keyframe at t=%g s that failed changed the run: %s", tk, d)
	}
	steps(t, a, 10)
	steps(t, b, 10)
	if d := bitsOf(t, a).diff(bitsOf(t, b)); d != "" {
		t.Fatalf("10 steps after the failed resume the run differs from its twin: %s", d)
	}
	t.Logf("failed resume (keyframe t=%g s): state file of %d bytes unchanged; identical to the twin 10 steps on", tk, len(after.file))
}
