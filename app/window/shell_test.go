package window

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/sim/audit"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/ui"
)

// packed is the default scene from its packed state, as `grainlab` opens it.
func packed() app.Options {
	return app.Options{Scene: app.DefaultScene, Restart: "builtin:" + app.DefaultPacked, Workers: 2}
}

// frames draws n frames.
func (w *window) drawFrames(n int) {
	for i := 0; i < n; i++ {
		w.frameStart = time.Now()
		w.frame()
	}
}

// shotFrame draws frames until the loop's state is drawn and returns the
// last one read back (top row first).
func (w *window) shotFrame() *image.RGBA {
	w.loop.Sync(30 * time.Second)
	w.drawFrames(2)
	w.grab = true
	w.drawFrames(1)
	return w.grabbed
}

// hintPixels counts the hint's text colour (ui.UI.Hint: 1, 0.92, 0.55) in
// the rectangle r of img (y down, as render.Screenshot returns it).
func hintPixels(img *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R > 230 && c.G > 200 && c.B > 100 && c.B < 180 {
				n++
			}
		}
	}
	return n
}

// eventPixels counts the event message's colour (ui.EventColor: 0.55, 1,
// 0.75) in the rectangle r of img.
func eventPixels(img *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.G > 230 && c.R > 110 && c.R < 170 && c.B > 160 && c.B < 220 {
				n++
			}
		}
	}
	return n
}

// hintInside checks that the band's box (hint or event message) lies in
// the free band left of the panel and that its text is drawn only there.
func hintInside(w *window, img *image.RGBA, what string, fail func(string, ...any)) {
	ww, wh := w.win.GetSize()
	free := float32(ww) - w.panel.Width - 6
	b := w.hintBox
	if b[2] <= b[0] {
		fail("%s: no band drawn", what)
		return
	}
	if b[0] < 0 || b[2] > free || b[1] < 0 || b[3] > float32(wh) {
		fail("%s: band box %v not inside the free band [0, %.0f] × [0, %d]", what, b, free, wh)
	}
	if n := hintPixels(img, image.Rect(int(free), 0, ww, wh)) + eventPixels(img, image.Rect(int(free), 0, ww, wh)); n > 0 {
		fail("%s: %d text pixels right of the free band (under the panel)", what, n)
	}
}

// The first view explains itself: the hint from the scene's event is on
// screen at start (its yellow text in the band above the time bar), inside
// the free band left of the panel, and gone once the run has played; the
// event's message then shows in its place (and in the status line).
func TestFirstViewHint(t *testing.T) {
	withWindow(t, packed(), 800, 500, func(w *window, fail func(string, ...any)) {
		img := w.shotFrame()
		st := w.loop.State()
		if got := w.hint(st); got != "Space: play - the side walls go at t = 6 s" {
			fail("hint %q", got)
		}
		hintInside(w, img, "hint at 800×500 scale 1", fail)
		ww, wh := w.win.GetSize()
		free := ww - int(w.panel.Width) - 6
		band := image.Rect(0, wh-ui.TimeBarHeight-24-60, free, wh-ui.TimeBarHeight-24)
		before := hintPixels(img, band)
		w.key(glfw.KeySpace, 0, glfw.Press, 0)
		// until the run has played and taken a step (the event fires then):
		// a deadline, not a count of short sleeps, so that a loaded machine
		// that takes its first step late does not fail the test
		for end := time.Now().Add(60 * time.Second); time.Now().Before(end) && !(w.loop.State().Playing && w.loop.State().Snap.Stats.Step > 0); {
			w.loop.Sync(time.Second)
			time.Sleep(5 * time.Millisecond)
		}
		w.drawFrames(1)
		w.key(glfw.KeySpace, 0, glfw.Press, 0)
		img = w.shotFrame()
		after, event := hintPixels(img, band), eventPixels(img, band)
		t.Logf("hint text pixels in %v: %d at start, %d after play; event text pixels %d; status %q", band, before, after, event, w.status)
		if before < 100 || after > before/20 {
			fail("hint pixels %d at start (want ≥ 100), %d after play (want ≤ 5 %%)", before, after)
		}
		if w.status != "t = 6.000 s: side walls removed" {
			fail("status after the event: %q", w.status)
		}
		if event < 100 || w.eventMsg != w.status {
			fail("event message in the band: %d text pixels (want ≥ 100), message %q", event, w.eventMsg)
		}
		hintInside(w, img, "event message at 800×500 scale 1", fail)
		for _, mode := range []string{"H", "clean"} { // also without the panel
			if mode == "H" {
				w.hidePanel = true
			} else {
				w.setClean(true)
			}
			img = w.shotFrame()
			ww, wh := w.win.GetSize()
			if n := eventPixels(img, image.Rect(0, 0, ww, wh)); n < 100 {
				fail("event message with %s: %d text pixels (want ≥ 100)", mode, n)
			}
			if mode == "H" {
				w.hidePanel = false
			} else {
				w.setClean(false)
			}
		}
		w.eventEnd = time.Now() // the ~3 s have passed
		img = w.shotFrame()
		if n := eventPixels(img, band); n > event/20 {
			fail("event message still shown after its time: %d pixels", n)
		}
	})
	// at scale 2 the hint still fits the free band (a smaller font or wrapped)
	for _, size := range [][2]int{{800, 500}, {1280, 800}} {
		withWindow(t, packed(), size[0], size[1], func(w *window, fail func(string, ...any)) {
			w.u.SetScale(2)
			w.drawFrames(2)
			img := w.shotFrame()
			hintInside(w, img, fmt.Sprintf("hint at %d×%d scale 2", size[0], size[1]), fail)
			t.Logf("%d×%d scale 2: band box %v, panel width %.0f", size[0], size[1], w.hintBox, w.panel.Width)
		})
	}
}

// After the window shrinks from 1280×800 to 800×500 the panel is docked to
// its right edge and fully inside: the pixels the panel changes (a frame
// with it against one without) cover its whole docked rectangle.
func TestPanelDocksAfterResize(t *testing.T) {
	withWindow(t, smallScene("8"), 1280, 800, func(w *window, fail func(string, ...any)) {
		w.drawFrames(3)
		w.win.SetSize(800, 500)
		for i := 0; i < 50; i++ {
			glfw.PollEvents()
			if ww, wh := w.win.GetSize(); ww == 800 && wh == 500 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		ww, wh := w.win.GetSize()
		fw, fh := w.win.GetFramebufferSize()
		if ww != 800 || wh != 500 || fw != 800 || fh != 500 {
			fail("window %d×%d, framebuffer %d×%d after the resize, want 800×500", ww, wh, fw, fh)
			return
		}
		w.hintGone = true // the hint is not part of the panel
		for _, scale := range []float32{1, 2} {
			w.u.SetScale(scale)
			with := w.shotFrame()
			pw := int(w.panel.Width)
			w.hidePanel = true
			without := w.shotFrame()
			w.hidePanel = false
			if d := os.Getenv("GRAINLAB_SHOT_DIR"); d != "" {
				writePNG(filepath.Join(d, fmt.Sprintf("dock-800x500-scale%g.png", scale)), with)
			}
			in := image.Rect(ww-6-pw+2, 8, ww-6-2, wh-8)
			differ, total := 0, 0
			for y := in.Min.Y; y < in.Max.Y; y++ {
				for x := in.Min.X; x < in.Max.X; x++ {
					total++
					if with.RGBAAt(x, y) != without.RGBAAt(x, y) {
						differ++
					}
				}
			}
			t.Logf("scale %g: panel %d px wide; it changes %d of %d pixels of its docked rectangle %v", scale, pw, differ, total, in)
			if pw < 200 || pw+12 > ww || float64(differ) < 0.97*float64(total) {
				fail("scale %g: panel %d px wide in an 800 px window; changes %d of %d pixels of %v", scale, pw, differ, total, in)
			}
		}
	})
}

// Clean mode (C) hides the panel, time bar, walls, markers and arrows and
// shows three large readouts; C again restores the view; Esc leaves clean
// mode, then quits; Ctrl+Q quits.
func TestCleanModeAndQuitKeys(t *testing.T) {
	withWindow(t, smallScene("8"), 800, 500, func(w *window, fail func(string, ...any)) {
		w.drawFrames(2)
		before := w.view
		w.key(glfw.KeyC, 0, glfw.Press, 0)
		w.drawFrames(2)
		v := w.view
		if !w.clean || !v.ShowBodies || !v.ShowChains || v.ShowWalls || v.ShowContacts || v.ShowNormal || v.ShowFriction || v.ShowGrid || v.ShowAxes {
			fail("clean mode: on %v, view %+v", w.clean, v)
		}
		if r := cleanReadouts(w.shown, w.loop.State()); len(r) != 3 || !strings.HasPrefix(r[0], "t = ") || !strings.HasSuffix(r[2], " contacts") {
			fail("readouts %q", r)
		}
		w.key(glfw.KeyC, 0, glfw.Press, 0)
		if w.clean || w.view.ShowWalls != before.ShowWalls || w.view.ShowContacts != before.ShowContacts {
			fail("C again: clean %v, view not restored", w.clean)
		}
		w.key(glfw.KeyC, 0, glfw.Press, 0)
		w.key(glfw.KeyEscape, 0, glfw.Press, 0)
		if w.clean || w.win.ShouldClose() {
			fail("Esc in clean mode: clean %v, closing %v", w.clean, w.win.ShouldClose())
		}
		w.key(glfw.KeyEscape, 0, glfw.Press, 0)
		if !w.win.ShouldClose() {
			fail("Esc did not quit")
		}
		w.win.SetShouldClose(false)
		w.key(glfw.KeyQ, 0, glfw.Press, glfw.ModControl)
		if !w.win.ShouldClose() {
			fail("Ctrl+Q did not quit")
		}
		w.win.SetShouldClose(false)
	})
}

// snapSolids returns the free polyhedral bodies and the enabled walls of s
// in world space, for the audit (independent of the simulation's contacts).
func snapSolids(s *snap.Snapshot) ([]audit.Solid, []audit.Surface) {
	wallOn := map[int]bool{}
	for _, wl := range s.Walls {
		if wl.Enabled {
			wallOn[wl.Body] = true
		}
	}
	var solids []audit.Solid
	var walls []audit.Surface
	for i := range s.Bodies {
		b := &s.Bodies[i]
		m := &s.Meshes[b.Mesh]
		vs := make([]geom.Vec3, len(m.Verts))
		for k, v := range m.Verts {
			vs[k] = b.Pos.Add(b.Rot.Normalize().Rotate(v))
		}
		switch {
		case !b.Fixed:
			solids = append(solids, audit.Solid{Name: b.Name, Verts: vs, Tris: m.Tris})
		case wallOn[i]:
			walls = append(walls, audit.Surface{Name: b.Name, Verts: vs, Tris: m.Tris})
		}
	}
	return solids, walls
}

// The drop handler: a bad STL gives shape.LoadSTL's message in the status
// line and leaves the bodies as they were; a good one adds a body above the
// pile with no penetration (sim/audit on the published snapshot); a file of
// another kind is refused; a dropped scene opens. No display needed.
func TestDropHandler(t *testing.T) {
	l := startLoop(t, packed())
	w := &window{loop: l, tl: ui.NewTimeline(), shownIdx: -1, cacheIdx: -1, springBody: -1}
	st := sync1(t, l)
	n := len(st.Snap.Bodies)
	top := -1e300
	for i := range st.Snap.Bodies {
		if b := &st.Snap.Bodies[i]; !b.Fixed {
			top = max(top, b.Pos.Z+b.Radius)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "open.stl")
	os.WriteFile(bad, []byte("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n"), 0o644)
	w.drop([]string{bad})
	st = sync1(t, l)
	if !st.StatusErr || !strings.Contains(st.Status, "open.stl") || len(st.Snap.Bodies) != n {
		t.Errorf("bad STL: status %q (error %v), %d bodies, want %d", st.Status, st.StatusErr, len(st.Snap.Bodies), n)
	}
	t.Logf("bad STL: %s", st.Status)
	w.drop([]string{"../../assets/meshes/tetrapod.stl"})
	st = sync1(t, l)
	if st.StatusErr || len(st.Snap.Bodies) != n+1 {
		t.Fatalf("good STL: status %q, %d bodies, want %d", st.Status, len(st.Snap.Bodies), n+1)
	}
	nb := &st.Snap.Bodies[n]
	if !(nb.Pos.Z-nb.Radius > top) {
		t.Errorf("the new body's bounding sphere reaches down to z = %g, the pile's top is %g", nb.Pos.Z-nb.Radius, top)
	}
	solids, walls := snapSolids(st.Snap)
	if v := audit.Check(solids, walls, 0); len(v) > 0 {
		t.Errorf("%d penetrations after the drop, first %+v", len(v), v[0])
	}
	t.Logf("good STL: %s", st.Status)
	w.drop([]string{filepath.Join(dir, "notes.txt")})
	if !w.statusErr || !strings.Contains(w.status, "not a .stl mesh") {
		t.Errorf("a text file: status %q", w.status)
	}
	scene := filepath.Join(dir, "drop.yaml")
	os.WriteFile(scene, []byte("name: dropped\ntime: 1\nintegrator: {name: explicit, dt: 1.0e-4}\ncontact:\n  default: {law: barrier, gbar: 0.005, eps1: 1e7, n1: 1, f: 0.5, n2: -2, zeta: 0.5, mu_s: 0.3, mu_d: 0.3, eps_t: 1e7, c_t: 2e3}\nwalls:\n  - {name: ground, type: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"), 0o644)
	w.drop([]string{scene})
	st = sync1(t, l)
	if st.Scene != scene || st.StatusErr {
		t.Errorf("a dropped scene: scene %q, status %q", st.Scene, st.Status)
	}
}
