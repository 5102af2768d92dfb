package ui

import (
	"math"
	"testing"

	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/render"
	"grainlab/sim/law"
	"grainlab/sim/snap"
)

// TestPanelHeadless runs the whole panel through imgui without any GL context
// or display: imgui asserts (unbalanced Begin/End, ID stacks) turn into panics.
func TestPanelHeadless(t *testing.T) {
	ctx := imgui.CreateContext(nil)
	defer ctx.Destroy()
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	io.SetDisplaySize(imgui.Vec2{X: 1280, Y: 800})
	io.Fonts().TextureDataRGBA32() // build the atlas; no texture upload needed

	s := render.DemoSnapshot()
	v := render.DefaultView()
	v.SelectedBody = 0
	v.SelectContact(s, 4)
	v.ColorBy = render.ColorSpeed
	curveCalls := 0
	in := &PanelInput{
		Snap: s, View: &v, Scenes: []string{"demo", "pile"}, Integrators: []string{"a", "b"}, Integrator: "a",
		LawKinds: []string{"barrier"}, Law: testLaw, Playing: false, Speed: 1, Status: "oops", StatusIsError: true,
		Materials: []Material{{Name: "sq", Kind: "superquadric", Count: 3, N1: 4, N2: 4, A: 1, B: 1, C: 1},
			{Index: 1, Name: "ball", Kind: "sphere", Count: 1, N1: 2, N2: 2, A: 1, B: 1, C: 1}},
		SmoothLaw: SmoothLaw{Model: "hertz-material", Set: law.Set{Smooth: law.Smooth{E: 5e6, Nu: 0.3, Restitution: 0.5, Mu: 0.5, CapQ: 10}}},
		HasSmooth: true, HasCompatible: true,
		LawCurve: func(l LawParams) (g, fn, dtc []float32, err error) {
			curveCalls++
			for i := 1; i <= 32; i++ {
				g = append(g, float32(i))
				fn = append(fn, float32(math.Inf(1))) // non-finite values must not break the plots
				dtc = append(dtc, float32(i))
			}
			return
		},
		DeriveLaw: func(l LawParams) (LawParams, error) { l.Eps2 = 2 * l.Normal.Eps1; return l, nil },
	}
	for _, expand := range []bool{false, true} {
		p := &Panel{ExpandAll: expand}
		for i := 0; i < 4; i++ {
			io.SetDeltaTime(1.0 / 60)
			imgui.NewFrame()
			s.Stats.Step += 5
			a := p.Draw(in)
			imgui.Render()
			if a.Any() {
				t.Fatalf("frame %d: actions without input: %+v", i, a)
			}
		}
		if expand && curveCalls != 1 {
			t.Fatalf("law curve evaluated %d times, want once (cached)", curveCalls)
		}
	}
	if p := (&Panel{}); p.History().Kinetic.Cap() == 0 {
		t.Fatal("history")
	}
	_ = snap.VF
}

// After a resize to 800×500 (the panel docked at DockWidth) the run
// buttons, the speed slider, the scene's path fields and buttons and the
// law fields all end inside the panel's content area, at UI scale 1 and 2
// (the review found "speed" cut to "sp" and Fit/Shot off the edge).
func TestPanelWidgetsInsideAfterResize(t *testing.T) {
	ctx := imgui.CreateContext(nil)
	defer ctx.Destroy()
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	io.Fonts().TextureDataRGBA32()
	s := render.DemoSnapshot()
	v := render.DefaultView()
	for _, size := range [][2]float32{{800, 500}, {1280, 800}} {
		for _, scale := range []float32{1, 2} {
			Style()
			if scale != 1 {
				imgui.CurrentStyle().ScaleAllSizes(scale)
			}
			io.SetFontGlobalScale(scale)
			io.SetDisplaySize(imgui.Vec2{X: size[0], Y: size[1]})
			in := &PanelInput{Snap: s, View: &v, Scenes: []string{"demo", "box-of-tetrapods"}, Integrators: []string{"explicit"},
				Integrator: "explicit", LawKinds: []string{"barrier"}, Law: testLaw, Speed: 1, Scale: scale}
			p := &Panel{ExpandAll: true}
			for i := 0; i < 3; i++ {
				io.SetDeltaTime(1.0 / 60)
				imgui.NewFrame()
				p.Draw(in)
				imgui.Render()
			}
			t.Logf("%g×%g scale %g: panel %.0f wide, widgets end at %.1f, content edge %.1f", size[0], size[1], scale, p.Width, p.itemRight, p.innerRight)
			if p.itemRight <= 0 || p.itemRight > p.innerRight+0.5 {
				t.Errorf("%g×%g scale %g: widgets end at x = %.1f, past the panel's content edge %.1f", size[0], size[1], scale, p.itemRight, p.innerRight)
			}
		}
	}
}
