package render_test

import (
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/internal/gltest"
	"grainlab/render"
	"grainlab/render/mainthread"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/snap"
	"grainlab/ui"
)

// GL must run on the main OS thread: TestMain serves onMain calls there.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

func onMain(f func()) { mainthread.Call(f) }

// withWindow runs f on the main thread with a hidden w×h GL 4.1 core window,
// skipping the test when no display is available.
func withWindow(t *testing.T, w, h int, f func(win *glfw.Window)) {
	t.Helper()
	mainthread.NeedDisplay(t)
	var skip string
	onMain(func() {
		if err := gltest.Init(); err != nil {
			skip = "glfw.Init: " + err.Error()
			return
		}
		defer glfw.Terminate()
		win, err := gltest.Window(w, h, "grainlab test")
		if err != nil {
			skip = "CreateWindow: " + err.Error()
			return
		}
		defer win.Destroy()
		f(win)
	})
	if skip != "" {
		mainthread.NoWindow(t, skip)
	}
}

// withRenderer is withWindow with a renderer (a failure to create it is a
// test error) and the window's framebuffer size.
func withRenderer(t *testing.T, w, h int, f func(r *render.Renderer, fbw, fbh int)) {
	t.Helper()
	withWindow(t, w, h, func(win *glfw.Window) {
		r, err := render.New()
		if err != nil {
			t.Error(err)
			return
		}
		defer r.Close()
		fbw, fbh := win.GetFramebufferSize()
		f(r, fbw, fbh)
	})
}

func shotDir(t *testing.T) string {
	if d := os.Getenv("GRAINLAB_SHOT_DIR"); d != "" {
		if err := os.MkdirAll(d, 0o755); err == nil {
			return d
		}
	}
	return t.TempDir()
}

func savePNG(t *testing.T, dir, name string, img image.Image) {
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Error(err)
	}
	t.Logf("wrote %s", p)
}

type rect struct{ x0, y0, x1, y1 int }

// countColor counts pixels of r within tol (per 8-bit channel) of c.
func countColor(img *image.RGBA, r rect, c [3]float32, tol int) int {
	want := [3]int{int(math.Round(float64(c[0]) * 255)), int(math.Round(float64(c[1]) * 255)), int(math.Round(float64(c[2]) * 255))}
	n := 0
	for y := r.y0; y < r.y1; y++ {
		for x := r.x0; x < r.x1; x++ {
			o := img.PixOffset(x, y)
			ok := true
			for k := 0; k < 3; k++ {
				if d := int(img.Pix[o+k]) - want[k]; d > tol || d < -tol {
					ok = false
				}
			}
			if ok {
				n++
			}
		}
	}
	return n
}

func countDiff(a, b *image.RGBA, r rect, tol int) int {
	n := 0
	for y := r.y0; y < r.y1; y++ {
		for x := r.x0; x < r.x1; x++ {
			o := a.PixOffset(x, y)
			for k := 0; k < 3; k++ {
				if d := int(a.Pix[o+k]) - int(b.Pix[o+k]); d > tol || d < -tol {
					n++
					break
				}
			}
		}
	}
	return n
}

func distinctColors(img *image.RGBA) int {
	seen := map[[3]uint8]bool{}
	for i := 0; i < len(img.Pix); i += 4 {
		seen[[3]uint8{img.Pix[i], img.Pix[i+1], img.Pix[i+2]}] = true
	}
	return len(seen)
}

func glErr(tag string) error {
	if e := gl.GetError(); e != gl.NO_ERROR {
		return fmt.Errorf("%s: GL error 0x%x", tag, e)
	}
	return nil
}

func TestHarness(t *testing.T) {
	const W, H = 640, 400
	var scene, noBodies, overlays, withPanel *image.RGBA
	var errs []error
	var stats render.FrameStats
	var fbw, fbh int
	var drawAllocs float64
	withWindow(t, W, H, func(win *glfw.Window) {
		r, err := render.New()
		if err != nil {
			errs = append(errs, err)
			return
		}
		defer r.Close()
		u, err := ui.New(win)
		if err != nil {
			errs = append(errs, err)
			return
		}
		defer u.Close()
		fbw, fbh = win.GetFramebufferSize()
		s := render.DemoSnapshot()
		v := render.DefaultView()
		cam := render.NewCamera()
		cam.Fit(s)
		v.AutoArrowScale(s)

		r.Draw(s, &v, cam, fbw, fbh)
		errs = append(errs, glErr("scene"))
		stats = r.Stats()
		drawAllocs = testing.AllocsPerRun(10, func() { r.Draw(s, &v, cam, fbw, fbh) })
		scene = render.Screenshot(fbw, fbh)

		v2 := v
		v2.ShowBodies = false
		r.Draw(s, &v2, cam, fbw, fbh)
		noBodies = render.Screenshot(fbw, fbh)

		v3 := v
		v3.ShowSkin, v3.ShowSpheres, v3.ColorBy, v3.ShowSuppressed = true, true, render.ColorSpeed, true
		v3.SelectedBody = 2
		v3.SelectContact(s, 4)
		r.Draw(s, &v3, cam, fbw, fbh)
		errs = append(errs, glErr("overlays"))
		overlays = render.Screenshot(fbw, fbh)

		p := &ui.Panel{Width: 270}
		law := ui.LawParams{Kind: "barrier", Eps2: 2e4, C2: 0.1, Set: law.Set{Normal: law.Normal{GBar: 1e-3, Eps1: 1e4, N1: 2, F: 0.5, N2: 3}, Zeta: 0.1, Friction: law.Friction{MuS: 0.5, MuD: 0.4, EpsT: 1e5, CT: 1}}}
		in := &ui.PanelInput{
			Snap: s, View: &v, Scenes: []string{"demo", "pile"}, Integrators: []string{"demo", "RK4"}, Integrator: "demo",
			LawKinds: []string{"barrier"}, Law: law, Playing: true, Speed: 1,
			LawCurve: func(l ui.LawParams) (g, fn, dtc []float32, err error) {
				for i := 1; i <= 64; i++ {
					x := l.Normal.GBar * float64(i) / 64
					g = append(g, float32(x))
					fn = append(fn, float32(l.Normal.Eps1*math.Pow(l.Normal.GBar/x-1, l.Normal.N1)))
					dtc = append(dtc, float32(1e-4*x/l.Normal.GBar))
				}
				return
			},
		}
		for i := 0; i < 3; i++ { // imgui needs a frame or two to lay out
			u.NewFrame()
			in.ColorRange[0], in.ColorRange[1] = r.ColorRange()
			p.Draw(in)
			r.Draw(s, &v, cam, fbw, fbh)
			u.Render()
		}
		errs = append(errs, glErr("panel"))
		withPanel = render.Screenshot(fbw, fbh)
		win.SwapBuffers()
	})
	for _, e := range errs {
		if e != nil {
			t.Fatal(e)
		}
	}
	dir := shotDir(t)
	savePNG(t, dir, "scene.png", scene)
	savePNG(t, dir, "overlays.png", overlays)
	savePNG(t, dir, "panel.png", withPanel)
	t.Logf("framebuffer %dx%d, stats %+v, %.0f allocations per Draw", fbw, fbh, stats, drawAllocs)
	if drawAllocs > 4 {
		t.Errorf("%.0f allocations per steady-state Draw", drawAllocs)
	}

	if n := distinctColors(scene); n < 200 {
		t.Errorf("scene looks blank: %d distinct colours", n)
	}
	// everything but the axes gizmo in the bottom-left corner
	sceneR := rect{0, 0, fbw, fbh - 110}
	if n := countDiff(scene, noBodies, rect{0, 0, fbw, fbh}, 10); n < 3000 {
		t.Errorf("only %d body pixels", n)
	}
	for k := snap.ContactKind(0); k < snap.NumContactKinds; k++ {
		if n := countColor(scene, sceneR, render.KindColors[k], 10); n < 4 {
			t.Errorf("contact kind %s colour %v: %d pixels", k, render.KindColors[k], n)
		}
	}
	if n := countColor(scene, sceneR, render.NormalArrowColor, 10); n < 20 {
		t.Errorf("normal arrow colour: %d pixels", n)
	}
	if n := countColor(scene, sceneR, render.FrictionArrowColor, 10); n < 20 {
		t.Errorf("friction arrow colour: %d pixels", n)
	}
	if n := countColor(overlays, sceneR, render.SuppressedColor, 6); n < 4 {
		t.Errorf("suppressed marker: %d pixels", n)
	}
	if stats.DrawCalls > 20 {
		t.Errorf("%d draw calls for the demo scene", stats.DrawCalls)
	}
	if n := countDiff(scene, withPanel, rect{fbw - 250, 20, fbw - 20, fbh - 20}, 20); n < 5000 {
		t.Errorf("panel hardly visible: %d changed pixels", n)
	}
}

// bigScene returns n bodies (cubes and tetrapods) in a loose pile with two
// contacts per body.
func bigScene(n int) *snap.Snapshot {
	s := render.DemoSnapshot()
	s.Bodies = s.Bodies[3:5] // keep the walls' bodies
	s.Walls[0].Body, s.Walls[1].Body = 0, 1
	s.Contacts = s.Contacts[:0]
	rng := rand.New(rand.NewSource(1))
	side := int(math.Ceil(math.Cbrt(float64(n))))
	for i := 0; i < n; i++ {
		x, y, z := i%side, (i/side)%side, i/(side*side)
		p := geom.Vec3{X: 0.25 * float64(x), Y: 0.25 * float64(y), Z: 0.12 + 0.25*float64(z)}
		q := geom.QAxisAngle(geom.Vec3{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}, rng.Float64()*3)
		s.Bodies = append(s.Bodies, snap.Body{Mesh: i % 2, Pos: p, Rot: q, Radius: 0.2, Vel: geom.Vec3{Z: rng.Float64()}})
		for k := 0; k < 2; k++ {
			s.Contacts = append(s.Contacts, snap.Contact{A: len(s.Bodies) - 1, B: 0, Kind: snap.ContactKind(rng.Intn(4)),
				Point: p.Add(geom.Vec3{X: 0.1, Z: -0.1 * float64(k)}), Normal: geom.Vec3{Z: 1}, Fn: rng.Float64() * 5,
				Ft: geom.Vec3{X: rng.Float64()}})
		}
	}
	return s
}

func TestFrameTime(t *testing.T) {
	const W, H = 1280, 800
	type res struct {
		n  int
		ms float64
		st render.FrameStats
	}
	var out []res
	var pile *image.RGBA
	withRenderer(t, W, H, func(r *render.Renderer, fbw, fbh int) {
		for _, n := range []int{100, 1000, 5000} {
			s := bigScene(n)
			v := render.DefaultView()
			cam := render.NewCamera()
			cam.Fit(s)
			v.AutoArrowScale(s)
			r.Draw(s, &v, cam, fbw, fbh) // upload meshes
			gl.Finish()
			const frames = 10
			t0 := time.Now()
			for i := 0; i < frames; i++ {
				cam.Orbit(3, 0)
				r.Draw(s, &v, cam, fbw, fbh)
				gl.Finish()
			}
			out = append(out, res{n, float64(time.Since(t0).Microseconds()) / 1000 / frames, r.Stats()})
			if n == 1000 {
				pile = render.Screenshot(fbw, fbh)
			}
		}
	})
	if pile != nil {
		savePNG(t, shotDir(t), "pile1000.png", pile)
	}
	for _, o := range out {
		t.Logf("%5d bodies, %5d contacts at 1280x800: %.1f ms/frame (%d draw calls, %d arrows)", o.n, 2*o.n, o.ms, o.st.DrawCalls, o.st.Arrows)
	}
}

// TestPanelShot renders the panel with every section open into a tall window
// for a visual check (GRAINLAB_SHOT_DIR/panel_full.png).
func TestPanelShot(t *testing.T) {
	var img *image.RGBA
	var err error
	withWindow(t, 1000, 1500, func(win *glfw.Window) {
		var r *render.Renderer
		if r, err = render.New(); err != nil {
			return
		}
		defer r.Close()
		var u *ui.UI
		if u, err = ui.New(win); err != nil {
			return
		}
		defer u.Close()
		fbw, fbh := win.GetFramebufferSize()
		s := render.DemoSnapshot()
		v := render.DefaultView()
		v.SelectedBody = 0
		v.SelectContact(s, 4)
		v.ColorBy = render.ColorForce
		cam := render.NewCamera()
		cam.Fit(s)
		v.AutoArrowScale(s)
		p := &ui.Panel{Width: 420, ExpandAll: true}
		in := &ui.PanelInput{
			Snap: s, View: &v, Scenes: []string{"demo", "pile"}, Integrators: []string{"demo", "RK4"}, Integrator: "demo",
			LawKinds:  []string{"barrier", "hertz"},
			Law:       ui.LawParams{Kind: "barrier", Eps2: 2e4, C2: 0.1, Set: law.Set{Normal: law.Normal{GBar: 1e-3, Eps1: 1e4, N1: 2, F: 0.5, N2: 3}, Zeta: 0.1, Friction: law.Friction{MuS: 0.5, MuD: 0.4, EpsT: 1e5, CT: 1}}},
			Materials: []ui.Material{{Name: "rock"}, {Index: 1, Name: "sq", Kind: "superquadric", Count: 12, N1: 4, N2: 4, A: 0.1, B: 0.08, C: 0.05}},
			Speed:     1, Status: "loaded demo", ColorRange: [2]float64{0, 12},
			LawCurve: func(l ui.LawParams) (g, fn, dtc []float32, err error) {
				for i := 1; i <= 64; i++ {
					x := l.Normal.GBar * float64(i) / 64
					g = append(g, float32(x))
					fn = append(fn, float32(l.Normal.Eps1*math.Pow(l.Normal.GBar/x-1, l.Normal.N1)))
					dtc = append(dtc, float32(1e-4*math.Sqrt(x/l.Normal.GBar)))
				}
				return
			},
		}
		for i := 0; i < 4; i++ {
			u.NewFrame()
			s.Stats.Step += 10
			s.Stats.Time += 1e-3
			s.Stats.Kinetic = 0.05 * (1 + math.Sin(float64(i)))
			p.Draw(in)
			in.ColorRange[0], in.ColorRange[1] = r.ColorRange()
			r.Draw(s, &v, cam, fbw, fbh)
			u.Render()
		}
		err = glErr("panel")
		img = render.Screenshot(fbw, fbh)
	})
	if err != nil {
		t.Fatal(err)
	}
	savePNG(t, shotDir(t), "panel_full.png", img)
}
