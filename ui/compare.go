package ui

// The panel's "Compare with…" section: a second run of the scene with
// another integrator or other law parameters (app.Compare), its readouts
// and one plot of both runs' energies and contact counts.

import (
	"fmt"
	"math"
	"strings"

	"github.com/inkyblackness/imgui-go/v4"
)

// CompareInput is what the Compare section shows (nil PanelInput.Compare:
// no section, e.g. a recorded run in the player).
type CompareInput struct {
	Running    bool
	Label      string  // the second run's configuration ("newmark", "mu_s=0.3")
	Time       float64 // the compared frame's time (s)
	MaxDiff    float64 // largest centre distance between the runs (m)
	MaxBody    string  // the body that moved most apart ("" none)
	Energy     [2]float64
	Contacts   [2]int
	Steps      [2]int64
	Status     string    // the comparison's last status
	Err        string    // why it stopped
	EnergyA    []float32 // series, oldest first: main run
	EnergyB    []float32 // second run
	ContactsA  []float32
	ContactsB  []float32
	DiffSeries []float32 // largest centre distance per frame (m)
}

// CompareRequest starts a comparison: another integrator ("" the main
// run's) and scene overrides ("contact.default.mu_s=0.3").
type CompareRequest struct {
	Integrator string
	Sets       []string
}

// compareState is the Compare section's own state in the Panel.
type compareState struct {
	integrator int32  // index into "(same as main)" + the integrators
	sets       string // the law edits as typed
	err        string // why the typed edits were refused
}

// CompareActions are the Compare section's requests in one Draw.
type CompareActions struct {
	Start *CompareRequest // start (or restart) with these settings, nil for none
	Stop  bool
}

// Colours of the two runs in the comparison plot: the main run in the
// bodies' colour, the second run in the ghost's (render.GhostColor).
var (
	compareColA = imgui.Vec4{X: 0.90, Y: 0.85, Z: 0.75, W: 1}
	compareColB = imgui.Vec4{X: 0.30, Y: 0.85, Z: 1.00, W: 1}
)

// ParseCompareSets turns the section's law edits ("mu_s=0.3, eps1=5e4" or
// full keys) into scene overrides; a bare key is a key of the default
// material pair (contact.default.KEY). Each item needs key=value with a
// number or a word as the value.
func ParseCompareSets(text string) ([]string, error) {
	var sets []string
	for _, item := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' }) {
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%q: want key=value (e.g. mu_s=0.3)", item)
		}
		if !strings.Contains(k, ".") {
			k = "contact.default." + k
		}
		sets = append(sets, k+"="+v)
	}
	return sets, nil
}

// compareSection draws "Compare with…": the integrator combo, the law
// edits, Start/Stop, the readouts and the plot of both runs.
func (p *Panel) compareSection(in *PanelInput, a *Actions) {
	c := in.Compare
	names := append([]string{"(same as main)"}, in.Integrators...)
	if p.cmp.integrator < 0 || int(p.cmp.integrator) >= len(names) {
		p.cmp.integrator = 0
	}
	imgui.Combo("integrator##cmp", &p.cmp.integrator, names)
	tooltip("the second run's integrator")
	enter := imgui.InputTextWithHintV("law##cmp", "e.g. mu_s=0.3 eps1=5e4", &p.cmp.sets, imgui.InputTextFlagsEnterReturnsTrue, nil)
	tooltip("law edits of the second run: key=value of the default pair (or a full --set path), separated by spaces or commas")
	label := "Start"
	if c.Running {
		label = "Restart"
	}
	if imgui.Button(label+"##cmp") || enter {
		sets, err := ParseCompareSets(p.cmp.sets)
		if err != nil {
			p.cmp.err = err.Error()
		} else {
			p.cmp.err = ""
			r := &CompareRequest{Sets: sets}
			if p.cmp.integrator > 0 {
				r.Integrator = names[p.cmp.integrator]
			}
			a.Compare.Start = r
		}
	}
	if c.Running {
		imgui.SameLine()
		if imgui.Button("Stop##cmp") {
			a.Compare.Stop = true
		}
	}
	if p.cmp.err != "" {
		textColored(colRed, p.cmp.err)
	}
	if c.Err != "" {
		imgui.PushTextWrapPos()
		textColored(colRed, c.Err)
		imgui.PopTextWrapPos()
	}
	if !c.Running {
		return
	}
	textColored(compareColB, "ghost: "+c.Label)
	if c.Status != "" {
		textColored(colDim, c.Status)
	}
	imgui.Text("t = " + FormatSI(c.Time, "s") + "   steps " + FormatCount(c.Steps[0]) + " / " + FormatCount(c.Steps[1]))
	diff := "max |dx| " + FormatSI(c.MaxDiff, "m")
	if c.MaxBody != "" && c.MaxDiff > 0 {
		diff += " (" + c.MaxBody + ")"
	}
	imgui.Text(diff)
	imgui.Text("E " + FormatSI(c.Energy[0], "J") + " / " + FormatSI(c.Energy[1], "J") +
		fmt.Sprintf("   contacts %d / %d", c.Contacts[0], c.Contacts[1]))
	w := imgui.ContentRegionAvail().X
	twoSeries("energy (J)", c.EnergyA, c.EnergyB, w, plotH*1.5)
	twoSeries("contacts", c.ContactsA, c.ContactsB, w, plotH)
	twoSeries("max |dx| (m)", c.DiffSeries, nil, w, plotH)
}

// twoSeries plots a (main run) and b (second run) on one shared scale,
// labelled with the range.
func twoSeries(title string, a, b []float32, w, h float32) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range [][]float32{a, b} {
		l, u := finiteRange(s)
		lo, hi = math.Min(lo, l), math.Max(hi, u)
	}
	if len(a) == 0 || math.IsInf(lo, 0) {
		return
	}
	if !(hi > lo) {
		lo, hi = lo-0.5, hi+0.5
	}
	imgui.Text(title + "  " + FormatSci(lo) + " .. " + FormatSci(hi))
	p0 := imgui.CursorScreenPos()
	imgui.Dummy(imgui.Vec2{X: w, Y: h})
	p1 := imgui.Vec2{X: p0.X + w, Y: p0.Y + h}
	dl := imgui.WindowDrawList()
	dl.AddRectFilled(p0, p1, imgui.PackedColorFromVec4(imgui.CurrentStyle().Color(imgui.StyleColorFrameBg)))
	for i, s := range [][]float32{a, b} {
		col := imgui.PackedColorFromVec4(compareColA)
		if i == 1 {
			col = imgui.PackedColorFromVec4(compareColB)
		}
		pts := seriesPoints(s, lo, hi, p0, w, h)
		for k := 1; k < len(pts); k++ {
			dl.AddLineV(pts[k-1], pts[k], col, 1.5)
		}
	}
}

// seriesPoints maps s onto the w×h box at p0 (x by index, y from lo at the
// bottom to hi at the top); non-finite values are left out.
func seriesPoints(s []float32, lo, hi float64, p0 imgui.Vec2, w, h float32) []imgui.Vec2 {
	if len(s) < 2 {
		return nil
	}
	pts := make([]imgui.Vec2, 0, len(s))
	for i, v := range s {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			continue
		}
		x := p0.X + w*float32(i)/float32(len(s)-1)
		y := p0.Y + h*float32(1-(float64(v)-lo)/(hi-lo))
		pts = append(pts, imgui.Vec2{X: x, Y: y})
	}
	return pts
}
