package app

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/render"
	"grainlab/render/mainthread"
	"grainlab/sim/snap"
	"grainlab/ui"
)

func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return toRGBA(img)
}

// strip counts the pixels of rows [y0, y1) and columns [0, x1) that differ
// (beyond tol per channel) between a and b, and the pixels there.
func strip(a, b *image.RGBA, x1, y0, y1, tol int) (diff, all int) {
	for y := y0; y < y1; y++ {
		for x := 0; x < x1; x++ {
			i := a.PixOffset(x, y)
			for k := 0; k < 3; k++ {
				if d := int(a.Pix[i+k]) - int(b.Pix[i+k]); d > tol || d < -tol {
					diff++
					break
				}
			}
			all++
		}
	}
	return diff, all
}

// TestWindowTimeline drives the real window (hidden, under Xvfb): a scene
// stepped into contact is recorded; ← shows the frame before the newest;
// the time bar is drawn under the view; scrubbed to a past time t the window
// shows the same picture as `grainlab shot SCENE --time t` (the renderer is
// handed the past snapshot: bodies, contacts and force arrows); → at the
// newest frame goes live again and, live, steps the simulation.
func TestWindowTimeline(t *testing.T) {
	mainthread.NeedDisplay(t)
	o := smallScene("8")
	s, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	loop := NewSimLoop(s, o)
	loop.Start()
	defer loop.Close()
	for st := loop.State(); st.Snap.Stats.Contacts < 4 && st.Snap.Stats.Time < 2; st = loop.State() {
		steps(t, loop, 200)
	}
	steps(t, loop, 40)
	h := loop.History()
	n := h.Len()
	k := n - 30
	past, _ := h.Frame(k)
	tk := h.Time(k)
	if past.Stats.Contacts == 0 {
		t.Fatalf("frame %d (t=%g s) has no contacts", k, tk)
	}
	const W, H = 800, 500
	dir := t.TempDir()
	shotPNG := filepath.Join(dir, "shot.png")
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	var skip string
	onMain(func() {
		args := []string{"shot", DefaultScene, "--time", fmt.Sprintf("%.17g", tk), "--size", fmt.Sprintf("%dx%d", W, H),
			"--out", shotPNG, "--quiet", "--workers", "2"}
		for _, set := range o.Sets {
			args = append(args, "--set", set)
		}
		var so, se strings.Builder
		if code := Main(args, &so, &se); code != ExitOK {
			if strings.Contains(se.String(), "cannot open a window") {
				skip = se.String()
				return
			}
			fail("grainlab shot: exit %d: %s", code, se.String())
			return
		}
		win, err := openWindow(W, H, "grainlab test", false)
		if err != nil {
			skip = err.Error()
			return
		}
		defer glfw.Terminate()
		defer win.Destroy()
		r, err := render.New()
		if err != nil {
			fail("%v", err)
			return
		}
		defer r.Close()
		u, err := ui.New(win)
		if err != nil {
			fail("%v", err)
			return
		}
		defer u.Close()
		w := newWindow(win, r, u, loop, viewOptions{Options: o, MaxFPS: 60, Share: DefaultRenderShare}, watchInput(win))
		w.testCursor = true
		w.shotDir = dir
		frames := func(m int) {
			for i := 0; i < m; i++ {
				w.frameStart = time.Now()
				w.frame()
			}
		}
		grab := func() *image.RGBA {
			w.shotReq = true
			frames(1)
			select {
			case msg := <-w.shots:
				p, ok := strings.CutPrefix(msg, "screenshot saved to ")
				if !ok {
					fail("%s", msg)
					return nil
				}
				return readPNG(t, p)
			case <-time.After(10 * time.Second):
				fail("no screenshot")
				return nil
			}
		}
		frames(3)
		if !w.tl.Live || w.shown != loop.Latest() {
			fail("the window does not start live")
		}
		// ← shows the frame before the newest
		w.key(glfw.KeyLeft, 0, glfw.Press, 0)
		frames(1)
		if w.tl.Live || w.shownIdx != n-2 || w.shown != mustFrame(h, n-2) {
			fail("←: live %v, shown frame %d, want %d", w.tl.Live, w.shownIdx, n-2)
		}
		w.key(glfw.KeyLeft, 0, glfw.Press, 0)
		frames(1)
		if w.shownIdx != n-3 {
			fail("← ×2: shown frame %d, want %d", w.shownIdx, n-3)
		}

		// scrub to t_k; the same view and camera as the shot
		w.tl.Seek(tk)
		frames(1)
		if w.shown != past {
			fail("scrubbed to t=%g: shown frame t=%g, want frame %d", tk, w.shown.Stats.Time, k)
		}
		fbw, fbh := win.GetFramebufferSize()
		w.view = shotView(past, ShotOptions{})
		w.cam = shotCamera(past, ShotOptions{}, fbw, fbh)
		withBar := grab()
		w.hidePanel = true
		bare := grab()
		shot := readPNG(t, shotPNG)
		if withBar == nil || bare == nil {
			return
		}
		if bare.Bounds() != shot.Bounds() {
			fail("window %v, shot %v", bare.Bounds(), shot.Bounds())
			return
		}
		d := countDiff(bare, shot, 24)
		all := bare.Bounds().Dx() * bare.Bounds().Dy()
		frac := float64(d) / float64(all)
		t.Logf("window scrubbed to t=%.6g s vs shot --time: %d of %d pixels differ by > 24/255 (%.3f%%); %d contacts", tk, d, all, 100*frac, past.Stats.Contacts)
		if frac > 0.0005 { // the live frame, 30 steps later, differs in 0.35%
			fail("window at t=%g and shot differ in %.3f%% of the pixels (> 0.05%%)", tk, 100*frac)
		}
		// the time bar: the strip under the view changes when it is drawn
		bar, px := strip(withBar, bare, W/2, H-ui.TimeBarHeight, H-8, 10)
		t.Logf("time bar strip: %d of %d pixels differ from the bare view", bar, px)
		if float64(bar) < 0.3*float64(px) {
			fail("no time bar under the view: %d of %d pixels changed", bar, px)
		}
		w.hidePanel = false

		// → up to the newest frame goes live; live, → steps the simulation
		w.tl.Seek(h.Time(n - 2))
		frames(1)
		w.key(glfw.KeyRight, 0, glfw.Press, 0)
		frames(1)
		if !w.tl.Live {
			fail("→ onto the newest frame did not go live")
		}
		step := loop.Latest().Stats.Step
		w.key(glfw.KeyRight, 0, glfw.Press, 0)
		if !loop.Sync(30 * time.Second) {
			fail("sync")
		}
		frames(1)
		if got := loop.Latest().Stats.Step; got != step+1 || h.Len() != n+1 {
			fail("→ live: step %d → %d, history %d → %d frames", step, got, n, h.Len())
		}
		// playback at 1000× reaches the live edge
		w.tl.Seek(h.Time(0))
		w.tl.Factor = 1000
		w.togglePlayback()
		for i := 0; i < 200 && !w.tl.Live; i++ {
			frames(1)
			time.Sleep(5 * time.Millisecond)
		}
		if !w.tl.Live {
			fail("playback at 1000x did not reach the live edge: t=%g of %g", w.tl.T, h.Time(h.Len()-1))
		}
	})
	if skip != "" {
		t.Skip(skip)
	}
	for _, e := range errs {
		t.Error(e)
	}
}

func mustFrame(h *History, i int) *snap.Snapshot {
	s, _ := h.Frame(i)
	return s
}
