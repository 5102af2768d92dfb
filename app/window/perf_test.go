package window

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/render"
	"grainlab/render/mainthread"
	"grainlab/ui"
)

// TestPerfWindow measures, on the default scene (300 tetrapods) advanced to
// GRAINLAB_PERF seconds (e.g. GRAINLAB_PERF=1), or from its packed state
// with the walls going (GRAINLAB_PERF=packed): the frame time of the window
// at 1280×800 with the panel and every overlay on, and the simulation rate
// with the window open against headless stepping of the same run, in
// alternating segments (GRAINLAB_PERF_PATTERN, default HWWH: headless,
// window, window, headless; L: the simulation goroutine without frames) of
// GRAINLAB_PERF_SEG each (default 8s) so that a slow drift of the contact
// count cancels. It only runs when GRAINLAB_PERF is set.
func TestPerfWindow(t *testing.T) {
	env := os.Getenv("GRAINLAB_PERF")
	if env == "" {
		t.Skip("set GRAINLAB_PERF=T (simulated seconds before measuring) to run")
	}
	mainthread.NeedDisplay(t)
	o := app.Options{Scene: app.DefaultScene, Time: 1e6}
	t0 := 0.0
	if env == "packed" {
		o.Restart = "builtin:" + app.DefaultPacked // the collapse: a steady contact count
	} else {
		var err error
		if t0, err = strconv.ParseFloat(env, 64); err != nil {
			t.Fatal(err)
		}
	}
	seg := 8 * time.Second
	if v := os.Getenv("GRAINLAB_PERF_SEG"); v != "" {
		var err error
		if seg, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := app.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := s.StepTo(t0, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("advanced to t=%.3g s in %.1f s (%d contacts)", s.World.Time, time.Since(start).Seconds(), s.World.Stats.Contacts)
	withGLWindow(t, WindowWidth, WindowHeight, "grainlab perf", true, func(win *glfw.Window, r *render.Renderer) {
		input := watchInput(win)
		u, err := ui.New(win)
		if err != nil {
			t.Error(err)
			return
		}
		defer u.Close()
		loop := app.NewSimLoop(s, o)
		loop.OnPublish = glfw.PostEmptyEvent
		loop.SetSpeed(1, true)
		loop.Start()
		defer loop.Close()
		vo := viewOptions{Options: o, MaxFPS: 60, Share: DefaultRenderShare}
		w := newWindow(win, r, u, loop, vo, input)
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
			w.input.last = time.Time{}
			w.run()
			loop.Pause()
			loop.Sync(time.Minute)
			st = loop.State()
			return st.RunSteps - s0, st.RunWall - w0
		}
		loopOnly := func() (steps int64, wall time.Duration) {
			st := loop.State()
			s0, w0 := st.RunSteps, st.RunWall
			loop.Play()
			time.Sleep(seg)
			loop.Pause()
			loop.Sync(time.Minute)
			st = loop.State()
			return st.RunSteps - s0, st.RunWall - w0
		}
		pattern := os.Getenv("GRAINLAB_PERF_PATTERN")
		if pattern == "" {
			pattern = "HWWH"
		}
		var steps [3]int64
		var walls [3]time.Duration
		frames0 := w.frames
		for _, mode := range pattern {
			var st int64
			var wl time.Duration
			switch mode {
			case 'H':
				var c int64
				st, wl, c = headless()
				steps[0], walls[0] = steps[0]+st, walls[0]+wl
				t.Logf("headless: %5d steps in %.2f s = %6.1f steps/s (%.0f contacts/step)", st, wl.Seconds(), float64(st)/wl.Seconds(), float64(c)/float64(max(st, 1)))
			case 'W':
				f := w.frames
				st, wl = windowed()
				steps[1], walls[1] = steps[1]+st, walls[1]+wl
				t.Logf("window:   %5d steps in %.2f s = %6.1f steps/s, %d frames", st, wl.Seconds(), float64(st)/wl.Seconds(), w.frames-f)
			case 'L':
				st, wl = loopOnly()
				steps[2], walls[2] = steps[2]+st, walls[2]+wl
				t.Logf("loop:     %5d steps in %.2f s = %6.1f steps/s (no frames)", st, wl.Seconds(), float64(st)/wl.Seconds())
			}
		}
		rate := func(i int) float64 { return float64(steps[i]) / walls[i].Seconds() }
		t.Logf("simulation rate: headless %.1f steps/s, window open %.1f steps/s (%+.1f%%), sim goroutine without frames %.1f steps/s; %.2f fps while running",
			rate(0), rate(1), 100*(rate(1)/rate(0)-1), rate(2), float64(w.frames-frames0)/walls[1].Seconds())
	})
}
