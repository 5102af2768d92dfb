package ui

import (
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/render"
)

// TestPlotCursorAndTimeBar draws the panel with a shown past frame: its
// plots carry the yellow cursor, which is absent when the live frame is
// shown; the time bar draws its markers in their colours.
func TestPlotCursorAndTimeBar(t *testing.T) {
	const W, H = 900, 1400
	withUIWindow(t, W, H, func(g *glTest, win *glfw.Window, u *UI) {
		p := &Panel{Width: 320}
		base := render.DemoSnapshot()
		for i := 0; i < 50; i++ { // 50 samples at t = 0 .. 0.49 s
			s := *base
			s.Stats.Step, s.Stats.Time, s.Stats.Kinetic, s.Stats.Contacts = int64(i+1), 0.01*float64(i), float64(i%7), i%5
			p.History().Observe(&s, float64(i))
		}
		live := *base
		live.Stats.Step, live.Stats.Time = 50, 0.49
		past := live
		past.Stats.Step, past.Stats.Time = 20, 0.2
		v := render.DefaultView()
		tl := NewTimeline()
		tl.Seek(0.2)
		times := []float64{0, 0.1, 0.2, 0.3, 0.49}
		yellow := [3]uint8{255, 230, 51}
		count := func(c [3]uint8, x0, x1 int) int {
			img := render.Screenshot(W, H)
			n := 0
			for y := 0; y < H; y++ {
				for x := x0; x < x1; x++ {
					if nearColor(img, x, y, c, 12) {
						n++
					}
				}
			}
			return n
		}
		draw := func(in *PanelInput, bar bool) {
			for i := 0; i < 3; i++ {
				u.NewFrame()
				p.Draw(in)
				if bar {
					p.DrawTimeBar(&TimeBarInput{N: len(times), Time: func(i int) float64 { return times[i] }, Index: 2, Timeline: &tl,
						Markers: []TimeMark{{Time: 0.1, Kind: 1, Label: "wall"}, {Time: 0.3, Kind: 4, Label: "rejected"}}, X: 6, W: 500})
				}
				gl.ClearColor(0, 0, 0, 1)
				gl.Clear(gl.COLOR_BUFFER_BIT)
				u.Render()
			}
		}
		draw(&PanelInput{Snap: &past, Live: &live, HasCursor: true, Cursor: 0.2, View: &v}, true)
		withCursor := count(yellow, W-330, W)
		orange := count([3]uint8{255, 191, 51}, 0, 520)
		red := count([3]uint8{255, 77, 77}, 0, 520)
		draw(&PanelInput{Snap: &live, View: &v}, false)
		without := count(yellow, W-330, W)
		t.Logf("cursor pixels: %d with a past frame, %d live; marker pixels: %d wall, %d rejected", withCursor, without, orange, red)
		if withCursor < 40 || without != 0 { // at least one plot's height (48 px)
			g.fail("plot cursor not drawn (or drawn live)")
		}
		if orange == 0 || red == 0 {
			g.fail("time-bar markers not drawn")
		}
	})
}
