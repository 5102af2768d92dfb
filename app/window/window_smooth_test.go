package window

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"

	"grainlab/app"
	"grainlab/ui"
)

// TestWindowSmoothScene drives the real window code on a superquadric
// scene with every panel section open: frames draw without GL errors, the
// panel's shape, smooth-law, integrator and compatible-toggle actions reach
// the simulation (and an invalid shape is refused there), and the body mesh
// follows the edited shape.
func TestWindowSmoothScene(t *testing.T) {
	withLoopWindow(t, smallSQ(), 1000, 760, viewOptions{}, func(w *window, fail func(string, ...any)) {
		loop := w.loop
		w.panel.ExpandAll = true
		frames := w.drawFrames
		synced := func() *app.LoopState { return w.syncedFrame(fail) }
		for i := 0; i < 30; i++ {
			loop.Step()
		}
		st := synced()
		frames(3)
		if e := gl.GetError(); e != gl.NO_ERROR {
			fail("GL error 0x%x", e)
		}
		if w.panel.History().Dt.Len() == 0 {
			fail("no Δt history")
		}

		// the panel's actions, as Draw returns them
		m := PanelShapes(st.Shapes)[0]
		m.N1, m.N2, m.A = 3, 5, 0.0035
		on := true
		w.apply(&ui.Actions{
			Material: &ui.MaterialEdit{Index: m.Index, Material: m},
			Params:   []ui.ParamEdit{{Key: "mu", Value: 0.25}, {Key: "restitution", Value: 0.7}},
		}, st.Snap)
		st = synced()
		if st.Shapes[0].Shape != ShapeOf(m) || st.Law.Smooth.Mu != 0.25 || st.Law.Smooth.Restitution != 0.7 {
			fail("after the panel edits: shape %+v, mu %g, e %g (status %q)", st.Shapes[0].Shape, st.Law.Smooth.Mu, st.Law.Smooth.Restitution, st.Status)
		}
		b := st.Snap.Bodies[firstFree(st.Snap)]
		if name := st.Snap.Meshes[b.Mesh].Name; !strings.Contains(name, "n=3,5") {
			fail("body mesh %q after the shape edit", name)
		}
		w.apply(&ui.Actions{Compatible: &on}, st.Snap)
		st = synced()
		if st.StatusErr || !strings.Contains(st.Status, "no classic/compatible") {
			fail("compatible toggle: %q", st.Status)
		}
		bad := m
		bad.N1 = 1
		w.apply(&ui.Actions{Material: &ui.MaterialEdit{Index: m.Index, Material: bad}}, st.Snap)
		st = synced()
		if !st.StatusErr || st.Shapes[0].Shape != ShapeOf(m) {
			fail("invalid shape: status %q, shape %+v", st.Status, st.Shapes[0].Shape)
		}
		loop.Play()
		time.Sleep(100 * time.Millisecond)
		frames(3)
		loop.Pause()
		synced()
		frames(2)
		if e := gl.GetError(); e != gl.NO_ERROR {
			fail("GL error 0x%x", e)
		}
		if d := os.Getenv("GRAINLAB_SHOT_DIR"); d != "" { // for looking at the panel
			w.shotDir, w.shotReq = d, true
			frames(1)
			select {
			case msg := <-w.shots:
				t.Log(msg)
			case <-time.After(60 * time.Second):
			}
		}
	})
}
