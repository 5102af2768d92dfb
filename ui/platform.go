package ui

import (
	"math"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"
)

// AppHandlers receive the window events imgui does not want. Releases and
// cursor motion during a drag the app started are always delivered.
type AppHandlers struct {
	MouseButton func(button glfw.MouseButton, action glfw.Action, mods glfw.ModifierKey)
	CursorPos   func(x, y float64)
	Scroll      func(dx, dy float64)
	Key         func(key glfw.Key, scancode int, action glfw.Action, mods glfw.ModifierKey)
	Char        func(r rune)
}

// Platform is the imgui platform backend for a GLFW window.
type Platform struct {
	Window *glfw.Window
	App    AppHandlers // set by the app; called when imgui does not capture the event

	io          imgui.IO
	time        float64
	justPressed [3]bool
	appDown     [8]bool // buttons whose press went to the app
	cursors     map[imgui.MouseCursorID]*glfw.Cursor
	lastCursor  imgui.MouseCursorID
	keys        KeyQueue // key and character events since the last frame

	prevMouse  glfw.MouseButtonCallback
	prevPos    glfw.CursorPosCallback
	prevScroll glfw.ScrollCallback
	prevKey    glfw.KeyCallback
	prevChar   glfw.CharCallback
}

// NewPlatform installs the imgui callbacks on window for the current imgui
// context (callbacks installed earlier are chained and still called).
func NewPlatform(window *glfw.Window) *Platform {
	p := &Platform{Window: window, io: imgui.CurrentIO(), lastCursor: -2}
	io := p.io
	io.SetBackendFlags(io.GetBackendFlags() | imgui.BackendFlagsHasMouseCursors)
	keys := map[int]glfw.Key{
		imgui.KeyTab: glfw.KeyTab, imgui.KeyLeftArrow: glfw.KeyLeft, imgui.KeyRightArrow: glfw.KeyRight,
		imgui.KeyUpArrow: glfw.KeyUp, imgui.KeyDownArrow: glfw.KeyDown, imgui.KeyPageUp: glfw.KeyPageUp,
		imgui.KeyPageDown: glfw.KeyPageDown, imgui.KeyHome: glfw.KeyHome, imgui.KeyEnd: glfw.KeyEnd,
		imgui.KeyInsert: glfw.KeyInsert, imgui.KeyDelete: glfw.KeyDelete, imgui.KeyBackspace: glfw.KeyBackspace,
		imgui.KeySpace: glfw.KeySpace, imgui.KeyEnter: glfw.KeyEnter, imgui.KeyEscape: glfw.KeyEscape,
		imgui.KeyKeyPadEnter: glfw.KeyKPEnter, imgui.KeyA: glfw.KeyA, imgui.KeyC: glfw.KeyC,
		imgui.KeyV: glfw.KeyV, imgui.KeyX: glfw.KeyX, imgui.KeyY: glfw.KeyY, imgui.KeyZ: glfw.KeyZ,
	}
	for k, g := range keys {
		io.KeyMap(k, int(g))
	}
	io.SetClipboard(clipboard{window})
	p.cursors = map[imgui.MouseCursorID]*glfw.Cursor{
		imgui.MouseCursorArrow:      glfw.CreateStandardCursor(glfw.ArrowCursor),
		imgui.MouseCursorTextInput:  glfw.CreateStandardCursor(glfw.IBeamCursor),
		imgui.MouseCursorResizeNS:   glfw.CreateStandardCursor(glfw.VResizeCursor),
		imgui.MouseCursorResizeEW:   glfw.CreateStandardCursor(glfw.HResizeCursor),
		imgui.MouseCursorHand:       glfw.CreateStandardCursor(glfw.HandCursor),
		imgui.MouseCursorResizeAll:  glfw.CreateStandardCursor(glfw.CrosshairCursor),
		imgui.MouseCursorResizeNESW: glfw.CreateStandardCursor(glfw.CrosshairCursor),
		imgui.MouseCursorResizeNWSE: glfw.CreateStandardCursor(glfw.CrosshairCursor),
	}
	p.prevMouse = window.SetMouseButtonCallback(p.mouseButton)
	p.prevPos = window.SetCursorPosCallback(p.cursorPos)
	p.prevScroll = window.SetScrollCallback(p.scroll)
	p.prevKey = window.SetKeyCallback(p.key)
	p.prevChar = window.SetCharCallback(p.char)
	return p
}

// Close restores the previous callbacks and frees the cursors.
func (p *Platform) Close() {
	w := p.Window
	w.SetMouseButtonCallback(p.prevMouse)
	w.SetCursorPosCallback(p.prevPos)
	w.SetScrollCallback(p.prevScroll)
	w.SetKeyCallback(p.prevKey)
	w.SetCharCallback(p.prevChar)
	w.SetCursor(nil)
	for _, c := range p.cursors {
		if c != nil {
			c.Destroy()
		}
	}
	p.cursors = nil
}

// DisplaySize returns the window size in screen coordinates.
func (p *Platform) DisplaySize() [2]float32 {
	w, h := p.Window.GetSize()
	return [2]float32{float32(w), float32(h)}
}

// FramebufferSize returns the framebuffer size in pixels.
func (p *Platform) FramebufferSize() [2]float32 {
	w, h := p.Window.GetFramebufferSize()
	return [2]float32{float32(w), float32(h)}
}

// NewFrame forwards display size, framebuffer scale, time, mouse and cursor
// state to imgui; call it before imgui.NewFrame.
func (p *Platform) NewFrame() {
	io := p.io
	ds, fb := p.DisplaySize(), p.FramebufferSize()
	io.SetDisplaySize(imgui.Vec2{X: ds[0], Y: ds[1]})
	if ds[0] > 0 && ds[1] > 0 {
		io.SetDisplayFrameBufferScale(imgui.Vec2{X: fb[0] / ds[0], Y: fb[1] / ds[1]})
	}
	now := glfw.GetTime()
	dt := float32(1.0 / 60)
	if p.time > 0 && now > p.time {
		dt = float32(now - p.time)
	}
	io.SetDeltaTime(dt)
	p.time = now

	if p.Window.GetAttrib(glfw.Focused) != 0 || p.Window.GetAttrib(glfw.Hovered) != 0 {
		x, y := p.Window.GetCursorPos()
		io.SetMousePosition(imgui.Vec2{X: float32(x), Y: float32(y)})
	} else {
		io.SetMousePosition(imgui.Vec2{X: -math.MaxFloat32, Y: -math.MaxFloat32})
	}
	for i := range p.justPressed {
		down := p.justPressed[i] || p.Window.GetMouseButton(glfw.MouseButton(i)) == glfw.Press
		io.SetMouseButtonDown(i, down)
		p.justPressed[i] = false
	}
	for _, e := range p.keys.Next() {
		switch {
		case e.Key < 0:
			p.io.AddInputCharacters(string(e.Char))
		case e.Down:
			p.io.KeyPress(e.Key)
		default:
			p.io.KeyRelease(e.Key)
		}
	}
	p.io.KeyCtrl(int(glfw.KeyLeftControl), int(glfw.KeyRightControl))
	p.io.KeyShift(int(glfw.KeyLeftShift), int(glfw.KeyRightShift))
	p.io.KeyAlt(int(glfw.KeyLeftAlt), int(glfw.KeyRightAlt))
	p.io.KeySuper(int(glfw.KeyLeftSuper), int(glfw.KeyRightSuper))
	p.updateCursor()
}

// KeyEvent is a key press or release (Key ≥ 0) or a typed character
// (Key < 0, Char) as the GLFW callbacks delivered it.
type KeyEvent struct {
	Key  int
	Down bool
	Char rune
}

// KeyQueue keeps the key and character events between two frames, in
// order. imgui (1.8x) samples the keys' state once per frame, so a press
// and its release within one frame would be lost (a quick Enter in a
// field); Next hands out the events of one frame so that no key changes
// twice in it, and leaves the rest, in order, for the next frames.
type KeyQueue struct {
	events []KeyEvent
	frame  []KeyEvent
}

// Push appends an event.
func (q *KeyQueue) Push(e KeyEvent) { q.events = append(q.events, e) }

// Len returns the number of events waiting.
func (q *KeyQueue) Len() int { return len(q.events) }

// Next removes and returns the events of this frame: the longest prefix of
// the queue in which each key changes at most once. The slice is valid
// until the next call.
func (q *KeyQueue) Next() []KeyEvent {
	q.frame = q.frame[:0]
	n := 0
	for ; n < len(q.events); n++ {
		e := q.events[n]
		if e.Key >= 0 && changed(q.frame, e.Key) {
			break
		}
		q.frame = append(q.frame, e)
	}
	q.events = append(q.events[:0], q.events[n:]...)
	return q.frame
}

func changed(es []KeyEvent, key int) bool {
	for _, e := range es {
		if e.Key == key {
			return true
		}
	}
	return false
}

func (p *Platform) updateCursor() {
	c := imgui.MouseCursor()
	if c == p.lastCursor {
		return
	}
	p.lastCursor = c
	if c == imgui.MouseCursorNone {
		p.Window.SetInputMode(glfw.CursorMode, glfw.CursorHidden)
		return
	}
	p.Window.SetInputMode(glfw.CursorMode, glfw.CursorNormal)
	if cur := p.cursors[c]; cur != nil {
		p.Window.SetCursor(cur)
	} else {
		p.Window.SetCursor(p.cursors[imgui.MouseCursorArrow])
	}
}

func (p *Platform) appDragging() bool {
	for _, d := range p.appDown {
		if d {
			return true
		}
	}
	return false
}

func (p *Platform) mouseButton(w *glfw.Window, b glfw.MouseButton, a glfw.Action, mods glfw.ModifierKey) {
	if p.prevMouse != nil {
		p.prevMouse(w, b, a, mods)
	}
	if a == glfw.Press && int(b) < len(p.justPressed) {
		p.justPressed[b] = true
	}
	bi := int(b)
	switch {
	case a == glfw.Press && !p.io.WantCaptureMouse():
		if bi < len(p.appDown) {
			p.appDown[bi] = true
		}
		if p.App.MouseButton != nil {
			p.App.MouseButton(b, a, mods)
		}
	case a == glfw.Release && bi < len(p.appDown) && p.appDown[bi]:
		p.appDown[bi] = false
		if p.App.MouseButton != nil {
			p.App.MouseButton(b, a, mods)
		}
	}
}

func (p *Platform) cursorPos(w *glfw.Window, x, y float64) {
	if p.prevPos != nil {
		p.prevPos(w, x, y)
	}
	if p.App.CursorPos != nil && (p.appDragging() || !p.io.WantCaptureMouse()) {
		p.App.CursorPos(x, y)
	}
}

func (p *Platform) scroll(w *glfw.Window, dx, dy float64) {
	if p.prevScroll != nil {
		p.prevScroll(w, dx, dy)
	}
	p.io.AddMouseWheelDelta(float32(dx), float32(dy))
	if p.App.Scroll != nil && !p.io.WantCaptureMouse() {
		p.App.Scroll(dx, dy)
	}
}

func (p *Platform) key(w *glfw.Window, k glfw.Key, sc int, a glfw.Action, mods glfw.ModifierKey) {
	if p.prevKey != nil {
		p.prevKey(w, k, sc, a, mods)
	}
	if k >= 0 && a != glfw.Repeat {
		// queued for the next frames (KeyQueue): a press and its release
		// never fall into one frame
		p.keys.Push(KeyEvent{Key: int(k), Down: a == glfw.Press})
	}
	if p.App.Key != nil && (a == glfw.Release || !p.io.WantCaptureKeyboard()) {
		p.App.Key(k, sc, a, mods)
	}
}

func (p *Platform) char(w *glfw.Window, r rune) {
	if p.prevChar != nil {
		p.prevChar(w, r)
	}
	p.keys.Push(KeyEvent{Key: -1, Char: r})
	if p.App.Char != nil && !p.io.WantCaptureKeyboard() {
		p.App.Char(r)
	}
}

// clipboard connects imgui's clipboard to the GLFW window.
type clipboard struct{ w *glfw.Window }

// Text returns the clipboard text.
func (c clipboard) Text() (string, error) { return c.w.GetClipboardString(), nil }

// SetText replaces the clipboard text.
func (c clipboard) SetText(v string) { c.w.SetClipboardString(v) }
