package window

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"

	"grainlab/app"
	"grainlab/render"
)

// TestCompareGhost (display): the cube drop (S0 ex. 1a, undamped) run with
// explicit and compared with contact dynamics (inelastic impacts: the cube
// stops bouncing) through the window's code: at t ≈ 0.8 s the frame with
// the ghost overlay differs from the main view alone, and with the same
// integrator the ghost coincides with the bodies and the frame equals the
// main view within 0.5 % of its pixels. The window's frame (panel with the
// Compare section open) runs without GL errors.
func TestCompareGhost(t *testing.T) {
	const W, H = 640, 400
	withUI(t, W, H, func(g uiParts, fail func(string, ...any)) {
		for _, c := range []struct {
			with     string
			differs  bool
			minShare float64
		}{{"cd", true, 0.005}, {"", false, 0}} {
			o := app.Options{Scene: "cube-drop-a", Integrator: "explicit", Workers: 1, Time: 0.81} // pauses there
			s, err := app.Load(o)
			if err != nil {
				fail("%v", err)
				return
			}
			loop := app.NewSimLoop(s, o)
			loop.PublishInterval = 4 * time.Millisecond
			loop.Start()
			w := newWindow(g.win, g.r, g.u, loop, viewOptions{Options: o, MaxFPS: 60, Share: DefaultRenderShare}, g.input)
			w.panel.ExpandAll = true
			if err := w.cmp.start(loop, o, app.CompareConfig{Integrator: c.with}); err != nil {
				fail("start: %v", err)
			}
			loop.SetSpeed(1, true)
			loop.Play()
			deadline := time.Now().Add(120 * time.Second)
			for {
				if p := w.cmp.c.Pair(); p.Err != "" || (p.Main != nil && p.TimeA >= 0.805) || time.Now().After(deadline) {
					break
				}
				w.frameStart = time.Now()
				w.frame()
			}
			loop.Pause()
			loop.Sync(30 * time.Second)
			p := w.cmp.c.Pair()
			if p.Err != "" || p.Main == nil || p.TimeA < 0.805 {
				fail("%q: comparison at t=%g, err %q", c.with, p.TimeA, p.Err)
				w.cmp.stop()
				loop.Close()
				continue
			}
			w.frameStart = time.Now()
			w.frame() // the hooks: shown snapshot, ghost, panel section
			if w.shown != p.Main && w.shown != w.cmp.c.Pair().Main {
				fail("%q: the frame did not show the compared snapshot", c.with)
			}
			if e := gl.GetError(); e != gl.NO_ERROR {
				fail("%q: GL error 0x%x", c.with, e)
			}
			if dir := os.Getenv("GRAINLAB_SHOT_DIR"); dir != "" { // the window with the panel
				w.shotDir, w.shotReq = dir, true
				w.frame()
				select {
				case msg := <-w.shots:
					t.Log(msg)
				case <-time.After(60 * time.Second):
				}
			}
			cam := render.NewCamera()
			cam.Aspect = float64(W) / H
			fitBodies(cam, p.Main)
			view := AppView()
			g.r.Draw(p.Main, &view, cam, W, H)
			plain := render.Screenshot(W, H)
			g.r.Draw(p.Main, &view, cam, W, H)
			n := g.r.DrawGhost(p.Second, &view, cam, W, H)
			ghost := render.Screenshot(W, H)
			if dir := os.Getenv("GRAINLAB_SHOT_DIR"); dir != "" { // to look at them
				_ = writePNG(filepath.Join(dir, "compare-"+c.with+"-plain.png"), plain)
				_ = writePNG(filepath.Join(dir, "compare-"+c.with+"-ghost.png"), ghost)
			}
			diff := pixelDiff(plain, ghost, 12)
			share := float64(diff) / float64(W*H)
			t.Logf("compare %q at t=%.3g s: max |dx| %.3g m, %d ghost bodies, %d of %d pixels differ (%.2f%%); %s, %d start(s), %s",
				c.with, p.TimeA, p.MaxDiff, n, diff, W*H, 100*share, p.Second.Stats.Integrator, p.Starts, p.Status)
			if n != 1 {
				fail("%q: %d ghost bodies drawn, want the cube", c.with, n)
			}
			if c.differs && share < c.minShare {
				fail("%q: the ghost changes only %.3f%% of the pixels (max |dx| %g m)", c.with, 100*share, p.MaxDiff)
			}
			if !c.differs && share > 0.005 {
				fail("same integrator: the ghost changes %.3f%% of the pixels (> 0.5%%)", 100*share)
			}
			w.cmp.stop()
			loop.Close()
		}
	})
}

// pixelDiff counts the pixels whose colour differs by more than tol in a channel.
func pixelDiff(a, b *image.RGBA, tol int) int {
	n := 0
	for i := 0; i+3 < len(a.Pix) && i+3 < len(b.Pix); i += 4 {
		for k := range 3 {
			if d := int(a.Pix[i+k]) - int(b.Pix[i+k]); d > tol || d < -tol {
				n++
				break
			}
		}
	}
	return n
}

// `grainlab view` refuses bad comparison flags before opening a window
// (exit 2, the message names the flag).
func TestCompareFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"view", "cube-drop-a", "--compare", "rk4"}, `--compare "rk4": unknown integrator`},
		{[]string{"view", "cube-drop-a", "--compare-set", "mu_s"}, "--compare-set"},
		{[]string{"view", "cube-drop-a", "--compare-set", "nope=1"}, "--compare-set"},
	} {
		var out, errb bytes.Buffer
		code := app.Main(c.args, &out, &errb)
		if code != app.ExitInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errb.String())
		}
	}
}
