package ui

import (
	"fmt"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"

	"grainlab/render"
)

// TestInspectorInsideWindow selects a contact and a body of the demo
// snapshot and draws the panel in a small window (1280×800, 800×500, and 500×400 where
// the inspector cannot fit beside the panel): the inspector window lies fully
// inside the window, at its top, left of the panel when there is room; the
// selected VF contact's features are highlighted in its kind's colour.
func TestInspectorInsideWindow(t *testing.T) {
	withGLFW(t, func(g *glTest) {
		for _, size := range [][2]int{{1280, 800}, {800, 500}, {500, 400}} {
			W, H := size[0], size[1]
			win := g.window(W, H, "inspector test")
			if win == nil {
				return
			}
			u, err := New(win)
			if err != nil {
				g.fail(err.Error())
				win.Destroy()
				return
			}
			s := render.DemoSnapshot()
			s.Meshes[2].Edges = [][2]int32{{0, 1}}
			v := render.DefaultView()
			v.SelectContact(s, 0) // VF: a vertex of cube A on the ground's face 0
			v.SelectedBody = 0
			cam := render.NewCamera()
			cam.Fit(s)
			// put the contact at (80, H − 60), left of and below the inspector
			_, r, up := cam.Basis()
			ps := cam.PixelSize(cam.Target, H)
			cam.Target = s.Contacts[0].Point.AddScaled(-(80-float64(W)/2)*ps, r).AddScaled((float64(H)-60-float64(H)/2)*ps, up)
			p := &Panel{Width: 330}
			vf := render.KindColors[0]
			blue := [3]uint8{uint8(vf[0]*255 + 0.5), uint8(vf[1]*255 + 0.5), uint8(vf[2]*255 + 0.5)}
			draw := func(c *render.Camera) int {
				in := &PanelInput{Snap: s, View: &v, Camera: c}
				for i := 0; i < 3; i++ { // auto-resize settles over frames
					u.NewFrame()
					p.Draw(in)
					gl.ClearColor(0, 0, 0, 1)
					gl.Clear(gl.COLOR_BUFFER_BIT)
					u.Render()
				}
				pos, sz, _ := p.InspectorRect()
				img := render.Screenshot(W, H)
				n := 0
				for y := 0; y < H; y++ {
					for x := 0; x < W; x++ {
						if fx, fy := float32(x), float32(y); (fx >= pos.X && fx < pos.X+sz.X && fy < pos.Y+sz.Y) || fx >= float32(W-336) {
							continue // inside the inspector or the panel
						}
						if nearColor(img, x, y, blue, 12) {
							n++
						}
					}
				}
				return n
			}
			lit := draw(cam)
			dark := draw(nil)
			pos, sz, shown := p.InspectorRect()
			t.Logf("%dx%d: inspector at (%.0f, %.0f) size %.0f×%.0f; highlight pixels %d (no camera: %d)", W, H, pos.X, pos.Y, sz.X, sz.Y, lit, dark)
			switch {
			case !shown:
				g.fail(fmt.Sprintf("%dx%d: inspector not shown", W, H))
			case pos.X < 0 || pos.Y < 0 || pos.X+sz.X > float32(W) || pos.Y+sz.Y > float32(H) || sz.X <= 0 || sz.Y <= 0:
				g.fail(fmt.Sprintf("%dx%d: inspector at (%g, %g) size (%g, %g) is not inside the window", W, H, pos.X, pos.Y, sz.X, sz.Y))
			case pos.Y > 10:
				g.fail(fmt.Sprintf("%dx%d: inspector at y = %g, not at the top", W, H, pos.Y))
			case W == 800 && pos.X+sz.X > float32(W-330-6):
				g.fail("inspector overlaps the panel although there is room beside it")
			}
			if W == 1280 && (lit < 20 || dark != 0) {
				g.fail(fmt.Sprintf("%dx%d: feature highlight: %d pixels with the camera, %d without", W, H, lit, dark))
			}
			u.Close()
			win.Destroy()
		}
	})
}
