package window

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/render/mainthread"
	"grainlab/sim/snap"
	"grainlab/ui"
)

// GL must run on the main OS thread (locked in window.go's init): TestMain
// runs the tests on another goroutine and serves onMain calls here.
func TestMain(m *testing.M) {
	Register() // app.Main runs view, shot and export --frames as the GL build does
	os.Exit(mainthread.Run(m.Run))
}

func onMain(f func()) { mainthread.Call(f) }

// TestWindowInteraction drives the real window code (hidden window): frames
// with the panel, keys, a click that selects a body, a Ctrl-drag spring, a
// wall toggle and a broken scene file from the panel.
func TestWindowInteraction(t *testing.T) {
	withLoopWindow(t, smallScene("8"), 800, 500, viewOptions{}, func(w *window, fail func(string, ...any)) {
		loop := w.loop
		w.testCursor = true
		frames := w.drawFrames
		synced := func() *app.LoopState { return w.syncedFrame(fail) }
		frames(3)
		if e := gl.GetError(); e != gl.NO_ERROR {
			fail("GL error 0x%x", e)
		}

		// Space plays, Space pauses, → steps
		w.key(glfw.KeySpace, 0, glfw.Press, 0)
		if st := synced(); !st.Playing {
			fail("Space did not play")
		}
		w.key(glfw.KeySpace, 0, glfw.Press, 0)
		st := synced()
		if st.Playing {
			fail("Space did not pause")
		}
		step := st.Snap.Stats.Step
		w.key(glfw.KeyRight, 0, glfw.Press, 0)
		w.key(glfw.KeyRight, 0, glfw.Repeat, 0)
		if st := synced(); st.Snap.Stats.Step != step+2 {
			fail("→ ×2: step %d → %d", step, st.Snap.Stats.Step)
		}
		// 1 toggles VF contacts, H hides the panel
		w.key(glfw.Key1, 0, glfw.Press, 0)
		w.key(glfw.KeyH, 0, glfw.Press, 0)
		frames(1)
		if w.view.KindFilter[snap.VF] || !w.hidePanel {
			fail("keys 1/H: filter %v hidden %v", w.view.KindFilter[snap.VF], w.hidePanel)
		}
		w.key(glfw.Key1, 0, glfw.Press, 0)
		w.key(glfw.KeyH, 0, glfw.Press, 0)

		// click on a body selects it
		sn := loop.Latest()
		ww, wh := w.win.GetSize()
		b := firstFree(sn)
		x, y, ok := w.cam.Project(sn.Bodies[b].Pos, ww, wh)
		if !ok {
			fail("body %d not in view", b)
			return
		}
		w.cursorPos(x, y)
		w.mouseButton(glfw.MouseButtonLeft, glfw.Press, 0)
		w.mouseButton(glfw.MouseButtonLeft, glfw.Release, 0)
		if w.view.SelectedBody < 0 {
			fail("click at (%.0f, %.0f) on body %d selected nothing", x, y, b)
		}
		frames(2)

		// Ctrl-drag pulls a body with a spring
		hit := -1
		for i := range sn.Bodies {
			if sn.Bodies[i].Fixed {
				continue
			}
			x, y, ok = w.cam.Project(sn.Bodies[i].Pos, ww, wh)
			if !ok {
				continue
			}
			w.cursorPos(x, y)
			w.mouseButton(glfw.MouseButtonLeft, glfw.Press, glfw.ModControl)
			if w.drag == dragSpring {
				hit = w.springBody
				break
			}
			w.mouseButton(glfw.MouseButtonLeft, glfw.Release, glfw.ModControl)
		}
		if hit < 0 {
			fail("Ctrl-click hit no body")
			return
		}
		z0 := sn.Bodies[hit].Pos.Z
		w.cursorPos(x, y-120) // drag upwards
		loop.SetSpeed(1, true)
		loop.Play()
		t0 := loop.State().Snap.Stats.Time
		for i := 0; i < 200 && loop.State().Snap.Stats.Time < t0+0.3; i++ {
			frames(1)
			time.Sleep(10 * time.Millisecond)
		}
		st = synced()
		if !st.Spring || !w.view.SpringActive {
			fail("spring not active: loop %v view %v", st.Spring, w.view.SpringActive)
		}
		if z := st.Snap.Bodies[hit].Pos.Z; !(z > z0+0.05) {
			fail("the spring did not lift body %d: z %.3f → %.3f", hit, z0, z)
		}
		t.Logf("spring lifted body %d from z=%.3f to %.3f m; selected body %d", hit, z0, st.Snap.Bodies[hit].Pos.Z, w.view.SelectedBody)
		w.mouseButton(glfw.MouseButtonLeft, glfw.Release, glfw.ModControl)
		loop.Pause()
		if st = synced(); st.Spring || w.view.SpringActive {
			fail("spring still on after release")
		}

		// the panel's wall toggle and a broken scene file
		w.apply(&ui.Actions{Walls: []ui.WallToggle{{Name: "left", Enabled: false}}}, loop.Latest())
		st = synced()
		for _, wl := range st.Snap.Walls {
			if wl.Name == "left" && wl.Enabled {
				fail("wall left still enabled")
			}
		}
		bad := filepath.Join(t.TempDir(), "bad.yaml")
		os.WriteFile(bad, []byte("name: x\ntime: [1\n"), 0o644)
		w.apply(&ui.Actions{OpenFile: bad}, loop.Latest())
		st = synced()
		if !w.statusErr || !strings.Contains(w.status, "bad.yaml:") || st.Gen != 1 {
			fail("broken file: status %q (error %v), gen %d", w.status, w.statusErr, st.Gen)
		}
		// an invalid law never reaches the simulation; R resets
		law := PanelLaw(st.Law)
		law.Normal.N2 = 1
		w.apply(&ui.Actions{Law: &law}, loop.Latest())
		w.key(glfw.KeyR, 0, glfw.Press, 0)
		st = synced()
		if st.Gen != 2 || st.Law.Normal.N2 >= 0 || !strings.Contains(w.status, "n2") && !strings.Contains(w.status, "reset") {
			fail("after bad law + reset: gen %d n2 %g status %q", st.Gen, st.Law.Normal.N2, w.status)
		}
		frames(2)
		if e := gl.GetError(); e != gl.NO_ERROR {
			fail("GL error 0x%x", e)
		}
		t.Logf("status after the broken file, the bad law and R: %q", w.status)

		// S saves a screenshot of the window (kept in GRAINLAB_SHOT_DIR when set)
		w.shotDir = t.TempDir()
		if d := os.Getenv("GRAINLAB_SHOT_DIR"); d != "" {
			w.shotDir = d
		}
		w.view.SelectedBody = hit
		w.key(glfw.KeyS, 0, glfw.Press, 0)
		frames(1)
		select {
		case msg := <-w.shots:
			if !strings.HasPrefix(msg, "screenshot saved to ") {
				fail("screenshot: %s", msg)
			} else if _, err := os.Stat(strings.TrimPrefix(msg, "screenshot saved to ")); err != nil {
				fail("screenshot: %v", err)
			} else {
				t.Log(msg)
			}
		case <-time.After(60 * time.Second):
			fail("no screenshot written")
		}
	})
}
