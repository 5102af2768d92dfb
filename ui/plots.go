package ui

import (
	"fmt"
	"math"

	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/render"
	"grainlab/sim/snap"
)

// RateMeter measures a count's rate over the last Window wall seconds
// (default 1) from (time, count) observations: the steps/s readout.
type RateMeter struct {
	Window float64 // averaging window (s); 0 means 1

	t []float64
	n []int64
}

// Reset forgets every observation.
func (m *RateMeter) Reset() { m.t, m.n = m.t[:0], m.n[:0] }

func (m *RateMeter) window() float64 {
	if m.Window > 0 {
		return m.Window
	}
	return 1
}

// Add records count n at wall time t (s); a count or time going back starts afresh.
func (m *RateMeter) Add(t float64, n int64) {
	if k := len(m.t); k > 0 && (n < m.n[k-1] || t < m.t[k-1]) {
		m.Reset()
	}
	m.t, m.n = append(m.t, t), append(m.n, n)
	// keep one observation at or before t − window (the reference)
	drop := 0
	for drop+1 < len(m.t) && m.t[drop+1] <= t-m.window() {
		drop++
	}
	if drop > 0 {
		m.t, m.n = append(m.t[:0], m.t[drop:]...), append(m.n[:0], m.n[drop:]...)
	}
}

// Rate returns the count per second over the last window: the count at
// t − window is interpolated between the observations around it; with less
// than a window observed, the rate over what was. NaN before two
// observations at different times.
func (m *RateMeter) Rate() float64 {
	k := len(m.t)
	if k < 2 || m.t[k-1] <= m.t[0] {
		return math.NaN()
	}
	t1, n1 := m.t[k-1], float64(m.n[k-1])
	ref := t1 - m.window()
	if m.t[0] >= ref {
		return (n1 - float64(m.n[0])) / (t1 - m.t[0])
	}
	// m.t[0] < ref < m.t[1] (Add keeps one observation before ref)
	a, b := m.t[0], m.t[1]
	na := float64(m.n[0]) + float64(m.n[1]-m.n[0])*(ref-a)/(b-a)
	return (n1 - na) / m.window()
}

// series is one line of a multi-line plot.
type series struct {
	name string
	col  imgui.Vec4
	ring *Ring
	unit string
}

func vec4(c [3]float32) imgui.Vec4 { return imgui.Vec4{X: c[0], Y: c[1], Z: c[2], W: 1} }

var (
	colTotal = imgui.Vec4{X: 1, Y: 1, Z: 1, W: 1}
	// distinct colours for series without a colour of their own
	palette = []imgui.Vec4{
		{X: 0.35, Y: 0.75, Z: 1, W: 1}, {X: 1, Y: 0.6, Z: 0.25, W: 1}, {X: 0.5, Y: 0.9, Z: 0.45, W: 1},
		{X: 0.95, Y: 0.45, Z: 0.6, W: 1}, {X: 0.75, Y: 0.6, Z: 1, W: 1}, {X: 0.95, Y: 0.9, Z: 0.4, W: 1},
		{X: 0.4, Y: 0.9, Z: 0.85, W: 1}, {X: 0.7, Y: 0.7, Z: 0.7, W: 1},
	}
)

// multiPlot draws several series of the History over one frame with a
// shared vertical range, a legend with each newest value, and the time
// cursor (PanelInput.Cursor) when a past frame is shown.
func (p *Panel) multiPlot(id, title string, ss []series, in *PanelInput) {
	w := imgui.ContentRegionAvail().X
	h := plotH * 1.6
	lo, hi := math.Inf(1), math.Inf(-1)
	n := 0
	for _, s := range ss {
		a, b := s.ring.MinMax()
		if s.ring.Len() > 0 {
			lo, hi = math.Min(lo, float64(a)), math.Max(hi, float64(b))
		}
		n = max(n, s.ring.Len())
	}
	imgui.PushID(id)
	defer imgui.PopID()
	p0 := imgui.CursorScreenPos()
	imgui.Dummy(imgui.Vec2{X: w, Y: h})
	dl := imgui.WindowDrawList()
	p1 := imgui.Vec2{X: p0.X + w, Y: p0.Y + h}
	dl.AddRectFilled(p0, p1, imgui.PackedColorFromVec4(imgui.CurrentStyle().Color(imgui.StyleColorFrameBg)))
	if n >= 2 && !(hi > lo) {
		lo, hi = lo-1, hi+1
	}
	if n >= 2 && !math.IsInf(lo, 0) {
		var buf []float32
		for _, s := range ss {
			buf = s.ring.Values(buf)
			col := imgui.PackedColorFromVec4(s.col)
			off := n - len(buf) // align the newest samples at the right
			// a flat run is drawn as one line: each line is a cgo call
			var start, last imgui.Vec2
			have := false
			flush := func() {
				if have && last != start {
					dl.AddLine(start, last, col)
				}
				have = false
			}
			pt := func(i int, v float32) {
				q := imgui.Vec2{
					X: p0.X + 2 + (w-4)*float32(i+off)/float32(n-1),
					Y: p1.Y - 2 - (h-4)*float32((float64(v)-lo)/(hi-lo)),
				}
				switch {
				case !have:
					start, last, have = q, q, true
				case math.Abs(float64(q.Y-start.Y)) < 0.5 && math.Abs(float64(last.Y-start.Y)) < 0.5:
					last = q
				default:
					flush()
					dl.AddLine(last, q, col)
					start, last, have = q, q, true
				}
			}
			// buckets of about two pixels, drawn through their minimum and
			// maximum in the order they occur (peaks stay; each line is a
			// cgo call)
			stride := max(1, int(math.Ceil(float64(n)/float64(max(w/2, 1)))))
			for b0 := 0; b0 < len(buf); b0 += stride {
				imin, imax := -1, -1
				for i := b0; i < min(b0+stride, len(buf)); i++ {
					if v := float64(buf[i]); math.IsNaN(v) || math.IsInf(v, 0) {
						continue
					}
					if imin < 0 || buf[i] < buf[imin] {
						imin = i
					}
					if imax < 0 || buf[i] > buf[imax] {
						imax = i
					}
				}
				switch {
				case imin < 0:
					flush()
				case imin == imax:
					pt(imin, buf[imin])
				case imin < imax:
					pt(imin, buf[imin])
					pt(imax, buf[imax])
				default:
					pt(imax, buf[imax])
					pt(imin, buf[imin])
				}
			}
			flush()
		}
	}
	dl.AddText(imgui.Vec2{X: p0.X + 4, Y: p0.Y + 2}, imgui.PackedColorFromVec4(colDim), title)
	if n >= 2 && !math.IsInf(lo, 0) {
		unit := ss[0].unit
		dl.AddText(imgui.Vec2{X: p0.X + 4, Y: p1.Y - imgui.TextLineHeight() - 2}, imgui.PackedColorFromVec4(colDim),
			FormatSI(lo, unit)+" .. "+FormatSI(hi, unit))
	}
	p.cursorAt(in, p0, p1, 2)
	f := beginFlow()
	for _, s := range ss {
		if s.ring.Len() == 0 {
			continue
		}
		txt := s.name + " " + FormatSI(float64(s.ring.Last()), s.unit)
		f.place(imgui.CalcTextSize(txt, false, 0).X)
		textColored(s.col, txt)
		f.end()
	}
}

// plotCursor draws a vertical line over the last plot at the shown past
// frame's time (PanelInput.Cursor).
func (p *Panel) plotCursor(in *PanelInput) {
	p.cursorAt(in, imgui.ItemRectMin(), imgui.ItemRectMax(), imgui.CurrentStyle().FramePadding().X)
}

// cursorAt draws the time cursor in the plot rectangle lo–hi whose samples
// span its width less pad on each side.
func (p *Panel) cursorAt(in *PanelInput, lo, hi imgui.Vec2, pad float32) {
	if !in.HasCursor {
		return
	}
	f, ok := p.History().CursorFraction(in.Cursor)
	if !ok {
		return
	}
	x := lo.X + pad + float32(f)*(hi.X-lo.X-2*pad)
	imgui.WindowDrawList().AddLineV(imgui.Vec2{X: x, Y: lo.Y}, imgui.Vec2{X: x, Y: hi.Y}, imgui.PackedColorFromVec4(imgui.Vec4{X: 1, Y: 0.9, Z: 0.2, W: 1}), 2)
}

// plotsSection draws every statistics plot: energies (the undamped drops'
// check: the total stays flat), contacts by type, wall reactions, Δt,
// solver iterations and the step's stage timings (world.Profile).
func (p *Panel) plotsSection(in *PanelInput) {
	h := p.History()
	if h.Times.Len() == 0 {
		textColored(colDim, "no samples yet")
		return
	}
	title := "energy (J)"
	if raw := h.Total.Values(nil); len(raw) > 1 && raw[0] != 0 {
		title = fmt.Sprintf("energy (J)   total drift %+.3g %%", 100*float64(raw[len(raw)-1]-raw[0])/math.Abs(float64(raw[0])))
	}
	p.multiPlot("##energy", title, []series{
		{"total", colTotal, h.Total, "J"}, {"kinetic", palette[0], h.Kinetic, "J"},
		{"gravity", palette[1], h.Gravity, "J"}, {"contact", palette[2], h.ContactE, "J"},
	}, in)
	kinds := make([]series, 0, snap.NumContactKinds)
	for k := snap.ContactKind(0); k < snap.NumContactKinds; k++ {
		name := k.String()
		if k == snap.SQ {
			name = "smooth"
		}
		kinds = append(kinds, series{name, vec4(render.KindColors[k]), h.Kinds[k], ""})
	}
	p.multiPlot("##kinds", "contacts by type", kinds, in)
	if len(h.Walls) > 0 {
		ws := make([]series, len(h.Walls))
		for i := range h.Walls {
			ws[i] = series{h.WallNames[i], palette[i%len(palette)], h.Walls[i], "N"}
		}
		p.multiPlot("##walls", "wall reactions |F| (N)", ws, in)
	}
	p.multiPlot("##dt", "time step", []series{{"dt", palette[5], h.Dt, "s"}}, in)
	if _, hn := h.Newton.MinMax(); hn > 0 {
		p.multiPlot("##iters", "solver iterations", []series{{"Newton", palette[3], h.Newton, ""}, {"linear", palette[4], h.Linear, ""}}, in)
	} else if _, hl := h.Linear.MinMax(); hl > 0 {
		p.multiPlot("##iters", "solver iterations", []series{{"linear", palette[4], h.Linear, ""}}, in)
	}
	st := make([]series, snap.NumStages)
	for k := range st {
		st[k] = series{snap.StageNames[k], palette[k%len(palette)], h.Stages[k], "s"}
	}
	p.multiPlot("##stages", "wall time per step by stage", st, in)
}

// integratorPlots shows Δt and histograms of the iteration counts in the
// Integrator section.
func (p *Panel) integratorPlots(in *PanelInput) {
	h := p.History()
	w := imgui.ContentRegionAvail().X
	if raw, off := h.Dt.Raw(); len(raw) > 0 {
		lo, hi := h.Dt.MinMax()
		imgui.PlotLinesV("##idt", raw, off, "dt "+FormatSI(float64(lo), "s")+" .. "+FormatSI(float64(hi), "s"), maxFloat, maxFloat, imgui.Vec2{X: w, Y: plotH})
		p.plotCursor(in)
	}
	for _, r := range []struct {
		id, name string
		ring     *Ring
	}{{"##inw", "Newton it.", h.Newton}, {"##iln", "linear it.", h.Linear}} {
		raw, off := r.ring.Raw()
		if _, hi := r.ring.MinMax(); len(raw) == 0 || hi <= 0 {
			continue // explicit integrators do not iterate
		}
		imgui.PlotHistogramV(r.id, raw, off, fmt.Sprintf("%s %.0f", r.name, r.ring.Last()), 0, maxFloat, imgui.Vec2{X: w, Y: plotH})
		p.plotCursor(in)
	}
}
