package window

// The interactive window: GLFW + OpenGL 4.1 core + imgui on the main OS
// thread. The simulation runs on the SimLoop goroutine; each frame takes the
// latest published snapshot, draws it and the panel, and turns the panel's
// actions and the keyboard and mouse into SimLoop commands.

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/internal/glstart"
	"grainlab/render"
	"grainlab/sim/geom"
	"grainlab/sim/scene"
	"grainlab/sim/snap"
	"grainlab/sim/world"
	"grainlab/ui"
)

// GLFW and OpenGL must be used from the main OS thread: lock the main
// goroutine to it before main runs.
func init() { runtime.LockOSThread() }

// Window size of `grainlab` and `grainlab view`.
const (
	WindowWidth  = 1280
	WindowHeight = 800
)

// openUI opens the visible window (vsync on) with its renderer, input
// clock and panel, as `view` of a scene and of a run use them; closeUI
// releases them in reverse order.
func openUI(title string) (win *glfw.Window, r *render.Renderer, u *ui.UI, input *inputClock, closeUI func(), err error) {
	return openUISized(WindowWidth, WindowHeight, title, true)
}

// openUISized is openUI for a w×h window, visible (vsync on) or hidden (the
// tests' windows). A failure to open the window itself wraps errNoWindow.
func openUISized(width, height int, title string, visible bool) (win *glfw.Window, r *render.Renderer, u *ui.UI, input *inputClock, closeUI func(), err error) {
	if win, err = openWindow(width, height, title, visible); err != nil {
		return nil, nil, nil, nil, nil, err
	}
	if visible {
		glfw.SwapInterval(1)
	}
	if r, err = render.New(); err != nil {
		win.Destroy()
		glfw.Terminate()
		return nil, nil, nil, nil, nil, err
	}
	input = watchInput(win)
	if u, err = ui.New(win); err != nil {
		r.Close()
		win.Destroy()
		glfw.Terminate()
		return nil, nil, nil, nil, nil, err
	}
	return win, r, u, input, func() {
		u.Close()
		r.Close()
		win.Destroy()
		glfw.Terminate()
	}, nil
}

// errNoWindow wraps failures to create a window (no display, no GL 4.1).
var errNoWindow = errors.New("cannot open a window")

// openWindow initialises GLFW and creates a w×h GL 4.1 core window with its
// context current. The caller must Destroy it and call glfw.Terminate.
func openWindow(w, h int, title string, visible bool) (win *glfw.Window, err error) {
	if err := checkDisplay(); err != nil {
		return nil, err
	}
	if err := glstart.Init(); err != nil {
		return nil, fmt.Errorf("%w (is there a display? without one use 'grainlab run SCENE'): %v", errNoWindow, err)
	}
	// go-gl/glfw panics on programmer errors; one in the hints or the
	// window's creation is reported as no window.
	defer func() {
		if r := recover(); r != nil {
			glfw.Terminate()
			win, err = nil, fmt.Errorf("%w: %v", errNoWindow, r)
		}
	}()
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.CocoaRetinaFramebuffer, glfw.False)
	if visible {
		glfw.WindowHint(glfw.Visible, glfw.True)
	} else {
		glfw.WindowHint(glfw.Visible, glfw.False)
	}
	win, err = glfw.CreateWindow(w, h, title, nil, nil)
	if err != nil {
		glfw.Terminate()
		return nil, fmt.Errorf("%w (OpenGL 4.1 core is required): %v", errNoWindow, err)
	}
	win.MakeContextCurrent()
	return win, nil
}

// checkDisplay fails early on X11/Wayland systems without a display.
func checkDisplay() error {
	if (runtime.GOOS == "linux" || runtime.GOOS == "freebsd") && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%w: no display (DISPLAY and WAYLAND_DISPLAY are unset); without one use 'grainlab run SCENE'", errNoWindow)
	}
	return nil
}

// viewOptions are the choices of `grainlab view`.
type viewOptions struct {
	app.Options
	Play      bool          // start running
	Fast      bool          // as fast as possible
	Speed     float64       // real-time factor target (default 1)
	MaxFPS    float64       // frame-rate cap (default 60)
	ExitAfter time.Duration // close the window after this wall time (0: never)
	Report    bool          // print frame and simulation rates on exit
	QuitAtEnd bool          // close the window when the run pauses at its end time
	Overlays  bool          // start with every overlay on
	Share     float64       // wall-time share of rendering while the simulation is CPU-bound
	HistoryMB float64       // memory budget of the time bar's history in MB (0: DefaultHistoryBytes)
	SpillDir  string        // directory of the history's spill file ("": the system's temporary directory)
	UIScale   float64       // UI scale of fonts and widgets (0: the monitor's content scale)

	Compare compareOptions // --compare, --compare-set (compare.go)
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func runDefault(stdout, stderr io.Writer) int {
	o := app.Options{Scene: app.DefaultScene, Restart: "auto"}
	app.AutoRestart(&o)
	return runWindow(viewOptions{Options: o}, stdout, stderr)
}

func cmdView(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("view", stderr)
	var vo viewOptions
	var sets app.SetFlags
	fs.StringVar(&vo.Integrator, "integrator", "", "integrator name (default: the scene's)")
	fs.Float64Var(&vo.Dt, "dt", 0, "initial/maximum time step in s (default: the scene's)")
	fs.Float64Var(&vo.Time, "time", 0, "pause at this time in s (default: the scene's end time)")
	fs.IntVar(&vo.Workers, "workers", 0, "worker goroutines (default: all cores)")
	fs.Var(&sets, "set", "override a scene value: --set key.path=value (repeatable)")
	fs.StringVar(&vo.Restart, "restart", "auto", `start from the body states of a final.json ("builtin:NAME" for a shipped state; "auto": the shipped packed box for the default scene unless a --set changes its bodies, else none)`)
	fs.BoolVar(&vo.Play, "play", false, "start running (default: paused; Space plays)")
	fs.BoolVar(&vo.Fast, "fast", false, "run as fast as possible instead of at --speed")
	fs.Float64Var(&vo.Speed, "speed", 1, "real-time factor target (simulated s per wall s)")
	fs.Float64Var(&vo.MaxFPS, "fps", 60, "frame-rate cap")
	fs.DurationVar(&vo.ExitAfter, "exit-after", 0, "close the window after this wall time (e.g. 30s)")
	fs.BoolVar(&vo.Report, "report", false, "print frame time and simulation rate on exit")
	fs.BoolVar(&vo.Overlays, "overlays", false, "start with every overlay on (spheres, skin, suppressed contacts, colour by speed)")
	fs.BoolVar(&vo.QuitAtEnd, "quit-at-end", false, "close the window when the run reaches --time (with --play)")
	fs.Float64Var(&vo.Share, "render-share", DefaultRenderShare, "at most this share of wall time renders while the simulation runs flat out (0..1]")
	fs.Float64Var(&vo.HistoryMB, "history-mb", 0, fmt.Sprintf("memory budget of the time bar's history in MB (default %d: 1/8 of the memory, at most 2048)", app.DefaultHistoryBytes()>>20))
	fs.Float64Var(&vo.UIScale, "ui-scale", 0, fmt.Sprintf("scale of fonts and widgets, %g to %g (default: the monitor's content scale)", ui.MinScale, ui.MaxScale))
	fs.StringVar(&vo.SpillDir, "history-dir", "", "directory of the temporary file the history's oldest frames move to beyond --history-mb (default: the system's temporary directory)")
	compareFlags(fs, &vo.Compare)
	name, err := app.ParseScene(fs, args, app.DefaultScene)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab view:", err)
		return app.ExitInput
	}
	if vo.UIScale != 0 && !(vo.UIScale >= ui.MinScale && vo.UIScale <= ui.MaxScale) {
		fmt.Fprintf(stderr, "grainlab view: --ui-scale must be between %g and %g (got %g)\n", ui.MinScale, ui.MaxScale, vo.UIScale)
		return app.ExitInput
	}
	if vo.HistoryMB < 0 || math.IsNaN(vo.HistoryMB) || math.IsInf(vo.HistoryMB, 0) {
		fmt.Fprintln(stderr, "grainlab view: --history-mb must be a finite number ≥ 0")
		return app.ExitInput
	}
	if st, err := os.Stat(vo.SpillDir); vo.SpillDir != "" && (err != nil || !st.IsDir()) {
		fmt.Fprintf(stderr, "grainlab view: --history-dir %s: not a directory\n", vo.SpillDir)
		return app.ExitInput
	}
	if isRunFile(name) {
		if len(sets) > 0 || vo.Integrator != "" || vo.Dt > 0 || vo.Time > 0 || vo.Restart != "auto" {
			fmt.Fprintln(stderr, "grainlab view: --set, --integrator, --dt, --time and --restart apply to scenes, not to a recorded run")
			return app.ExitInput
		}
		if c := vo.Compare; c.Integrator != "" || len(c.Sets) > 0 {
			flags := "--compare needs"
			switch {
			case c.Integrator == "":
				flags = "--compare-set needs"
			case len(c.Sets) > 0:
				flags = "--compare and --compare-set need"
			}
			fmt.Fprintln(stderr, "grainlab view:", flags, "a scene: a recorded run cannot be re-simulated")
			return app.ExitInput
		}
		return viewRun(name, vo, stdout, stderr)
	}
	vo.Scene, vo.Sets = name, sets
	if note := app.AutoRestart(&vo.Options); note != "" {
		fmt.Fprintln(stderr, "grainlab view:", note)
	}
	if !(vo.Speed > 0) || !(vo.MaxFPS > 0) || vo.Time < 0 || vo.Dt < 0 || vo.ExitAfter < 0 || !(vo.Share > 0 && vo.Share <= 1) {
		fmt.Fprintln(stderr, "grainlab view: --speed and --fps must be > 0, --render-share in (0, 1], --time, --dt and --exit-after ≥ 0")
		return app.ExitInput
	}
	if _, _, err := vo.Compare.config(vo.Options); err != nil {
		fmt.Fprintln(stderr, "grainlab view:", err)
		return app.ExitInput
	}
	return runWindow(vo, stdout, stderr)
}

// runWindow loads the scene, opens the window and runs it until closed.
func runWindow(vo viewOptions, stdout, stderr io.Writer) int {
	if vo.Speed <= 0 {
		vo.Speed = 1
	}
	if vo.MaxFPS <= 0 {
		vo.MaxFPS = 60
	}
	if !(vo.Share > 0 && vo.Share <= 1) {
		vo.Share = DefaultRenderShare
	}
	s, err := app.Load(vo.Options)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return app.ExitFor(err)
	}
	win, r, u, input, closeUI, err := openUI("Grainlab — " + s.Spec.Name)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return app.ExitFailure
	}
	defer closeUI()

	loop := app.NewSimLoop(s, vo.Options)
	loop.OnPublish = glfw.PostEmptyEvent
	// a snapshot only for a frame the view will draw (frame: Want), and
	// publishing at most DefaultPublishShare of the simulation's time
	loop.OnDemand, loop.Share = true, app.DefaultPublishShare
	if vo.HistoryMB > 0 {
		loop.History().SetBudget(int64(vo.HistoryMB * (1 << 20)))
	}
	loop.History().SetSpill(vo.SpillDir, true)
	defer loop.History().Close() // after loop.Close: removes the spill file
	loop.SetSpeed(vo.Speed, vo.Fast)
	if vo.Play {
		loop.Play()
	}
	loop.Start()
	defer loop.Close()

	w := newWindow(win, r, u, loop, vo, input)
	if cfg, ok, _ := vo.Compare.config(vo.Options); ok {
		w.cmp.start(loop, vo.Options, cfg) // checked by cmdView
	}
	defer w.cmp.stop() // before loop.Close
	w.run()
	if vo.Report {
		w.report(stdout)
	}
	return app.ExitOK
}

type dragMode uint8

const (
	dragNone dragMode = iota
	dragOrbit
	dragPan
	dragSpring
)

// window is the state of the render loop (main thread only).
type window struct {
	win  *glfw.Window
	r    *render.Renderer
	u    *ui.UI
	loop *app.SimLoop
	opts viewOptions
	// the time bar: src is the loop's history, or a recorded run in a
	// player (then the loop, if any, is paused and not shown)
	src      snap.Frames
	player   bool
	runName  string // the recorded run's path (player)
	tl       ui.Timeline
	tick     time.Time      // wall time of the previous frame (playback)
	shown    *snap.Snapshot // the snapshot drawn by the last frame
	shownIdx int            // its frame index in src (-1: the live snapshot)
	cacheIdx int            // frame index of cache (file sources)
	cache    *snap.Snapshot
	pstate   app.LoopState // what the player shows in place of the loop's state
	panel    ui.Panel
	view     render.View
	cam      *render.Camera

	scenes    []string
	hidePanel bool
	clean     bool        // clean mode (C): bodies and large readouts only
	preClean  render.View // the view before clean mode, restored when it ends
	hintGone  bool        // the first view's hint went (the run played)
	hintBox   [4]float32  // tests: the band's box last drawn (x0, y0, x1, y1; 0 = none)
	nextEvent string      // LoopState.NextEvent of the last frame
	evScene   string      // LoopState.Scene of the last frame
	eventMsg  string      // a scene event's message, shown in the hint's place
	eventEnd  time.Time   // until when eventMsg shows (wall time)
	dropped   []string    // paths dropped on the window, handled by the next frame
	gen       uint64
	scene     string // LoopState.Scene of the framed scene
	arrowSet  bool   // the arrow scale was fitted to the forces (or set by the user)
	shotReq   bool
	shots     chan string // results of screenshot writers
	shotDir   string      // where S saves screenshots ("" = the current directory)

	// preCleanCam is the camera before clean mode and cleanCam the one clean
	// mode framed; leaving clean mode with the camera unmoved restores it.
	preCleanCam, cleanCam render.Camera

	status    string
	statusErr bool
	loopSeq   uint64

	cmp compareView // a second run drawn as a ghost (compare.go)

	shapeSrc []world.MaterialShape // LoopState.Shapes converted into shapeUI
	shapeUI  []ui.Material

	// mouse
	drag           dragMode
	pressX, pressY float64
	lastX, lastY   float64
	moved          bool
	springBody     int
	springLocal    geom.Vec3 // body frame
	springAnchor   geom.Vec3 // world point the drag plane goes through
	springTarget   geom.Vec3
	input          *inputClock
	lastSnap       *snap.Snapshot
	frameStart     time.Time
	work           time.Duration // smoothed cost of a frame
	cpuWork        time.Duration // last frame up to SwapBuffers
	testCursor     bool          // tests: the cursor is where cursorPos last put it
	grab           bool          // tests: read the next frame back into grabbed
	grabbed        *image.RGBA
	software       bool   // the GL renderer runs on the CPU (llvmpipe)
	shownStatus    string // status of the last frame drawn

	// measurements
	started    time.Time
	frames     int
	renderTime time.Duration // Draw + imgui + SwapBuffers
	frameWork  time.Duration // whole frame except pacing
}

// inputClock remembers when the user last did anything in the window.
type inputClock struct{ last time.Time }

func (c *inputClock) touch() { c.last = time.Now() }

// watchInput installs window callbacks that note every input event, also
// those imgui consumes, and expose/resize (install it before ui.New, which
// chains to them).
func watchInput(win *glfw.Window) *inputClock {
	c := &inputClock{last: time.Now()}
	win.SetCursorPosCallback(func(*glfw.Window, float64, float64) { c.touch() })
	win.SetMouseButtonCallback(func(*glfw.Window, glfw.MouseButton, glfw.Action, glfw.ModifierKey) { c.touch() })
	win.SetScrollCallback(func(*glfw.Window, float64, float64) { c.touch() })
	win.SetKeyCallback(func(*glfw.Window, glfw.Key, int, glfw.Action, glfw.ModifierKey) { c.touch() })
	win.SetCharCallback(func(*glfw.Window, rune) { c.touch() })
	win.SetRefreshCallback(func(*glfw.Window) { c.touch() })
	win.SetSizeCallback(func(*glfw.Window, int, int) { c.touch() })
	win.SetFocusCallback(func(*glfw.Window, bool) { c.touch() })
	return c
}

// newWindow wires the render loop; input comes from watchInput (nil: none).
func newWindow(win *glfw.Window, r *render.Renderer, u *ui.UI, loop *app.SimLoop, vo viewOptions, input *inputClock) *window {
	if input == nil {
		input = &inputClock{last: time.Now()}
	}
	w := &window{win: win, r: r, u: u, loop: loop, opts: vo, view: AppView(), cam: render.NewCamera(),
		shots: make(chan string, 4), springBody: -1, input: input, tl: ui.NewTimeline(), shownIdx: -1, cacheIdx: -1}
	if loop != nil {
		w.src = loop.History()
	}
	if vo.Overlays {
		AllOverlays(&w.view)
	}
	w.software = softwareGL()
	scale := vo.UIScale
	if scale == 0 {
		_, scale32 := win.GetContentScale()
		scale = float64(scale32)
	}
	u.SetScale(ui.ClampScale(scale))
	win.SetDropCallback(func(_ *glfw.Window, names []string) {
		w.dropped = append(w.dropped, names...)
		w.input.touch()
	})
	for _, b := range scene.Builtins() {
		w.scenes = append(w.scenes, b.Name)
	}
	u.Platform.App = ui.AppHandlers{
		MouseButton: w.mouseButton,
		CursorPos:   w.cursorPos,
		Scroll:      w.scroll,
		Key:         w.key,
	}
	return w
}

// DefaultRenderShare is the largest share of wall time the render loop
// spends drawing while the simulation runs flat out (and the user does not
// interact): with a software renderer (llvmpipe) a frame costs CPU the
// simulation goroutine needs.
const DefaultRenderShare = 0.04

// Render pacing: at most MaxFPS frames per second, and while the simulation
// is CPU-bound the frames take at most opts.Share of the wall time unless the
// user is interacting.
const (
	interactive = 500 * time.Millisecond // input this recent means the user interacts
	maxInterval = 2 * time.Second        // slowest frame rate while the simulation is busy
	// maxShare caps the rendering's share of the wall time while the
	// simulation is busy even when a frame costs more than
	// maxShare·maxInterval (10⁵ spheres on llvmpipe: 0.2–0.6 s a frame):
	// the frames then come further apart than maxInterval.
	maxShare = 0.1
	// wantLead is how long before a frame is due (at least) the view asks
	// the simulation for its snapshot: a step and a publication.
	wantLead = 50 * time.Millisecond
	idleWait = 500 * time.Millisecond // longest event wait when nothing changes
)

func (w *window) run() {
	w.started = time.Now()
	w.input.touch()
	exitAt := time.Time{}
	if w.opts.ExitAfter > 0 {
		exitAt = w.started.Add(w.opts.ExitAfter)
	}
	for !w.win.ShouldClose() {
		if !exitAt.IsZero() && time.Now().After(exitAt) {
			break
		}
		st := w.state()
		if w.opts.QuitAtEnd && !w.player && w.frames > 0 && !st.Playing && st.Snap.Stats.Time > 0 {
			break
		}
		if !w.pace(exitAt) {
			break
		}
		w.frameStart = time.Now()
		w.frame()
		work := time.Since(w.frameStart)
		w.frameWork += work
		if !w.software {
			// A GPU draws while the CPU waits in SwapBuffers (vsync); only
			// the submission costs CPU, and only one core of all.
			work = w.cpuWork / time.Duration(runtime.NumCPU())
		}
		w.frames++
		if w.frames > 3 { // the first frames compile shaders and build the font atlas
			w.work = time.Duration(0.7*float64(w.work) + 0.3*float64(work))
		} else if w.work == 0 || work < w.work {
			w.work = work
		}
	}
}

// pace waits, handling window events, until the next frame is due: at most
// MaxFPS frames per second; while the simulation is CPU-bound and the user
// does not interact, frames take at most opts.Share of the wall time (but
// at least one per maxInterval, unless that would take more than maxShare
// of it); when nothing changes (paused, or running
// between two snapshots), the loop sleeps until an event or a new
// snapshot. It returns false to quit.
func (w *window) pace(exitAt time.Time) bool {
	minFrame := time.Duration(float64(time.Second) / w.opts.MaxFPS)
	for {
		if w.win.ShouldClose() || (!exitAt.IsZero() && time.Now().After(exitAt)) {
			return false
		}
		st := w.state()
		now := time.Now()
		calm := now.Sub(w.input.last) > interactive && w.drag == dragNone
		// the simulation wants the CPU when it runs flat out or lags behind its target
		cpuBound := st.Playing && (st.AsFast || st.RealTime < 0.95*st.Speed)
		interval := minFrame
		if cpuBound && calm {
			interval = min(max(interval, time.Duration(float64(w.work)/w.opts.Share)),
				max(maxInterval, time.Duration(float64(w.work)/maxShare)))
		}
		// nothing to draw that the screen does not show: no input, no new
		// snapshot (also while the simulation runs: a frame of the same
		// snapshot and camera is the same picture), no message to time out
		idle := calm && st.Snap == w.lastSnap && w.status == w.shownStatus && len(w.shots) == 0 && !w.tl.Playing && !w.cmp.changed() && w.eventMsg == ""
		wait := w.frameStart.Add(interval).Sub(now)
		if w.loop != nil && wait <= max(interval/4, wantLead) {
			// ask for the next frame's snapshot (SimLoop.OnDemand) a little
			// before it is due, so that it shows the newest state
			w.loop.Want()
		}
		if idle && st.Playing && w.loop != nil {
			// running between two snapshots: wake when the next one is to be
			// asked for (Want above), not only after idleWait
			wait = min(idleWait, max(wait-max(interval/4, wantLead), time.Millisecond))
		} else if idle {
			wait = idleWait
		} else if wait <= 0 {
			glfw.PollEvents()
			return true
		}
		// input, a new snapshot (OnPublish) or the timeout; then the frame
		// is due at once when nothing limits the rate, else at its interval
		glfw.WaitEventsTimeout(wait.Seconds())
	}
}

// frame draws one frame and applies what the user asked for.
func (w *window) frame() {
	st := w.state()
	if st.Gen != w.gen && !w.player {
		w.tl.Live, w.tl.Playing = true, false // a reset or a new scene: its own history
	}
	s, live := w.pick(st.Snap)
	s = w.cmp.shown(s, live) // at the live edge of a comparison: the compared frame
	if st.Gen != w.gen {
		// a reset keeps the camera and the selection (same bodies); a new
		// scene is framed afresh
		w.gen = st.Gen
		w.cancelDrag()
		if st.Scene != w.scene {
			w.scene = st.Scene
			w.view.SelectedBody, w.view.HasSelectedContact = -1, false
			w.fit(s)
			w.arrowSet = false
			w.win.SetTitle("Grainlab — " + s.Scene)
		}
	}
	if !w.arrowSet && s != nil && s.Stats.Contacts > 0 {
		old := w.view.ArrowScale
		w.view.AutoArrowScale(s)
		w.arrowSet = w.view.ArrowScale != old
	}
	if st.StatusSeq != w.loopSeq {
		w.loopSeq = st.StatusSeq
		w.status, w.statusErr = st.Status, st.StatusErr
		if !st.StatusErr && w.nextEvent != "" && st.NextEvent != w.nextEvent && st.Scene == w.evScene {
			// the pending event fired (not another scene loaded): its
			// message also goes in the hint's place
			w.eventMsg, w.eventEnd = st.Status, time.Now().Add(eventShow)
		}
	}
	w.nextEvent, w.evScene = st.NextEvent, st.Scene
	select {
	case msg := <-w.shots:
		w.status, w.statusErr = msg, strings.HasPrefix(msg, "screenshot failed")
	default:
	}
	w.updateSpringView(s)
	w.lastSnap = st.Snap
	if w.player {
		w.lastSnap = s // state() shows it: the paused player idles
	}
	w.shown = s
	w.shownStatus = w.status

	if len(w.dropped) > 0 {
		names := w.dropped
		w.dropped = nil
		w.drop(names)
	}
	if st.Playing {
		w.hintGone = true
	}
	w.u.NewFrame()
	var acts ui.Actions
	if !w.hidePanel && !w.clean {
		in := ui.PanelInput{
			Snap: s, View: &w.view, Scenes: w.scenes, Camera: w.cam, Render: w.r.Stats(),
			HasCursor: s != live && s != nil, Live: live,
			Integrators: app.Integrators(), Integrator: st.Integrator,
			LawKinds: LawKinds, Law: PanelLaw(st.Law),
			Playing: st.Playing, Speed: st.Speed, AsFast: st.AsFast,
			Status: w.status, StatusIsError: w.statusErr,
			ValidateLaw: ValidateLaw, DeriveLaw: DeriveLaw, LawCurve: LawCurve(st.MeanMass),
			Materials: w.shapes(st), ValidateMaterial: ValidateShape,
			SmoothLaw: PanelSmooth(st.Law), HasSmooth: st.Law.HasSmooth || len(st.Shapes) > 0,
			SmoothOnly: !st.Law.HasPoly, ValidateSmooth: ValidateSmooth(st.Law),
			HasCompatible: st.HasCompatible, Compatible: st.Compatible,
			Scale: w.u.Scale(), Clean: w.clean,
			Compare: w.cmp.input(w.player),
		}
		if in.HasCursor {
			in.Cursor = s.Stats.Time
		}
		if st.Playing && !w.player {
			in.RunRate, in.RunRTF = st.StepsPerSecond, st.RealTime
		}
		in.ColorRange[0], in.ColorRange[1] = w.r.ColorRange()
		acts = w.panel.Draw(&in)
	}
	var tacts ui.TimeBarActions
	if w.clean {
		w.u.Readouts(cleanReadouts(s, st))
	} else {
		tacts = w.timeBar()
	}
	w.hintBox = [4]float32{}
	ww, _ := w.win.GetSize()
	free := float32(ww)
	if !w.hidePanel && !w.clean {
		free -= w.panel.Width + 6
	}
	gap := (ui.TimeBarHeight + 24) * max(w.u.Scale(), 1)
	if w.clean {
		gap = 24 * max(w.u.Scale(), 1) // no time bar
	}
	var lo, hi ui.Vec2
	if w.eventMsg != "" && time.Now().Before(w.eventEnd) {
		lo, hi = w.u.Band("##event", w.eventMsg, ui.EventColor, free, gap)
	} else if hint := w.hint(st); hint != "" {
		w.eventMsg = ""
		lo, hi = w.u.Hint(hint, free, gap)
	} else {
		w.eventMsg = ""
	}
	if hi.X > lo.X {
		w.hintBox = [4]float32{lo.X, lo.Y, hi.X, hi.Y}
	}
	fbw, fbh := w.win.GetFramebufferSize()
	t0 := time.Now()
	w.r.Draw(w.panel.ContactsShown(s, &w.view), &w.view, w.cam, fbw, fbh) // the inspector may show one body's contacts only
	w.cmp.drawGhost(w.r, s, &w.view, w.cam, fbw, fbh)
	w.u.Render()
	if w.shotReq {
		w.shotReq = false
		w.saveScreenshot(render.Screenshot(fbw, fbh), s)
	}
	if w.grab {
		w.grab, w.grabbed = false, render.Screenshot(fbw, fbh)
	}
	w.cpuWork = time.Since(w.frameStart)
	w.win.SwapBuffers()
	w.renderTime += time.Since(t0)
	w.applyTimeBar(&tacts)
	w.apply(&acts, s)
}

// eventShow is how long (wall time) a scene event's message stays in the
// hint's place.
const eventShow = 3 * time.Second

// hint returns the first view's on-screen hint ("Space: play - the side
// walls go at t = 6 s", from the scene's next event), or "" once the run
// has played, in clean mode, in a player and on a past frame.
func (w *window) hint(st *app.LoopState) string {
	if w.hintGone || w.player || w.clean || !w.tl.Live || w.loop == nil {
		return ""
	}
	// ASCII: the panel's built-in font has no em dash
	if st.NextEvent != "" {
		return "Space: play - " + st.NextEvent
	}
	return "Space: play"
}

// cleanReadouts are the clean mode's large numbers: simulated time,
// real-time factor (without st: none, as in a shot), contact count.
func cleanReadouts(s *snap.Snapshot, st *app.LoopState) []string {
	if s == nil {
		return nil
	}
	out := []string{fmt.Sprintf("t = %.3f s", s.Stats.Time)}
	switch {
	case st == nil:
	case st.Playing:
		out = append(out, fmt.Sprintf("%.3gx real time", st.RealTime))
	default:
		out = append(out, "paused")
	}
	return append(out, fmt.Sprintf("%d contacts", s.Stats.Contacts))
}

// CleanView is v as clean mode draws it: the bodies (with their edges and
// colouring) and the force chains, nothing else — no walls, grid, axes,
// contact markers, arrows, bounding spheres or skin.
func CleanView(v render.View) render.View {
	v.ShowBodies, v.ShowChains = true, true
	v.ShowWalls, v.ShowGrid, v.ShowAxes = false, false, false
	v.ShowContacts, v.ShowSuppressed, v.ShowNormal, v.ShowFriction = false, false, false, false
	v.ShowSpheres, v.ShowSkin = false, false
	return v
}

// setClean switches clean mode: the panel, time bar and overlays go and
// the bodies are framed in the whole window (fit without the panel); the
// view is kept and restored when clean mode ends, and the camera too unless
// it was moved in clean mode (selection and arrow scale carry over).
func (w *window) setClean(on bool) {
	if on == w.clean {
		return
	}
	w.clean = on
	if on {
		w.preClean = w.view
		w.view = CleanView(w.view)
		w.preCleanCam = *w.cam
		if w.shown != nil {
			w.fit(w.shown)
		}
		w.cleanCam = *w.cam
		return
	}
	if *w.cam == w.cleanCam {
		*w.cam = w.preCleanCam
		w.cam.Aspect = aspect(w.win)
	}
	v := w.preClean
	v.SelectedBody, v.SelectedContact, v.HasSelectedContact = w.view.SelectedBody, w.view.SelectedContact, w.view.HasSelectedContact
	v.ArrowScale, v.ColorBy = w.view.ArrowScale, w.view.ColorBy
	w.view = v
}

// drop handles files dropped on the window (glfw drop callback): a .stl
// mesh adds a body above the pile (SimLoop.AddMesh: validated as a scene's
// mesh, refused with the reason in the status line), a .yaml scene opens,
// a recorded run plays; anything else is refused in the status line.
func (w *window) drop(paths []string) {
	for _, p := range paths {
		switch ext := strings.ToLower(filepath.Ext(p)); {
		case ext == ".stl":
			if w.player || w.loop == nil {
				w.status, w.statusErr = "dropped "+filepath.Base(p)+": a recorded run plays back; load a scene to add bodies", true
				continue
			}
			if s := w.shownSnap(); !w.tl.Live && s != nil {
				w.loop.ResumeFrom(s.Stats.Time) // an edit of a past frame branches from it
				w.tl.Live, w.tl.Playing = true, false
			}
			w.loop.AddMesh(p, 1)
		case ext == ".yaml" || ext == ".yml":
			if w.loop == nil {
				w.status, w.statusErr = "dropped "+filepath.Base(p)+": no simulation to open it in", true
				continue
			}
			if w.player {
				w.leavePlayer()
			}
			w.loop.OpenFile(p)
		case isRunFile(p):
			w.openRun(p)
		default:
			w.status, w.statusErr = "dropped "+p+": not a .stl mesh, a .yaml scene or a recorded run", true
		}
	}
}

// softwareGL reports whether the current context renders on the CPU, where
// a frame costs CPU time on every core (llvmpipe runs one thread per core).
func softwareGL() bool {
	r := strings.ToLower(gl.GoStr(gl.GetString(gl.RENDERER)))
	for _, sw := range []string{"llvmpipe", "softpipe", "swrast", "swiftshader", "software"} {
		if strings.Contains(r, sw) {
			return true
		}
	}
	return false
}

// shapes returns the panel's form of st.Shapes, converted once per
// published list.
func (w *window) shapes(st *app.LoopState) []ui.Material {
	if len(st.Shapes) == 0 {
		return nil
	}
	if len(w.shapeSrc) == 0 || &w.shapeSrc[0] != &st.Shapes[0] {
		w.shapeSrc, w.shapeUI = st.Shapes, PanelShapes(st.Shapes)
	}
	return w.shapeUI
}

// fit frames the bodies (the walls only when there are none) in the part
// of the window the panel leaves free.
func (w *window) fit(s *snap.Snapshot) {
	w.cam.Aspect = aspect(w.win)
	fitBodies(w.cam, s)
	ww, wh := w.win.GetSize()
	if pw := float64(w.panel.Width); !w.hidePanel && !w.clean && ww > 0 {
		if pw <= 0 {
			pw = ui.PanelWidth * float64(w.u.Scale())
		}
		pw = min(pw+6, 0.5*float64(ww))
		// the free area is narrower: step back so the bodies fit it, then
		// shift them into its middle
		w.cam.Dist *= float64(ww) / (float64(ww) - pw)
		w.cam.Pan(-pw/2, 0, wh)
	}
}

func aspect(win *glfw.Window) float64 {
	fw, fh := win.GetFramebufferSize()
	if fw <= 0 || fh <= 0 {
		return 0
	}
	return float64(fw) / float64(fh)
}

// apply turns the panel's actions into commands.
func (w *window) apply(a *ui.Actions, s *snap.Snapshot) {
	if a.Any() || a.ViewChanged {
		w.input.touch()
	}
	w.applyShell(a)
	if a.Clipboard != "" {
		w.win.SetClipboardString(a.Clipboard) // the inspector's copy
	}
	if w.player {
		w.applyPlayer(a, s)
		return
	}
	w.applyCompare(&a.Compare)
	if !w.tl.Live && s != nil && (a.Law != nil || a.Material != nil || len(a.Params) > 0 || a.Compatible != nil ||
		len(a.Walls) > 0 || a.Integrator != "") {
		// an edit of a past frame is a branch from it (issue 14 item 4)
		w.loop.ResumeFrom(s.Stats.Time)
		w.tl.Live, w.tl.Playing = true, false
	}
	if a.Play {
		w.loop.Play()
	}
	if a.Pause {
		w.loop.Pause()
	}
	if a.Step {
		w.loop.Step()
	}
	if a.Reset {
		w.loop.Reset()
	}
	if a.Fit {
		w.fit(s)
	}
	if a.Screenshot {
		w.shotReq = true
	}
	if a.SpeedChanged {
		w.loop.SetSpeed(a.Speed, a.AsFast)
	}
	if a.LoadScene != "" {
		o := app.Options{Scene: a.LoadScene, Workers: w.opts.Workers, Restart: "auto"}
		app.AutoRestart(&o)
		w.loop.Load(o)
	}
	if a.OpenFile != "" {
		if isRunFile(a.OpenFile) {
			w.openRun(a.OpenFile)
		} else {
			w.loop.OpenFile(a.OpenFile)
		}
	}
	if a.Integrator != "" {
		w.loop.SetIntegrator(a.Integrator)
	}
	if a.Law != nil {
		if p, err := WorldLaw(*a.Law); err != nil { // the panel validated it already
			w.status, w.statusErr = "refused: "+err.Error(), true
		} else {
			w.loop.SetLaw(p)
		}
	}
	if a.Material != nil {
		w.loop.SetShape(a.Material.Index, ShapeOf(a.Material.Material))
	}
	for _, p := range a.Params {
		w.loop.SetParam("contact.default."+p.Key, p.Value)
	}
	if a.Compatible != nil {
		w.loop.SetCompatible(*a.Compatible)
	}
	for _, t := range a.Walls {
		w.loop.SetWall(t.Name, t.Enabled)
	}
	if a.AddMesh != nil {
		w.loop.AddMesh(a.AddMesh.Path, a.AddMesh.Count)
	}
	if a.ViewChanged {
		w.arrowSet = true // the user owns the arrow scale now
	}
}

// applyShell applies the panel's window actions (UI scale, clean mode),
// also in a player.
func (w *window) applyShell(a *ui.Actions) {
	if a.Scale > 0 {
		w.u.SetScale(a.Scale)
	}
	if a.ToggleClean {
		w.setClean(!w.clean)
	}
}

func (w *window) saveScreenshot(img *image.RGBA, s *snap.Snapshot) {
	name := "grainlab"
	t := 0.0
	if s != nil {
		name, t = s.Scene, s.Stats.Time
	}
	path := filepath.Join(w.shotDir, fmt.Sprintf("grainlab-%s-t%.4gs-%s.png", sanitize(name), t, time.Now().Format("150405.000")))
	go func() { // PNG encoding off the GL thread
		if err := writePNG(path, img); err != nil {
			w.shots <- "screenshot failed: " + err.Error()
			return
		}
		abs, _ := filepath.Abs(path)
		w.shots <- "screenshot saved to " + abs
	}()
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// writePNG writes img to path.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ---- keyboard and mouse ----

func (w *window) key(k glfw.Key, _ int, a glfw.Action, mods glfw.ModifierKey) {
	if a == glfw.Release {
		return
	}
	w.input.touch()
	if a == glfw.Repeat && k != glfw.KeyRight && k != glfw.KeyLeft {
		return
	}
	if k == glfw.KeyQ && mods&glfw.ModControl != 0 {
		w.win.SetShouldClose(true)
		return
	}
	if mods&(glfw.ModControl|glfw.ModAlt|glfw.ModSuper) != 0 {
		return
	}
	switch k {
	case glfw.KeyEscape:
		if w.clean {
			w.setClean(false)
		} else {
			w.win.SetShouldClose(true)
		}
	case glfw.KeyC:
		w.setClean(!w.clean)
	case glfw.KeySpace:
		switch {
		case w.player:
			w.togglePlayback()
		case w.loop.State().Playing:
			w.loop.Pause()
		default:
			w.loop.Play()
		}
	case glfw.KeyRight:
		w.stepFrame(+1)
	case glfw.KeyLeft:
		w.stepFrame(-1)
	case glfw.KeyR:
		if w.player {
			w.tl.Seek(w.src.Time(0))
		} else {
			w.loop.Reset()
		}
	case glfw.KeyF:
		w.fit(w.shownSnap())
	case glfw.KeyS:
		w.shotReq = true
	case glfw.KeyH:
		w.hidePanel = !w.hidePanel
	case glfw.Key1, glfw.Key2, glfw.Key3, glfw.Key4, glfw.Key5:
		i := int(k - glfw.Key1) // VF, EE, VE, VV, SQ
		w.view.KindFilter[i] = !w.view.KindFilter[i]
	}
}

func (w *window) mouseButton(b glfw.MouseButton, a glfw.Action, mods glfw.ModifierKey) {
	w.input.touch()
	x, y := w.lastX, w.lastY
	if !w.testCursor {
		x, y = w.win.GetCursorPos()
	}
	if a == glfw.Release {
		switch w.drag {
		case dragOrbit:
			if !w.moved && b == glfw.MouseButtonLeft {
				w.click(x, y)
			}
		case dragSpring:
			if b == glfw.MouseButtonLeft {
				w.loop.SpringOff()
				w.springBody = -1
				w.view.SpringActive = false
			}
		}
		if b == glfw.MouseButtonLeft || w.drag == dragPan {
			w.drag = dragNone
		}
		return
	}
	if w.drag != dragNone {
		return
	}
	w.pressX, w.pressY, w.lastX, w.lastY, w.moved = x, y, x, y, false
	switch b {
	case glfw.MouseButtonLeft:
		if mods&glfw.ModControl != 0 && !w.player && w.tl.Live && w.startSpring(x, y) {
			w.drag = dragSpring
			return
		}
		w.drag = dragOrbit
	case glfw.MouseButtonRight, glfw.MouseButtonMiddle:
		w.drag = dragPan
	}
}

func (w *window) cursorPos(x, y float64) {
	dx, dy := x-w.lastX, y-w.lastY
	w.lastX, w.lastY = x, y
	if w.drag == dragNone {
		return
	}
	w.input.touch()
	if !w.moved && (x-w.pressX)*(x-w.pressX)+(y-w.pressY)*(y-w.pressY) > 9 {
		w.moved = true
	}
	ww, wh := w.win.GetSize()
	switch w.drag {
	case dragOrbit:
		if w.moved {
			w.cam.Orbit(dx, dy)
		}
	case dragPan:
		w.cam.Pan(dx, dy, wh)
	case dragSpring:
		w.springTarget = w.cam.DragPoint(x, y, ww, wh, w.springAnchor)
		w.loop.Spring(w.springBody, w.springLocal, w.springTarget)
	}
}

func (w *window) scroll(_, dy float64) {
	w.input.touch()
	ww, wh := w.win.GetSize()
	w.cam.ZoomAt(w.lastX, w.lastY, ww, wh, math.Pow(0.9, dy)) // towards the cursor
}

func (w *window) cancelDrag() {
	if w.drag == dragSpring && w.loop != nil {
		w.loop.SpringOff()
	}
	w.drag, w.springBody, w.view.SpringActive = dragNone, -1, false
}

// click selects the contact marker or the body under the cursor.
func (w *window) click(x, y float64) {
	s := w.panel.ContactsShown(w.shownSnap(), &w.view)
	if s == nil {
		return
	}
	ww, wh := w.win.GetSize()
	if w.view.ShowContacts {
		if i, ok := render.PickContactScreen(s, &w.view, w.cam, x, y, ww, wh, 7); ok {
			w.view.SelectContact(s, i)
			return
		}
	}
	o, d := w.cam.Ray(x, y, ww, wh)
	if i, _, ok := render.PickBody(s, o, d); ok {
		w.view.SelectedBody = i
		w.view.HasSelectedContact = false
		return
	}
	w.view.SelectedBody, w.view.HasSelectedContact = -1, false
}

// startSpring attaches the Ctrl-drag spring to the free body under the cursor.
func (w *window) startSpring(x, y float64) bool {
	s := w.loop.Latest()
	ww, wh := w.win.GetSize()
	o, d := w.cam.Ray(x, y, ww, wh)
	i, t, ok := render.PickBody(s, o, d)
	if !ok || s.Bodies[i].Fixed {
		return false
	}
	b := &s.Bodies[i]
	hit := o.AddScaled(t, d.Unit())
	w.springBody = i
	w.springLocal = b.Rot.Normalize().InvRotate(hit.Sub(b.Pos))
	w.springAnchor, w.springTarget = hit, hit
	w.view.SelectedBody, w.view.HasSelectedContact = i, false
	w.loop.Spring(i, w.springLocal, hit)
	return true
}

func (w *window) updateSpringView(s *snap.Snapshot) {
	w.view.SpringActive = false
	if w.drag != dragSpring || s == nil || w.springBody < 0 || w.springBody >= len(s.Bodies) {
		return
	}
	b := &s.Bodies[w.springBody]
	w.view.SpringActive = true
	w.view.SpringFrom = b.Pos.Add(b.Rot.Rotate(w.springLocal))
	w.view.SpringTo = w.springTarget
}

// ---- measurements (--report) ----

func (w *window) report(out io.Writer) {
	wall := time.Since(w.started)
	n := max(w.frames, 1)
	fbw, fbh := w.win.GetFramebufferSize()
	s := w.shownSnap()
	if s == nil {
		return
	}
	fmt.Fprintf(out, "window           %dx%d, %d bodies, %d contacts at the end\n", fbw, fbh, len(s.Bodies)-len(s.Walls), s.Stats.Contacts)
	fmt.Fprintf(out, "frames           %d in %.2f s (%.1f fps)\n", w.frames, wall.Seconds(), float64(w.frames)/wall.Seconds())
	fmt.Fprintf(out, "render ms/frame  %.2f (draw + panel + swap), %.2f whole frame\n",
		w.renderTime.Seconds()*1e3/float64(n), w.frameWork.Seconds()*1e3/float64(n))
	if st := w.state(); st.Status != "" {
		fmt.Fprintf(out, "status           %s\n", st.Status)
	}
	if st := w.state(); st.RunWall > 0 {
		secs := st.RunWall.Seconds()
		fmt.Fprintf(out, "simulation       %d steps, %.4g s simulated in %.3f s running\n", st.RunSteps, st.RunSim, secs)
		fmt.Fprintf(out, "steps/s          %.1f\n", float64(st.RunSteps)/secs)
		fmt.Fprintf(out, "wall s / sim s   %.2f\n", secs/max(st.RunSim, 1e-300))
	}
}
