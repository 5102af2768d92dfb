package ui

import (
	"fmt"
	"image"
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/internal/gltest"
	"grainlab/render"
	"grainlab/render/mainthread"
)

// GL must run on the main OS thread: TestMain serves onMain calls there.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

func onMain(f func()) { mainthread.Call(f) }

// TestPlatformAndRenderer needs a display; it skips cleanly without one.
func TestPlatformAndRenderer(t *testing.T) {
	withGLFW(t, func(g *glTest) {
		fail := g.fail
		win := g.window(640, 400, "ui test")
		if win == nil {
			return
		}
		defer win.Destroy()

		prevCalls := 0
		win.SetMouseButtonCallback(func(*glfw.Window, glfw.MouseButton, glfw.Action, glfw.ModifierKey) { prevCalls++ })
		u, err := New(win)
		if err != nil {
			fail(err.Error())
			return
		}
		defer u.Close()
		var clicks, keys []glfw.Action
		var chars []rune
		u.Platform.App = AppHandlers{
			MouseButton: func(_ glfw.MouseButton, a glfw.Action, _ glfw.ModifierKey) { clicks = append(clicks, a) },
			Key:         func(_ glfw.Key, _ int, a glfw.Action, _ glfw.ModifierKey) { keys = append(keys, a) },
			Char:        func(r rune) { chars = append(chars, r) },
		}
		s := render.DemoSnapshot()
		v := render.DefaultView()
		p := &Panel{Width: 300}
		in := &PanelInput{Snap: s, View: &v}

		frame := func() {
			u.NewFrame()
			p.Draw(in)
			gl.Enable(gl.DEPTH_TEST)
			gl.Disable(gl.BLEND)
			gl.Viewport(1, 2, 300, 200)
			u.Render()
		}
		frame()
		if gl.IsEnabled(gl.BLEND) || !gl.IsEnabled(gl.DEPTH_TEST) || gl.IsEnabled(gl.SCISSOR_TEST) {
			fail("imgui renderer did not restore enable state")
		}
		var vp [4]int32
		gl.GetIntegerv(gl.VIEWPORT, &vp[0])
		if vp != [4]int32{1, 2, 300, 200} {
			fail("viewport not restored")
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			fail("GL error")
		}

		// mouse far from the panel: the app gets press and release
		io := imgui.CurrentIO()
		if io.WantCaptureMouse() {
			fail("imgui wants the mouse with no mouse activity")
		}
		u.Platform.mouseButton(win, glfw.MouseButtonLeft, glfw.Press, 0)
		frame()
		u.Platform.mouseButton(win, glfw.MouseButtonLeft, glfw.Release, 0)
		if len(clicks) != 2 || prevCalls != 2 {
			fail("app or previous callback missed mouse events")
		}
		u.Platform.key(win, glfw.KeySpace, 0, glfw.Press, 0)
		u.Platform.char(win, 'x')
		if len(keys) != 1 || len(chars) != 1 {
			fail("app missed key/char events")
		}
		u.Platform.key(win, glfw.KeySpace, 0, glfw.Release, 0)
	})
}

// TestQuickEntersReachField: an Enter pressed and released through the
// GLFW key callback between two frames (a quick press), with a text field
// focused, makes the field return; twice, focusing the field again in
// between (Enter leaves a single-line field). When imgui sampled the key
// state once per frame such presses were lost.
func TestQuickEntersReachField(t *testing.T) {
	withUIWindow(t, 640, 400, func(g *glTest, win *glfw.Window, u *UI) {
		text, enters := "", 0
		frame := func(focus bool) {
			u.NewFrame()
			imgui.Begin("field")
			if focus {
				imgui.SetKeyboardFocusHere()
			}
			if imgui.InputTextV("##f", &text, imgui.InputTextFlagsEnterReturnsTrue, nil) {
				enters++
			}
			imgui.End()
			u.Render()
		}
		for k := range 2 {
			frame(true)
			frame(false)
			frame(false)
			if !imgui.CurrentIO().WantCaptureKeyboard() {
				g.fail("the field did not take the keyboard")
				return
			}
			u.Platform.char(win, 'a')
			u.Platform.key(win, glfw.KeyEnter, 0, glfw.Press, 0)
			u.Platform.key(win, glfw.KeyEnter, 0, glfw.Release, 0)
			for range 3 {
				frame(false)
			}
			if enters != k+1 {
				g.fail(fmt.Sprintf("quick Enter %d: the field returned %d times, want %d", k+1, enters, k+1))
			}
		}
		if text != "aa" {
			g.fail(fmt.Sprintf("field text %q, want \"aa\"", text))
		}
	})
}

// glTest is a GL test's state on the main thread: why it skips and the
// errors it found.
type glTest struct {
	skip string
	errs []string
}

// fail records an error (reported after the main-thread part).
func (g *glTest) fail(s string) { g.errs = append(g.errs, s) }

// window creates a hidden w×h window (the hints withGLFW set) and makes its
// context current; nil, with the test set to skip, when it cannot.
func (g *glTest) window(w, h int, title string) *glfw.Window {
	win, err := gltest.Window(w, h, title)
	if err != nil {
		g.skip = "CreateWindow: " + err.Error()
		return nil
	}
	return win
}

// withGLFW runs f on the main thread with GLFW initialised and the window
// hints of a hidden GL 4.1 core context set, then skips the test or
// reports the errors f recorded. It skips without a display.
func withGLFW(t *testing.T, f func(g *glTest)) {
	t.Helper()
	mainthread.NeedDisplay(t)
	var g glTest
	onMain(func() {
		if err := gltest.Init(); err != nil {
			g.skip = "glfw.Init: " + err.Error()
			return
		}
		defer glfw.Terminate()
		f(&g)
	})
	if g.skip != "" {
		mainthread.NoWindow(t, g.skip)
	}
	for _, e := range g.errs {
		t.Error(e)
	}
}

// withUIWindow is withGLFW with a hidden w×h window and its UI, both
// closed after f; a failure to create the UI is a test error.
func withUIWindow(t *testing.T, w, h int, f func(g *glTest, win *glfw.Window, u *UI)) {
	t.Helper()
	withGLFW(t, func(g *glTest) {
		win := g.window(w, h, "ui test")
		if win == nil {
			return
		}
		defer win.Destroy()
		u, err := New(win)
		if err != nil {
			g.fail(err.Error())
			return
		}
		defer u.Close()
		f(g, win, u)
	})
}

// nearColor reports whether the pixel (x, y) of img is within tol of c in
// each of red, green and blue.
func nearColor(img *image.RGBA, x, y int, c [3]uint8, tol int) bool {
	i := img.PixOffset(x, y)
	for k := 0; k < 3; k++ {
		if d := int(img.Pix[i+k]) - int(c[k]); d > tol || d < -tol {
			return false
		}
	}
	return true
}
