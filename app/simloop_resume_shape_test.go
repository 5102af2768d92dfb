package app

import (
	"testing"

	"grainlab/sim/sq"
)

// A resume from a frame before a shape edit gives the bodies the scene's
// shapes back (the keyframe's: world.RestoreHistory replays its edits on
// the scene's shapes), and the loop follows: the Shapes panel shows the
// scene's shape, the mean mass is the scene's (to 1e-12), and a reset
// after it starts the scene without the dropped edit. Before the fix the
// bodies kept the edited shape while the edit list was the keyframe's.
func TestSimLoopResumeBeforeShapeEdit(t *testing.T) {
	l := startLoop(t, smallSQ())
	st := sync1(t, l)
	want, m0 := st.Shapes[0].Shape, st.MeanMass
	steps(t, l, 20)
	tf := l.History().Time(5)
	ns := sq.Shape{A: 0.0035, B: 0.0028, C: 0.002, N1: 6, N2: 3}
	l.SetShape(st.Shapes[0].Material, ns)
	steps(t, l, 10)
	if st = sync1(t, l); st.Shapes[0].Shape != ns {
		t.Fatalf("edit: shapes %+v", st.Shapes)
	}
	l.ResumeFrom(tf)
	st = sync1(t, l)
	if st.StatusErr {
		t.Fatalf("resume: %s", st.Status)
	}
	if st.Shapes[0].Shape != want || st.Shapes[0].Varied {
		t.Fatalf("resumed before the edit: shapes %+v, want the scene's %+v", st.Shapes, want)
	}
	if d := st.MeanMass/m0 - 1; d > 1e-12 || d < -1e-12 {
		t.Errorf("resumed before the edit: mean mass %.17g, want the scene's %.17g", st.MeanMass, m0)
	}
	l.Reset()
	if st = sync1(t, l); st.Shapes[0].Shape != want {
		t.Errorf("reset after the resume: shapes %+v, want the scene's %+v", st.Shapes, want)
	}
}
