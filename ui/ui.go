package ui

import (
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"
)

// UI bundles an imgui context with the GLFW platform and GL renderer backends.
type UI struct {
	Context  *imgui.Context
	IO       imgui.IO
	Platform *Platform
	Renderer *Renderer
	// Big is the default font at BigFontPx pixels, for the on-screen hint
	// and the clean mode's readouts (crisp, not a scaled 13 px font).
	Big imgui.Font

	scale float32
}

// BigFontPx is the pixel size of UI.Big at scale 1.
const BigFontPx = 26

// New creates an imgui context (no .ini file), the platform backend on window
// and the GL renderer. window's GL context must be current.
func New(window *glfw.Window) (*UI, error) {
	ctx := imgui.CreateContext(nil)
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	Style()
	fonts := io.Fonts()
	fonts.AddFontDefault()
	cfg := imgui.NewFontConfig()
	cfg.SetSize(BigFontPx)
	big := fonts.AddFontDefaultV(cfg)
	cfg.Delete()
	p := NewPlatform(window)
	r, err := NewRenderer()
	if err != nil {
		p.Close()
		ctx.Destroy()
		return nil, err
	}
	return &UI{Context: ctx, IO: io, Platform: p, Renderer: r, Big: big, scale: 1}, nil
}

// MinScale and MaxScale bound the UI scale (--ui-scale, the panel's control).
const (
	MinScale = 0.5
	MaxScale = 4.0
)

// ClampScale returns s within [MinScale, MaxScale] (1 for NaN or ≤ 0).
func ClampScale(s float64) float32 {
	if !(s > 0) {
		return 1
	}
	return float32(min(max(s, MinScale), MaxScale))
}

// Scale returns the UI scale (fonts and widgets).
func (u *UI) Scale() float32 { return u.scale }

// SetScale scales fonts and widget sizes by s (ClampScale): the font's
// global scale, and the style's sizes from the unscaled Style. Call it
// between frames.
func (u *UI) SetScale(s float32) {
	s = ClampScale(float64(s))
	if s == u.scale {
		return
	}
	u.scale = s
	Style()
	if s != 1 {
		imgui.CurrentStyle().ScaleAllSizes(s)
	}
	u.IO.SetFontGlobalScale(s)
}

// Style applies the Grainlab imgui style to the current context.
func Style() {
	imgui.StyleColorsDark()
	st := imgui.CurrentStyle()
	st.SetWindowRounding(4)
	st.SetFrameRounding(3)
	st.SetItemSpacing(imgui.Vec2{X: 6, Y: 4})
	st.SetFramePadding(imgui.Vec2{X: 5, Y: 3})
}

// NewFrame starts an imgui frame (platform inputs, then imgui.NewFrame).
func (u *UI) NewFrame() {
	u.Platform.NewFrame()
	imgui.NewFrame()
}

// Render finishes the imgui frame and draws it over the current framebuffer.
func (u *UI) Render() {
	imgui.Render()
	u.Renderer.Render(u.Platform.DisplaySize(), u.Platform.FramebufferSize(), imgui.RenderedDrawData())
}

// Close frees the renderer, restores the window callbacks and destroys the context.
func (u *UI) Close() {
	if u.Renderer != nil {
		u.Renderer.Close()
	}
	if u.Platform != nil {
		u.Platform.Close()
	}
	if u.Context != nil {
		u.Context.Destroy()
	}
}
