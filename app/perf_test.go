package app

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/render"
	"grainlab/ui"
)

// TestPerfWindow measures, on the default scene (300 tetrapods) advanced to
// GRAINLAB_PERF seconds (e.g. GRAINLAB_PERF=1): the frame time of the window
// at 1280×800 with the panel and every overlay on, and the simulation rate
// with the window open against headless stepping of the same run, in
// alternating segments (headless, window, window, headless) of
// GRAINLAB_PERF_SEG seconds (default 8) so that the slow growth of the
// contact count cancels. It only runs when GRAINLAB_PERF is set.
func TestPerfWindow(t *testing.T) {
	env := os.Getenv("GRAINLAB_PERF")
	if env == "" {
		t.Skip("set GRAINLAB_PERF=T (simulated seconds before measuring) to run")
	}
	needDisplay(t)
	t0, err := strconv.ParseFloat(env, 64)
	if err != nil {
		t.Fatal(err)
	}
	seg := 8 * time.Second
	if v := os.Getenv("GRAINLAB_PERF_SEG"); v != "" {
		if seg, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Scene: DefaultScene, Time: 1e6}
	s, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := s.StepTo(t0, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("advanced to t=%.3g s in %.1f s (%d contacts)", s.World.Time, time.Since(start).Seconds(), s.World.Stats.Contacts)
	onMain(func() {
		win, err := openWindow(WindowWidth, WindowHeight, "grainlab perf", true)
		if err != nil {
			t.Error(err)
			return
		}
		defer glfw.Terminate()
		defer win.Destroy()
		r, err := render.New()
		if err != nil {
			t.Error(err)
			return
		}
		defer r.Close()
		u, err := ui.New(win)
		if err != nil {
			t.Error(err)
			return
		}
		defer u.Close()
		loop := NewSimLoop(s, o)
		loop.OnPublish = glfw.PostEmptyEvent
		loop.SetSpeed(1, true)
		loop.Start()
		defer loop.Close()
		vo := viewOptions{Options: o, MaxFPS: 60, Share: DefaultRenderShare}
		w := newWindow(win, r, u, loop, vo)
		AllOverlays(&w.view)

		// frame time, paused, panel and every overlay on
		for i := 0; i < 3; i++ {
			w.frame()
		}
		gl.Finish()
		const n = 20
		ft := time.Now()
		for i := 0; i < n; i++ {
			w.cam.Orbit(2, 0)
			w.frame()
			gl.Finish()
		}
		ms := time.Since(ft).Seconds() * 1e3 / n
		sn := loop.Latest()
		fbw, fbh := win.GetFramebufferSize()
		t.Logf("frame at %dx%d, %d bodies, %d contacts (%d suppressed), panel + all overlays: %.1f ms (%+v)",
			fbw, fbh, len(sn.Bodies)-len(sn.Walls), sn.Stats.Contacts, sn.Stats.Suppressed, ms, r.Stats())
		hidden := w.hidePanel
		w.hidePanel = true
		ft = time.Now()
		for i := 0; i < n; i++ {
			w.cam.Orbit(2, 0)
			w.frame()
			gl.Finish()
		}
		t.Logf("same without the panel: %.1f ms", time.Since(ft).Seconds()*1e3/n)
		w.hidePanel = hidden

		headless := func() (steps int64, wall time.Duration, contacts int64) {
			loop.Pause()
			loop.Sync(time.Minute)
			// the loop goroutine is idle: step the world directly, as `grainlab run` does
			wd := s.World
			st0 := wd.Steps
			begin := time.Now()
			s.StepTo(1e6, func() bool {
				contacts += int64(wd.Stats.Contacts)
				return time.Since(begin) >= seg
			})
			return wd.Steps - st0, time.Since(begin), contacts
		}
		windowed := func() (steps int64, wall time.Duration) {
			st := loop.State()
			s0, w0 := st.RunSteps, st.RunWall
			loop.Play()
			w.opts.ExitAfter = seg
			w.lastInput = time.Time{}
			w.run()
			loop.Pause()
			loop.Sync(time.Minute)
			st = loop.State()
			return st.RunSteps - s0, st.RunWall - w0
		}
		var hs, ws int64
		var hw, ww time.Duration
		frames0 := w.frames
		for _, mode := range []string{"headless", "window", "window", "headless"} {
			if mode == "headless" {
				st, wl, c := headless()
				hs, hw = hs+st, hw+wl
				t.Logf("headless: %d steps in %.2f s = %.1f steps/s (%.0f contacts/step)", st, wl.Seconds(), float64(st)/wl.Seconds(), float64(c)/float64(max(st, 1)))
			} else {
				f := w.frames
				st, wl := windowed()
				ws, ww = ws+st, ww+wl
				t.Logf("window:   %d steps in %.2f s = %.1f steps/s, %d frames", st, wl.Seconds(), float64(st)/wl.Seconds(), w.frames-f)
			}
		}
		hr, wr := float64(hs)/hw.Seconds(), float64(ws)/ww.Seconds()
		t.Logf("simulation rate: headless %.1f steps/s, window open %.1f steps/s (%.1f%%), %.2f fps while running",
			hr, wr, 100*(wr/hr-1), float64(w.frames-frames0)/ww.Seconds())
	})
}
