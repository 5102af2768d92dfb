package ui

import (
	"fmt"
	"math"
	"sort"

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

// series is one line of a multi-line plot; unit "" marks a count (its
// legend value is printed with %d).
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

// plotScale is how a multi-line plot maps values to its height.
type plotScale int

const (
	// scaleShared: one vertical range, the series' minimum to maximum.
	scaleShared plotScale = iota
	// scaleEach: every series on its own range (its minimum at the bottom,
	// its maximum at the top), for parts of very different sizes (the
	// energies: 1 µJ of kinetic energy next to 600 kJ of gravity).
	scaleEach
	// scaleRobust: one range from the minimum to the RobustQuantile of all
	// samples in the window, so one spike (a 45 ms stall among 0.1 ms
	// stages) does not flatten the rest; larger values are cut at the top.
	scaleRobust
)

// RobustQuantile is the quantile of the window's samples that tops a
// robustly scaled plot (the stage timings), as render.ArrowFit fits the
// arrows to a quantile rather than to the largest force.
const RobustQuantile = 0.95

// quantile returns the q-quantile of the finite values of vs (NaN: none).
func quantile(vs []float64, q float64) float64 {
	fs := make([]float64, 0, len(vs))
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			fs = append(fs, v)
		}
	}
	if len(fs) == 0 {
		return math.NaN()
	}
	sort.Float64s(fs)
	return fs[min(len(fs)-1, int(q*float64(len(fs))))]
}

// finiteMinMax returns the smallest and largest finite value of vs (±Inf
// when there is none).
func finiteMinMax(vs []float32) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if f := float64(v); !math.IsNaN(f) && !math.IsInf(f, 0) {
			lo, hi = math.Min(lo, f), math.Max(hi, f)
		}
	}
	return lo, hi
}

// plotRanges returns the vertical range [lo[i], hi[i]] each series of ss is
// drawn in under mode (a flat range widened so that hi > lo); ok is false
// when no series has a finite sample.
func plotRanges(ss []series, mode plotScale) (lo, hi []float64, ok bool) {
	lo, hi = make([]float64, len(ss)), make([]float64, len(ss))
	glo, ghi := math.Inf(1), math.Inf(-1)
	var all []float64
	for i, s := range ss {
		vs := s.ring.Values(nil)
		lo[i], hi[i] = finiteMinMax(vs)
		glo, ghi = math.Min(glo, lo[i]), math.Max(ghi, hi[i])
		if mode == scaleRobust {
			for _, v := range vs {
				all = append(all, float64(v))
			}
		}
	}
	if math.IsInf(glo, 0) {
		return lo, hi, false
	}
	if mode == scaleRobust {
		if q := quantile(all, RobustQuantile); q > glo {
			ghi = q
		}
	}
	for i := range ss {
		if mode != scaleEach || math.IsInf(lo[i], 0) {
			lo[i], hi[i] = glo, ghi
		}
		if !(hi[i] > lo[i]) {
			d := math.Max(1e-12, 0.05*math.Abs(lo[i]))
			lo[i], hi[i] = lo[i]-d, hi[i]+d
		}
	}
	return lo, hi, true
}

// legendValue formats v for a legend: a count (unit "") as an integer, else
// with an SI prefix; "-" when not finite.
func legendValue(v float64, unit string) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case unit == "":
		return fmt.Sprintf("%d", int64(math.Round(v)))
	}
	return FormatSI(v, unit)
}

// valueAt returns the sample of r at index j of the n samples of the
// History (r holds the newest r.Len() of them), NaN when r has none there.
func valueAt(r *Ring, j, n int) float64 {
	k := j - (n - r.Len())
	if k < 0 || k >= r.Len() {
		return math.NaN()
	}
	return float64(r.Values(nil)[k])
}

// multiPlot draws several series of the History over one frame, scaled by
// mode: the title and the range (or how the lines are scaled) and any note
// (the energy drift) on a line above the plot so that no text covers the
// curves, then a legend with each newest value, or the value at the time
// cursor (PanelInput.Cursor) while a past frame is shown.
func (p *Panel) multiPlot(id, title, note string, ss []series, mode plotScale, in *PanelInput) {
	w := imgui.ContentRegionAvail().X
	h := plotH * 1.6
	if p.scale > 0 {
		h *= p.scale
	}
	n := 0
	for _, s := range ss {
		n = max(n, s.ring.Len())
	}
	lo, hi, ok := plotRanges(ss, mode)
	ok = ok && n >= 2
	imgui.PushID(id)
	defer imgui.PopID()
	head := title
	if ok {
		switch mode {
		case scaleEach:
			head += "   (each line on its own scale)"
		case scaleRobust:
			head += "   " + FormatSI(lo[0], ss[0].unit) + " .. " + FormatSI(hi[0], ss[0].unit) + " (p95 of the window; peaks cut)"
		default:
			head += "   " + legendValue(lo[0], ss[0].unit) + " .. " + legendValue(hi[0], ss[0].unit)
		}
	}
	imgui.PushTextWrapPos()
	textColored(colDim, head)
	if note != "" {
		textColored(colDim, note)
	}
	imgui.PopTextWrapPos()
	p0 := imgui.CursorScreenPos()
	imgui.Dummy(imgui.Vec2{X: w, Y: h})
	dl := imgui.WindowDrawList()
	p1 := imgui.Vec2{X: p0.X + w, Y: p0.Y + h}
	dl.AddRectFilled(p0, p1, imgui.PackedColorFromVec4(imgui.CurrentStyle().Color(imgui.StyleColorFrameBg)))
	if ok {
		var buf []float32
		for si, s := range ss {
			buf = s.ring.Values(buf)
			col := imgui.PackedColorFromVec4(s.col)
			off := n - len(buf) // align the newest samples at the right
			slo, shi := lo[si], hi[si]
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
				f := min(max((float64(v)-slo)/(shi-slo), 0), 1) // cut at the range (robust scale)
				q := imgui.Vec2{
					X: p0.X + 2 + (w-4)*float32(i+off)/float32(n-1),
					Y: p1.Y - 2 - (h-4)*float32(f),
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
	p.cursorAt(in, p0, p1, 2)
	f := beginFlow()
	for i, txt := range p.legend(ss, in) {
		if txt == "" {
			continue
		}
		f.place(imgui.CalcTextSize(txt, false, 0).X)
		textColored(ss[i].col, txt)
		f.end()
	}
}

// legend returns each series' legend ("name value"; "" for an empty
// series): the newest value, or the value at the time cursor while a past
// frame is shown.
func (p *Panel) legend(ss []series, in *PanelInput) []string {
	h := p.History()
	j, at := -1, false
	if in != nil && in.HasCursor {
		j, at = h.CursorIndex(in.Cursor)
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		if s.ring.Len() == 0 {
			continue
		}
		v := float64(s.ring.Last())
		if at {
			v = valueAt(s.ring, j, h.Times.Len())
		}
		out[i] = s.name + " " + legendValue(v, s.unit)
	}
	return out
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
	note := ""
	if raw := h.Total.Values(nil); len(raw) > 1 && raw[0] != 0 {
		note = fmt.Sprintf("total drift over the window %+.3g %%", 100*float64(raw[len(raw)-1]-raw[0])/math.Abs(float64(raw[0])))
	}
	p.multiPlot("##energy", "energy", note, []series{
		{"total", colTotal, h.Total, "J"}, {"kinetic", palette[0], h.Kinetic, "J"},
		{"gravity", palette[1], h.Gravity, "J"}, {"contact", palette[2], h.ContactE, "J"},
	}, scaleEach, in)
	kinds := make([]series, 0, snap.NumContactKinds)
	for k := snap.ContactKind(0); k < snap.NumContactKinds; k++ {
		name := k.String()
		if k == snap.SQ {
			name = "smooth"
		}
		kinds = append(kinds, series{name, vec4(render.KindColors[k]), h.Kinds[k], ""})
	}
	p.multiPlot("##kinds", "contacts by type", "", kinds, scaleShared, in)
	if len(h.Walls) > 0 {
		ws := make([]series, len(h.Walls))
		for i := range h.Walls {
			ws[i] = series{h.WallNames[i], palette[i%len(palette)], h.Walls[i], "N"}
		}
		p.multiPlot("##walls", "wall reactions |F|", "", ws, scaleShared, in)
	}
	p.multiPlot("##dt", "time step", "", []series{{"dt", palette[5], h.Dt, "s"}}, scaleShared, in)
	if _, hn := h.Newton.MinMax(); hn > 0 {
		p.multiPlot("##iters", "solver iterations", "", []series{{"Newton", palette[3], h.Newton, ""}, {"linear", palette[4], h.Linear, ""}}, scaleShared, in)
	} else if _, hl := h.Linear.MinMax(); hl > 0 {
		p.multiPlot("##iters", "solver iterations", "", []series{{"linear", palette[4], h.Linear, ""}}, scaleShared, in)
	}
	st := make([]series, snap.NumStages)
	for k := range st {
		st[k] = series{snap.StageNames[k], palette[k%len(palette)], h.Stages[k], "s"}
	}
	p.multiPlot("##stages", "wall time per step by stage", "", st, scaleRobust, in)
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
