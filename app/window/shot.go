package window

// `grainlab shot`: simulate headless, render one frame in a hidden window,
// read it back (glReadPixels) and write a PNG.

import (
	"fmt"
	"image"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/render"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/world"
	"grainlab/ui"
)

// ShotOptions control how a snapshot is rendered to an image.
type ShotOptions struct {
	Width, Height int
	View          *render.View // nil: AppView with the arrow scale fitted to the forces
	Panel         bool         // draw the control panel as the window shows it
	Law           *world.ContactParams
	Shapes        []world.MaterialShape // smooth shapes per material (the panel's Shapes section)
	MeanMass      float64               // for the panel's Δt_c plot
	// Yaw, Pitch (degrees) orient the camera when Orient is set. The camera
	// frames the bodies (not the walls) and is then zoomed by Zoom steps.
	Orient     bool
	Yaw, Pitch float64
	Zoom       float64
	Overlays   bool // AllOverlays on the default view
	// Status is the panel's status line ("": "grainlab shot at t = …");
	// Hint, when set, is drawn as the window's first-view hint (with Panel).
	Status, Hint string
	// Clean draws the window's clean mode: CleanView and the large
	// readouts, no panel.
	Clean bool
}

func cmdShot(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("shot", stderr)
	var o app.Options
	var sets app.SetFlags
	var t float64
	var out, size, camera string
	var quiet, panel bool
	var zoom float64
	var overlays, clean bool
	fs.Float64Var(&t, "time", 0, "simulated time of the picture in s")
	fs.StringVar(&out, "out", "", "PNG file to write (required)")
	fs.StringVar(&size, "size", "1280x800", "image size WIDTHxHEIGHT in pixels")
	fs.Var(&sets, "set", "override a scene value: --set key.path=value (repeatable)")
	fs.IntVar(&o.Workers, "workers", 0, "worker goroutines (default: all cores)")
	fs.StringVar(&o.Integrator, "integrator", "", "integrator name (default: the scene's)")
	fs.StringVar(&o.Restart, "restart", "", `start from the body states of a final.json ("builtin:NAME" for a shipped state, e.g. builtin:`+app.DefaultPacked+`); --time is then absolute`)
	fs.BoolVar(&quiet, "quiet", false, "no progress bar")
	fs.BoolVar(&panel, "panel", false, "draw the control panel too")
	fs.StringVar(&camera, "camera", "", "camera direction YAW,PITCH in degrees (default: the window's)")
	fs.Float64Var(&zoom, "zoom", 0, "zoom steps after framing the bodies (positive: closer)")
	fs.BoolVar(&overlays, "overlays", false, "turn on every overlay (spheres, skin, suppressed contacts, colour by speed)")
	fs.BoolVar(&clean, "clean", false, "clean mode, as the window's C key: bodies and large readouts only")
	name, err := app.ParseWithPositional(fs, args)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitInput
	}
	o.Scene, o.Sets = name, sets
	so := ShotOptions{Panel: panel && !clean, Zoom: zoom, Overlays: overlays, Clean: clean}
	if so.Width, so.Height, err = parseSize(size); err != nil {
		fmt.Fprintln(stderr, "grainlab shot: --size:", err)
		return app.ExitInput
	}
	if camera != "" {
		parts := strings.Split(camera, ",")
		var yaw, pitch float64
		var e1, e2 error
		if len(parts) == 2 {
			yaw, e1 = strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
			pitch, e2 = strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		}
		if len(parts) != 2 || e1 != nil || e2 != nil || math.IsNaN(yaw+pitch) || math.IsInf(yaw+pitch, 0) {
			fmt.Fprintf(stderr, "grainlab shot: --camera: want YAW,PITCH in degrees (got %q)\n", camera)
			return app.ExitInput
		}
		so.Orient, so.Yaw, so.Pitch = true, yaw, pitch
	}
	switch {
	case out == "":
		fmt.Fprintln(stderr, "grainlab shot: --out FILE.png is required")
		return app.ExitInput
	case math.IsNaN(t) || math.IsInf(t, 0) || t < 0:
		fmt.Fprintln(stderr, "grainlab shot: --time must be a finite number ≥ 0")
		return app.ExitInput
	case math.IsNaN(zoom) || math.IsInf(zoom, 0) || math.Abs(zoom) > 100:
		fmt.Fprintln(stderr, "grainlab shot: --zoom must be within ±100 steps")
		return app.ExitInput
	}
	if isRunFile(name) {
		if len(sets) > 0 || o.Restart != "" || o.Integrator != "" {
			fmt.Fprintln(stderr, "grainlab shot: --set, --restart and --integrator apply to scenes, not to a recorded run")
			return app.ExitInput
		}
		return shotRun(name, t, out, so, quiet, stderr)
	}
	if t > 0 {
		o.Time = t // the run's end is the picture's time
		o.Picture = true
	}
	s, err := app.Load(o)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitFor(err)
	}
	if err := checkDisplay(); err != nil { // before a long simulation
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitFailure
	}
	w := s.World
	if t > w.Time {
		var bar *app.Progress
		if !quiet {
			bar = app.NewProgress(stderr, w.Time, t)
		}
		_, err := s.StepTo(t, func() bool {
			if bar != nil {
				bar.Update(w.Time, w.Steps)
			}
			return false
		})
		if bar != nil {
			bar.Done(w.Time)
		}
		if err != nil {
			fmt.Fprintf(stderr, "grainlab shot: simulation failed at t=%.6g s (step %d): %v\n", w.Time, w.Steps, err)
			return app.ExitFailure
		}
	}
	so.Law = w.DefaultParams()
	so.Shapes = w.SmoothShapes()
	so.MeanMass = app.MeanMass(w)
	so.Hint, so.Status = app.EventStatus(w) // what the window shows at this state
	if so.Hint != "" {
		so.Hint = "Space: play - " + so.Hint
	}
	img, err := RenderShot(w.Snapshot(nil), so)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitFailure
	}
	if err := writePNG(out, img); err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitFailure
	}
	if !quiet {
		fmt.Fprintf(stderr, "wrote %s (%dx%d, t=%.4g s, %d contacts)\n", out, img.Bounds().Dx(), img.Bounds().Dy(), w.Time, w.Stats.Contacts)
	}
	return app.ExitOK
}

// shotRun renders the frame of a recorded run at time t (the newest frame
// at or before it) to the PNG out.
func shotRun(path string, t float64, out string, so ShotOptions, quiet bool, stderr io.Writer) int {
	src, err := app.OpenFrames(path)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitInput
	}
	defer src.Close()
	s, err := frameAtTime(src, path, t)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitInput
	}
	if err := checkDisplay(); err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitFailure
	}
	img, err := RenderShot(s, so)
	if err == nil {
		err = writePNG(out, img)
	}
	if err != nil {
		fmt.Fprintln(stderr, "grainlab shot:", err)
		return app.ExitFailure
	}
	if !quiet {
		fmt.Fprintf(stderr, "wrote %s (%dx%d, frame at t=%.6g s of %s, %d contacts)\n", out, img.Bounds().Dx(), img.Bounds().Dy(), s.Stats.Time, path, s.Stats.Contacts)
	}
	return app.ExitOK
}

// frameAtTime decodes the newest frame of src at or before t; a time
// outside the run is an error naming its span.
func frameAtTime(src snap.Frames, name string, t float64) (*snap.Snapshot, error) {
	n := src.Len()
	if n == 0 {
		return nil, fmt.Errorf("%s: no complete frame", name)
	}
	t0, t1 := src.Time(0), src.Time(n-1)
	const slack = 1e-9
	if t < t0-slack*math.Max(1, math.Abs(t0)) || t > t1+slack*math.Max(1, math.Abs(t1)) {
		return nil, fmt.Errorf("%s: --time %g is outside the run's frames t = %g .. %g s", name, t, t0, t1)
	}
	i := app.FrameIndex(src, t+slack*math.Max(1, math.Abs(t)))
	s, err := src.Frame(i)
	if err != nil {
		return nil, fmt.Errorf("%s: frame %d (t=%g s): %w", name, i, src.Time(i), err)
	}
	return s, nil
}

// parseSize parses "WIDTHxHEIGHT".
func parseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if ok {
		w, err = strconv.Atoi(a)
		if err == nil {
			h, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("want WIDTHxHEIGHT, e.g. 1280x800 (got %q)", s)
	}
	if w < 16 || h < 16 || w > 8192 || h > 8192 {
		return 0, 0, fmt.Errorf("each side must be within 16..8192 pixels (got %dx%d)", w, h)
	}
	return w, h, nil
}

// RenderShot renders s in a hidden window of the given size and reads the
// frame back. It must run on the main OS thread (GLFW) and needs a display.
func RenderShot(s *snap.Snapshot, o ShotOptions) (*image.RGBA, error) {
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = WindowWidth, WindowHeight
	}
	win, err := openWindow(o.Width, o.Height, "Grainlab shot", false)
	if err != nil {
		return nil, err
	}
	defer glfw.Terminate()
	defer win.Destroy()
	r, err := render.New()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fbw, fbh := win.GetFramebufferSize()
	v := shotView(s, o)
	cam := shotCamera(s, o, fbw, fbh)
	if !o.Panel && !o.Clean {
		r.Draw(s, &v, cam, fbw, fbh)
		img := render.Screenshot(fbw, fbh)
		win.SwapBuffers()
		return img, nil
	}
	u, err := ui.New(win)
	if err != nil {
		return nil, err
	}
	defer u.Close()
	p := &ui.Panel{}
	if o.Clean {
		v = CleanView(v)
	}
	if o.Status == "" {
		o.Status = fmt.Sprintf("grainlab shot at t = %.3g s", s.Stats.Time)
	}
	in := ui.PanelInput{
		Snap: s, View: &v, Scenes: []string{s.Scene}, Integrators: app.Integrators(), Integrator: s.Stats.Integrator,
		LawKinds: LawKinds, Speed: 1, ValidateLaw: ValidateLaw, DeriveLaw: DeriveLaw, LawCurve: LawCurve(o.MeanMass),
		Status: o.Status, Scale: 1,
	}
	if o.Law != nil {
		in.Law = PanelLaw(*o.Law)
		in.SmoothLaw, in.HasSmooth, in.SmoothOnly = PanelSmooth(*o.Law), o.Law.HasSmooth || len(o.Shapes) > 0, !o.Law.HasPoly
		in.ValidateSmooth = ValidateSmooth(*o.Law)
	}
	if len(o.Shapes) > 0 {
		in.Materials, in.ValidateMaterial = PanelShapes(o.Shapes), ValidateShape
	}
	var img *image.RGBA
	for i := 0; i < 3; i++ { // imgui lays out over a couple of frames
		u.NewFrame()
		in.ColorRange[0], in.ColorRange[1] = r.ColorRange()
		if o.Clean {
			u.Readouts(cleanReadouts(s, nil))
		} else {
			p.Draw(&in)
			if o.Hint != "" {
				u.Hint(o.Hint, float32(o.Width)-p.Width-6, 24)
			}
		}
		r.Draw(s, &v, cam, fbw, fbh)
		u.Render()
		if i == 2 {
			img = render.Screenshot(fbw, fbh)
		}
		win.SwapBuffers()
	}
	return img, nil
}

// shotView is the view of a shot of s: o.View, or AppView with the arrow
// scale fitted to the forces of s (and every overlay with o.Overlays).
func shotView(s *snap.Snapshot, o ShotOptions) render.View {
	if o.View != nil {
		return *o.View
	}
	v := AppView()
	v.AutoArrowScale(s)
	if o.Overlays {
		AllOverlays(&v)
	}
	return v
}

// shotCamera frames the bodies of s in an fbw×fbh image, oriented and
// zoomed as o says.
func shotCamera(s *snap.Snapshot, o ShotOptions, fbw, fbh int) *render.Camera {
	cam := render.NewCamera()
	if o.Orient {
		cam.Yaw, cam.Pitch = o.Yaw*math.Pi/180, o.Pitch*math.Pi/180
	}
	cam.Aspect = float64(fbw) / float64(fbh)
	fitBodies(cam, s)
	if o.Zoom != 0 {
		cam.Zoom(o.Zoom)
	}
	return cam
}

// fitBodies frames the free bodies of s (without the walls), falling back to
// Camera.Fit when there are none.
func fitBodies(cam *render.Camera, s *snap.Snapshot) {
	if s == nil {
		return
	}
	wall := make([]bool, len(s.Bodies))
	for _, w := range s.Walls {
		if w.Body >= 0 && w.Body < len(wall) {
			wall[w.Body] = true
		}
	}
	inf := math.Inf(1)
	lo, hi := geom.V(inf, inf, inf), geom.V(-inf, -inf, -inf)
	n := 0
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if wall[i] || b.Fixed || !b.Pos.IsFinite() {
			continue
		}
		r := geom.V(b.Radius, b.Radius, b.Radius)
		lo, hi = lo.Min(b.Pos.Sub(r)), hi.Max(b.Pos.Add(r))
		n++
	}
	if n == 0 {
		cam.Fit(s)
		return
	}
	cam.FitSphere(lo.Add(hi).Scale(0.5), math.Max(hi.Sub(lo).Norm()/2, 1e-4))
}

// AppView is the view the window and shots start with: render.DefaultView
// with logarithmic force arrows, so that the many small resting forces of a
// pack stay visible next to the impact peaks.
func AppView() render.View {
	v := render.DefaultView()
	v.LogArrows = true
	return v
}

// AllOverlays turns on every overlay of v: bounding spheres, contact skin,
// suppressed contacts, and bodies coloured by speed.
func AllOverlays(v *render.View) {
	v.ShowBodies, v.ShowWalls, v.ShowGrid, v.ShowAxes, v.ShowEdges = true, true, true, true, true
	v.ShowContacts, v.ShowSuppressed, v.ShowNormal, v.ShowFriction = true, true, true, true
	v.ShowSpheres, v.ShowSkin = true, true
	v.OccludedAlpha = 0.25 // hidden markers and arrows ghosted
	for k := range v.KindFilter {
		v.KindFilter[k] = true
	}
	v.ColorBy = render.ColorSpeed
}
