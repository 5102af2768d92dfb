package window

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/render"
	"grainlab/render/mainthread"
	"grainlab/sim/snap"
	"grainlab/ui"
)

// The scenes and steps of app's SimLoop tests (simloop_test.go,
// simloop_smooth_test.go, history_test.go), for the window's tests: test
// helpers are not shared across packages.

// smallScene is the default scene with n tetrapods in a smaller box.
func smallScene(n string) app.Options {
	return app.Options{Scene: app.DefaultScene, Workers: 2, Sets: []string{
		"generators.fill.count=" + n,
		"generators.fill.region.max=[3.2,3.2,3]",
	}}
}

// smallSQ is sq-settling with 20 superquadrics.
func smallSQ() app.Options {
	return app.Options{Scene: "sq-settling", Workers: 2, Sets: []string{
		"generators.p.count=20",
		"generators.p.region.min=[0.03,0.03,0.005]",
		"generators.p.region.max=[0.07,0.07,0.03]",
	}}
}

// startLoop loads o and starts its simulation goroutine (closed at the
// end of the test).
func startLoop(t *testing.T, o app.Options, configure ...func(*app.SimLoop)) *app.SimLoop {
	t.Helper()
	s, err := app.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	l := app.NewSimLoop(s, o)
	for _, f := range configure {
		f(l)
	}
	l.Start()
	t.Cleanup(l.Close)
	return l
}

// sync1 waits for the simulation goroutine and returns its state.
func sync1(t *testing.T, l *app.SimLoop) *app.LoopState {
	t.Helper()
	if !l.Sync(30 * time.Second) {
		t.Fatal("the simulation goroutine did not answer")
	}
	return l.State()
}

// steps single-steps l n times and waits.
func steps(t *testing.T, l *app.SimLoop, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		l.Step()
	}
	sync1(t, l)
}

// mkSnap is a snapshot of step i at time t with nb bodies and nc contacts.
func mkSnap(i int64, t float64, nb, nc int) *snap.Snapshot {
	s := &snap.Snapshot{Bodies: make([]snap.Body, nb), Contacts: make([]snap.Contact, nc)}
	s.Stats.Step, s.Stats.Time = i, t
	return s
}

// firstFree returns the index of the first free body of s (-1: none).
func firstFree(s *snap.Snapshot) int {
	for i := range s.Bodies {
		if !s.Bodies[i].Fixed {
			return i
		}
	}
	return -1
}

// onMainCollect runs f on the main thread with a fail that collects
// messages; f returns why the test must skip ("": it ran). Then the test
// skips, or reports each collected message as an error.
func onMainCollect(t *testing.T, f func(fail func(string, ...any)) (skip string)) {
	t.Helper()
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	var skip string
	onMain(func() { skip = f(fail) })
	if skip != "" {
		mainthread.NoWindow(t, skip)
	}
	for _, e := range errs {
		t.Error(e)
	}
}

// uiParts is a hidden test window with its renderer, panel and input clock
// (openUISized's results), for newWindow.
type uiParts struct {
	win   *glfw.Window
	r     *render.Renderer
	u     *ui.UI
	input *inputClock
}

// withUI opens a hidden width×height window with openUISized and runs f
// on the main thread (closing the window after it); it skips when no
// window opens and reports f's fail messages as errors.
func withUI(t *testing.T, width, height int, f func(p uiParts, fail func(string, ...any))) {
	t.Helper()
	mainthread.NeedDisplay(t)
	onMainCollect(t, func(fail func(string, ...any)) string {
		win, r, u, input, closeUI, err := openUISized(width, height, "grainlab test", false)
		if errors.Is(err, errNoWindow) {
			return err.Error()
		}
		if err != nil {
			fail("%v", err)
			return ""
		}
		defer closeUI()
		f(uiParts{win, r, u, input}, fail)
		return ""
	})
}

// withLoopWindow loads o, opens a hidden width×height window on a SimLoop
// of it (paused; vo with Options o, MaxFPS 60 and the default render share)
// and runs f on the main thread; it skips without a display.
func withLoopWindow(t *testing.T, o app.Options, width, height int, vo viewOptions, f func(w *window, fail func(string, ...any))) {
	t.Helper()
	mainthread.NeedDisplay(t)
	s, err := app.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	withUI(t, width, height, func(p uiParts, fail func(string, ...any)) {
		loop := app.NewSimLoop(s, o)
		loop.Start()
		defer loop.Close()
		vo.Options, vo.MaxFPS, vo.Share = o, 60, DefaultRenderShare
		f(newWindow(p.win, p.r, p.u, loop, vo, p.input), fail)
	})
}

// withWindow is withLoopWindow at UI scale 1 with the test cursor (the
// shell's tests).
func withWindow(t *testing.T, o app.Options, width, height int, f func(w *window, fail func(string, ...any))) {
	t.Helper()
	withLoopWindow(t, o, width, height, viewOptions{UIScale: 1}, func(w *window, fail func(string, ...any)) {
		w.testCursor = true
		f(w, fail)
	})
}

// syncedFrame waits for the simulation goroutine (fail on a time-out),
// draws a frame and returns the loop's state.
func (w *window) syncedFrame(fail func(string, ...any)) *app.LoopState {
	if !w.loop.Sync(30 * time.Second) {
		fail("sync timed out")
	}
	w.drawFrames(1)
	return w.loop.State()
}

// withGLWindow opens a width×height window (visible or hidden) with a
// renderer and runs f on the main thread, closing them after it; a failure
// to open either is a test error (the opt-in measuring tests).
func withGLWindow(t *testing.T, width, height int, title string, visible bool, f func(win *glfw.Window, r *render.Renderer)) {
	onMain(func() {
		win, err := openWindow(width, height, title, visible)
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
		f(win, r)
	})
}
