package world

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/sq"
)

// sameShapes describes the first body whose kind, shape, mass, inertia or
// bounding radius differs in any bit between two worlds of the same bodies
// ("" if none).
func sameShapes(a, b []*body.Body) string {
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].SQ() != b[i].SQ() || a[i].Mass() != b[i].Mass() || a[i].IBody() != b[i].IBody() || a[i].R != b[i].R {
			return fmt.Sprintf("%s: %+v m %.17g vs %+v m %.17g", a[i].Name, a[i].SQ(), a[i].Mass(), b[i].SQ(), b[i].Mass())
		}
	}
	return ""
}

// restore is RestoreHistory of h with a step (the test worlds never stepped).
func restore(t *testing.T, w *World, h *History) {
	t.Helper()
	h.Dt = 1e-5
	if err := w.RestoreHistory(h); err != nil {
		t.Fatal(err)
	}
}

// Review r1 (resume, case b): RestoreHistory on a running world (the
// window's resume from a keyframe) replays the history's shape edits on the
// scene's shapes, as a restart does, not on the edited shapes the world
// holds: SetSmoothShape is relative for a polydisperse material (each body
// scaled by the first body's ratio), so replaying [s1, s2] on a world
// already at s2 took each other body through own·s1/s2·s2/s1 (1 ulp off in
// 4 of 800 bodies before the fix). Every body's shape, mass, inertia and
// radius must equal the restarted world's to the bit (tolerance 0), in 200
// random pairs of edits.
func TestResumeReplaysEditsOnSceneShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 200 {
		r := func() float64 { return 0.002 + 0.008*rng.Float64() }
		s1 := sq.Shape{A: r(), B: r(), C: r(), N1: 3, N2: 5}
		s2 := sq.Shape{A: r(), B: r(), C: r(), N1: 6, N2: 2.5}
		live, lb := polydisperse()
		for _, s := range []sq.Shape{s1, s2} {
			if err := live.SetSmoothShape(0, s); err != nil {
				t.Fatal(err)
			}
		}
		h := live.TakeHistory()
		fresh, fb := polydisperse()
		restore(t, fresh, h) // restart
		restore(t, live, h)  // resume
		if b := sameShapes(fb, lb); b != "" {
			t.Fatalf("pair %d: body %s (restart vs resume)", k, b)
		}
		if len(live.Edits) != 2 || len(fresh.Edits) != 2 {
			t.Fatalf("edits: resume %d, restart %d, want 2", len(live.Edits), len(fresh.Edits))
		}
	}
}

// Review (resume, case a): resuming from a history taken before a shape
// edit gives the bodies the scene's shapes back (to the bit: a fresh
// world's), not the edited ones with an edit list that no longer has the
// edit (a final.json written then restarted with other shapes than the run
// had). A history taken between two edits gives the first edit's shapes.
func TestResumeBeforeShapeEdit(t *testing.T) {
	live, lb := polydisperse()
	h0 := live.TakeHistory()
	s1 := sq.Shape{A: 0.005, B: 0.004, C: 0.002, N1: 3, N2: 3}
	s2 := sq.Shape{A: 0.003, B: 0.003, C: 0.003, N1: 2, N2: 2}
	if err := live.SetSmoothShape(0, s1); err != nil {
		t.Fatal(err)
	}
	h1 := live.TakeHistory()
	if err := live.SetSmoothShape(0, s2); err != nil {
		t.Fatal(err)
	}
	if err := live.SetSmoothShape(1, s1); err != nil {
		t.Fatal(err)
	}
	restore(t, live, h1)
	one, ob := polydisperse()
	if err := one.SetSmoothShape(0, s1); err != nil {
		t.Fatal(err)
	}
	if b := sameShapes(ob, lb); b != "" || len(live.Edits) != 1 {
		t.Fatalf("resumed between the edits: body %s differs from one edited once, %d edits", b, len(live.Edits))
	}
	restore(t, live, h0)
	_, fb := polydisperse()
	if b := sameShapes(fb, lb); b != "" || len(live.Edits) != 0 {
		t.Fatalf("resumed before the edits: body %s differs from the scene's, %d edits", b, len(live.Edits))
	}
}
