package ui

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/render"
	"grainlab/render/mainthread"
)

// GL must run on the main OS thread: TestMain serves onMain calls there.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

func onMain(f func()) { mainthread.Call(f) }

// TestPlatformAndRenderer needs a display; it skips cleanly without one.
func TestPlatformAndRenderer(t *testing.T) {
	mainthread.NeedDisplay(t)
	var skip string
	var errs []string
	fail := func(s string) { errs = append(errs, s) }
	onMain(func() {
		if err := glfw.Init(); err != nil {
			skip = "glfw.Init: " + err.Error()
			return
		}
		defer glfw.Terminate()
		glfw.WindowHint(glfw.ContextVersionMajor, 4)
		glfw.WindowHint(glfw.ContextVersionMinor, 1)
		glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
		glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
		glfw.WindowHint(glfw.Visible, glfw.False)
		win, err := glfw.CreateWindow(640, 400, "ui test", nil, nil)
		if err != nil {
			skip = "CreateWindow: " + err.Error()
			return
		}
		defer win.Destroy()
		win.MakeContextCurrent()

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
	if skip != "" {
		t.Skip(skip)
	}
	for _, e := range errs {
		t.Error(e)
	}
}

// TestQuickEntersReachField: an Enter pressed and released through the
// GLFW key callback between two frames (a quick press), with a text field
// focused, makes the field return; twice, focusing the field again in
// between (Enter leaves a single-line field). When imgui sampled the key
// state once per frame such presses were lost.
func TestQuickEntersReachField(t *testing.T) {
	mainthread.NeedDisplay(t)
	var skip string
	var errs []string
	onMain(func() {
		if err := glfw.Init(); err != nil {
			skip = "glfw.Init: " + err.Error()
			return
		}
		defer glfw.Terminate()
		glfw.WindowHint(glfw.ContextVersionMajor, 4)
		glfw.WindowHint(glfw.ContextVersionMinor, 1)
		glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
		glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
		glfw.WindowHint(glfw.Visible, glfw.False)
		win, err := glfw.CreateWindow(640, 400, "ui test", nil, nil)
		if err != nil {
			skip = "CreateWindow: " + err.Error()
			return
		}
		defer win.Destroy()
		win.MakeContextCurrent()
		u, err := New(win)
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		defer u.Close()
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
				errs = append(errs, "the field did not take the keyboard")
				return
			}
			u.Platform.char(win, 'a')
			u.Platform.key(win, glfw.KeyEnter, 0, glfw.Press, 0)
			u.Platform.key(win, glfw.KeyEnter, 0, glfw.Release, 0)
			for range 3 {
				frame(false)
			}
			if enters != k+1 {
				errs = append(errs, fmt.Sprintf("quick Enter %d: the field returned %d times, want %d", k+1, enters, k+1))
			}
		}
		if text != "aa" {
			errs = append(errs, fmt.Sprintf("field text %q, want \"aa\"", text))
		}
	})
	if skip != "" {
		t.Skip(skip)
	}
	for _, e := range errs {
		t.Error(e)
	}
}
