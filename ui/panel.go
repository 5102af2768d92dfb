package ui

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/render"
	"grainlab/sim/snap"
)

// KeyHelp lists the window's keyboard and mouse bindings shown in the Keys section.
var KeyHelp = [][2]string{
	{"Space", "play / pause"},
	{"Right", "next recorded frame; live: single step"},
	{"Left", "previous recorded frame"},
	{"R", "reset scene"},
	{"F", "fit camera"},
	{"S", "screenshot"},
	{"H", "hide / show panel"},
	{"C", "clean mode: bodies and big numbers"},
	{"Esc", "leave clean mode / quit"},
	{"Ctrl+Q", "quit"},
	{"1-5", "toggle VF / EE / VE / VV / SQ contacts"},
	{"Left drag", "orbit"},
	{"Right/Middle drag", "pan"},
	{"Wheel", "zoom"},
	{"Click", "select body / contact"},
	{"Ctrl-drag", "spring force on a body"},
	{"Drop file", ".stl adds a body, .yaml opens"},
}

var (
	colRed   = imgui.Vec4{X: 1, Y: 0.35, Z: 0.3, W: 1}
	colDim   = imgui.Vec4{X: 0.6, Y: 0.6, Z: 0.6, W: 1}
	colGood  = imgui.Vec4{X: 0.5, Y: 0.9, Z: 0.5, W: 1}
	fieldW   = float32(110)
	plotH    = float32(48)
	maxFloat = float32(math.MaxFloat32)
)

// PanelWidth is the panel's width at UI scale 1 (screen coordinates).
const PanelWidth = 330

// Panel is the imgui control panel, docked to the window's right edge
// (full height, following resizes); the zero value is ready to use.
type Panel struct {
	Width     float32 // width of the panel drawn last (PanelWidth × scale, at most half the window)
	ExpandAll bool    // open every section this frame (for screenshots and docs)

	hist   *History
	law    *Editor[LawParams]
	mats   []*Editor[Material]
	smooth *Editor[SmoothLaw]
	params []ParamEdit
	cmp    compareState // the Compare section (compare.go)

	itemRight  float32 // right edge of the widest run/scene/field widget drawn last (tests)
	innerRight float32 // the panel's content right edge drawn last (tests)

	openPath  string
	meshPath  string
	scale     float32 // UI scale of this Draw (PanelInput.Scale)
	meshCount int32
	scaleEdit float32
	speed     float32
	curveLog  bool

	curveKey             LawParams
	curveHave            bool
	curveG, curveFn, cDt []float32
	curveErr             string
	plotFn, plotDt       []float32

	walls    []WallToggle
	lawValid func(LawParams) error
	matValid func(Material) error
	smValid  func(SmoothLaw) error
	inValid  func(LawParams) error
	inMatVal func(Material) error
	inSmVal  func(SmoothLaw) error
	insp     inspector
}

// History returns the panel's stats ring buffers (created on first use).
func (p *Panel) History() *History {
	if p.hist == nil {
		p.hist = NewHistory(600, 1.0/30)
	}
	return p.hist
}

// ownLawCheck is the panel's own sanity check on top of finiteness.
func ownLawCheck(l LawParams) error {
	switch {
	case l.Normal.GBar <= 0:
		return errors.New("gbar must be > 0")
	case l.Zeta < 0:
		return errors.New("zeta must be >= 0")
	case l.Friction.MuS < 0 || l.Friction.MuD < 0:
		return errors.New("friction coefficients must be >= 0")
	case l.Friction.EpsT < 0 || l.Friction.CT < 0:
		return errors.New("tangential parameters must be >= 0")
	}
	return nil
}

func textColored(c imgui.Vec4, s string) {
	imgui.PushStyleColor(imgui.StyleColorText, c)
	imgui.Text(s)
	imgui.PopStyleColor()
}

func tooltip(s string) {
	if s != "" && imgui.IsItemHovered() {
		imgui.SetTooltip(s)
	}
}

func checkbox(label string, v *bool, changed *bool) {
	if imgui.Checkbox(label, v) {
		*changed = true
	}
}

// Draw builds the panel for this imgui frame and returns the requested changes.
// Call it between imgui.NewFrame and imgui.Render.
func (p *Panel) Draw(in *PanelInput) Actions {
	var a Actions
	p.walls = p.walls[:0]
	p.params = p.params[:0]
	if p.law == nil {
		p.law = NewEditor(lawFields)
		p.smooth = NewEditor(smoothFields)
		p.curveLog = true
		p.speed = 1
	}
	p.inValid, p.inMatVal, p.inSmVal = in.ValidateLaw, in.ValidateMaterial, in.ValidateSmooth
	if p.lawValid == nil {
		p.lawValid = chain(ownLawCheck, func(l LawParams) error {
			if p.inValid != nil {
				return p.inValid(l)
			}
			return nil
		})
		p.matValid = chain(basicMaterialCheck, func(m Material) error {
			if p.inMatVal != nil {
				return p.inMatVal(m)
			}
			return nil
		})
		p.smValid = chain(ownSmoothCheck, func(l SmoothLaw) error {
			if p.inSmVal != nil {
				return p.inSmVal(l)
			}
			return nil
		})
	}
	s := in.Snap
	if in.Live != nil {
		p.History().Observe(in.Live, imgui.Time())
	} else {
		p.History().Observe(s, imgui.Time())
	}
	p.law.Sync(in.Law)
	p.smooth.Sync(in.SmoothLaw)

	ds := imgui.MainViewport().Size()
	p.scale = max(in.Scale, 0)
	if p.scale == 0 {
		p.scale = 1
	}
	p.Width = DockWidth(ds.X, p.scale)
	imgui.SetNextWindowPosV(imgui.Vec2{X: ds.X - p.Width - 6, Y: 6}, imgui.ConditionAlways, imgui.Vec2{})
	imgui.SetNextWindowSizeV(imgui.Vec2{X: p.Width, Y: max(ds.Y-12, 1)}, imgui.ConditionAlways)
	imgui.SetNextWindowBgAlpha(0.88)
	if !imgui.BeginV("Grainlab", nil, imgui.WindowFlagsNoCollapse|imgui.WindowFlagsNoMove|imgui.WindowFlagsNoResize) {
		imgui.End()
		return a
	}
	p.insp.panelPos, p.insp.panelSize = imgui.WindowPos(), imgui.WindowSize()
	p.itemRight, p.innerRight = 0, imgui.WindowPos().X+imgui.WindowContentRegionMax().X
	// fields at fieldW, but never more than half the content width: their
	// labels stay inside a narrow (resized or scaled) panel
	imgui.PushItemWidth(min(p.px(fieldW), 0.5*imgui.ContentRegionAvail().X))
	p.runControls(in, &a)
	if in.Status != "" {
		if in.StatusIsError {
			imgui.PushTextWrapPos()
			textColored(colRed, in.Status)
			imgui.PopTextWrapPos()
		} else {
			imgui.Text(in.Status)
		}
	}
	if p.header("Scene", imgui.TreeNodeFlagsDefaultOpen) {
		p.sceneSection(in, &a)
	}
	if len(in.Integrators) > 0 && p.header1("Integrator") {
		p.integratorSection(in, &a)
	}
	if !in.SmoothOnly {
		if p.header1("Barrier / normal law") {
			p.lawSection(in, &a)
		}
		if p.header1("Friction") {
			p.frictionSection(in, &a)
		}
	}
	if in.HasSmooth && p.header1("Smooth contact law") {
		p.smoothSection(in, &a)
	}
	if hasShapes(in.Materials) && p.header1("Shapes") {
		p.shapesSection(in, &a)
	}
	if s != nil && len(s.Walls) > 0 && p.header1("Walls") {
		for i := range s.Walls {
			w := &s.Walls[i]
			on := w.Enabled
			name := w.Name
			if name == "" {
				name = fmt.Sprintf("wall %d", i)
			}
			if imgui.Checkbox(name+"##wall"+fmt.Sprint(i), &on) {
				p.walls = append(p.walls, WallToggle{Index: i, Name: w.Name, Enabled: on})
			}
			if txt := WallForceText(w); txt != "" { // none for a disabled wall
				imgui.SameLine()
				textColored(colDim, txt)
			}
		}
	}
	if in.Compare != nil && p.header1("Compare with...") {
		p.compareSection(in, &a)
	}
	if in.View != nil && p.header("View", imgui.TreeNodeFlagsDefaultOpen) {
		p.viewSection(in, &a)
	}
	if p.header("Stats", imgui.TreeNodeFlagsDefaultOpen) {
		p.statsSection(in)
	}
	if p.header("Plots", imgui.TreeNodeFlagsDefaultOpen) {
		p.plotsSection(in)
	}
	if p.header1("Window") {
		p.windowSection(in, &a)
	}
	if p.header1("Keys") {
		for _, k := range KeyHelp {
			textColored(colGood, k[0])
			imgui.SameLineV(p.px(120), -1)
			imgui.Text(k[1])
		}
	}
	imgui.PopItemWidth()
	imgui.End()
	p.inspectorWindow(in, &a)
	if len(p.walls) > 0 {
		a.Walls = p.walls
	}
	if len(p.params) > 0 {
		a.Params = p.params
	}
	return a
}

// note records the right edge of the last item (tests: every widget lies
// inside the panel).
func (p *Panel) note() { p.itemRight = max(p.itemRight, imgui.ItemRectMax().X) }

// fitWidth is the width for the next labelled widget: want, but at most
// what is left of the line after its label (at least 1).
func fitWidth(want float32, label string) float32 {
	lw := float32(0)
	if i := strings.Index(label, "##"); i >= 0 {
		label = label[:i]
	}
	if label != "" {
		lw = imgui.CurrentStyle().ItemInnerSpacing().X + imgui.CalcTextSize(label, false, 0).X
	}
	return max(min(want, imgui.ContentRegionAvail().X-lw), 1)
}

// buttonWidth is the width of a button labelled label.
func buttonWidth(label string) float32 {
	return imgui.CalcTextSize(label, true, 0).X + 2*imgui.CurrentStyle().FramePadding().X
}

// px converts a width in unscaled pixels to the panel's UI scale.
func (p *Panel) px(v float32) float32 {
	if p.scale > 0 {
		return v * p.scale
	}
	return v
}

// DockWidth is the panel's width in a window dispWidth wide at UI scale
// scale: PanelWidth × scale, at most half the window (but 220 if the
// window allows), never wider than the window less its margins.
func DockWidth(dispWidth, scale float32) float32 {
	if !(scale > 0) {
		scale = 1
	}
	w := min(PanelWidth*scale, max(0.5*dispWidth, 220))
	return max(min(w, dispWidth-12), 1)
}

// windowSection: the UI scale and clean mode.
func (p *Panel) windowSection(in *PanelInput, a *Actions) {
	scale := in.Scale
	if scale <= 0 {
		scale = 1
	}
	if !imgui.IsAnyItemActive() {
		p.scaleEdit = scale
	}
	imgui.SliderFloatV("UI scale", &p.scaleEdit, MinScale, MaxScale, "%.2f", imgui.SliderFlagsAlwaysClamp)
	tooltip("fonts and widgets (--ui-scale); applied when the slider is released")
	if imgui.IsItemDeactivatedAfterEdit() && p.scaleEdit != scale {
		a.Scale = ClampScale(float64(p.scaleEdit))
	}
	clean := in.Clean
	if imgui.Checkbox("clean mode (C)", &clean) {
		a.ToggleClean = true
	}
	tooltip("bodies and a few large readouts only; C or Esc leaves it")
}

func (p *Panel) header(label string, flags imgui.TreeNodeFlags) bool {
	if p.ExpandAll {
		imgui.SetNextItemOpen(true, imgui.ConditionAlways)
	}
	return imgui.CollapsingHeaderV(label, flags)
}

func (p *Panel) header1(label string) bool { return p.header(label, 0) }

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func hasShapes(ms []Material) bool {
	for i := range ms {
		if ms[i].Kind != "" {
			return true
		}
	}
	return false
}

// runControls draws the run buttons (wrapped onto more lines when the
// panel is narrow), the as-fast check and the speed slider.
func (p *Panel) runControls(in *PanelInput, a *Actions) {
	f := beginFlow()
	f.place(p.px(60))
	if in.Playing {
		if imgui.ButtonV("Pause", imgui.Vec2{X: p.px(60)}) {
			a.Pause = true
		}
	} else if imgui.ButtonV("Play", imgui.Vec2{X: p.px(60)}) {
		a.Play = true
	}
	f.end()
	p.note()
	for _, b := range []struct {
		label string
		act   *bool
	}{{"Step", &a.Step}, {"Reset", &a.Reset}, {"Fit", &a.Fit}, {"Shot", &a.Screenshot}} {
		f.place(buttonWidth(b.label))
		if imgui.Button(b.label) {
			*b.act = true
		}
		f.end()
		p.note()
	}
	f = beginFlow()
	fast := in.AsFast
	f.place(checkWidth("as fast as possible"))
	if imgui.Checkbox("as fast as possible", &fast) {
		a.SpeedChanged, a.AsFast, a.Speed = true, fast, in.Speed
	}
	f.end()
	p.note()
	if !imgui.IsAnyItemActive() && in.Speed > 0 {
		p.speed = float32(in.Speed)
	}
	if !in.AsFast {
		label := "speed##run"
		f.place(p.px(90) + imgui.CurrentStyle().ItemInnerSpacing().X + imgui.CalcTextSize("speed", false, 0).X)
		imgui.SetNextItemWidth(fitWidth(p.px(90), label))
		if imgui.SliderFloatV(label, &p.speed, 1e-4, 1e3, "%.3gx", imgui.SliderFlagsLogarithmic|imgui.SliderFlagsAlwaysClamp) {
			a.SpeedChanged, a.AsFast, a.Speed = true, false, float64(p.speed)
		}
		p.note()
		tooltip("simulated seconds per real second")
	}
}

func (p *Panel) sceneSection(in *PanelInput, a *Actions) {
	if s := in.Snap; s != nil {
		imgui.Text("scene: " + s.Scene)
	}
	if len(in.Scenes) > 0 {
		cur := int32(-1)
		if in.Snap != nil {
			cur = int32(indexOf(in.Scenes, in.Snap.Scene))
		}
		preview := "(choose)"
		if cur >= 0 {
			preview = in.Scenes[cur]
		}
		imgui.SetNextItemWidth(fitWidth(p.px(200), "scene##pick"))
		if imgui.BeginCombo("scene##pick", preview) {
			for i, name := range in.Scenes {
				if imgui.SelectableV(name, int32(i) == cur, 0, imgui.Vec2{}) {
					a.LoadScene = name
				}
			}
			imgui.EndCombo()
		}
		p.note()
	}
	// a path field and its button on one line when both fit at least
	// 80 px of field, else the button goes below
	spacing := imgui.CurrentStyle().ItemSpacing().X
	openW := buttonWidth("Open file...")
	oneLine := imgui.ContentRegionAvail().X-openW-spacing >= p.px(80)
	if oneLine {
		imgui.SetNextItemWidth(min(p.px(200), imgui.ContentRegionAvail().X-openW-spacing))
	} else {
		imgui.SetNextItemWidth(fitWidth(p.px(200), ""))
	}
	enter := imgui.InputTextWithHintV("##open", "scene file path", &p.openPath, imgui.InputTextFlagsEnterReturnsTrue, nil)
	p.note()
	if oneLine {
		imgui.SameLine()
	}
	if (imgui.Button("Open file...") || enter) && strings.TrimSpace(p.openPath) != "" {
		a.OpenFile = strings.TrimSpace(p.openPath)
	}
	p.note()
	if p.meshCount <= 0 {
		p.meshCount = 1
	}
	countW := p.px(50)
	imgui.SetNextItemWidth(max(min(p.px(200), imgui.ContentRegionAvail().X-countW-spacing), 1))
	enter = imgui.InputTextWithHintV("##mesh", "mesh.stl path", &p.meshPath, imgui.InputTextFlagsEnterReturnsTrue, nil)
	p.note()
	tooltip("a closed STL mesh; or drop .stl / .yaml files on the window")
	imgui.SameLine()
	imgui.SetNextItemWidth(fitWidth(countW, ""))
	imgui.InputIntV("##meshcount", &p.meshCount, 0, 0, 0)
	p.note()
	tooltip("how many bodies, stacked above the pile")
	p.meshCount = min(max(p.meshCount, 1), 1000)
	add := "Add bodies from mesh..."
	if buttonWidth(add) > imgui.ContentRegionAvail().X {
		add = "Add from mesh...##add" // the same button, a shorter label
	}
	if (imgui.Button(add) || enter) && strings.TrimSpace(p.meshPath) != "" {
		a.AddMesh = &MeshAdd{Path: strings.TrimSpace(p.meshPath), Count: int(p.meshCount)}
	}
	p.note()
}

// numField draws field i of editor e; it returns true when the user finished
// an edit (Enter or leaving the field) so the caller may commit.
func numField[T comparable](p *Panel, e *Editor[T], i int, validate func(T) error) (done bool) {
	f := e.Fields[i]
	buf := e.Bufs[i]
	imgui.SetNextItemWidth(fitWidth(imgui.CalcItemWidth(), f.Label))
	enter := imgui.InputTextV(f.Label+"##f"+fmt.Sprint(i), &buf,
		imgui.InputTextFlagsCharsScientific|imgui.InputTextFlagsAutoSelectAll|imgui.InputTextFlagsEnterReturnsTrue, nil)
	p.note()
	if buf != e.Bufs[i] {
		e.Edit(i, buf, validate)
	}
	tooltip(f.Tip)
	done = enter || imgui.IsItemDeactivatedAfterEdit()
	if msg := e.FieldError(i); msg != "" {
		imgui.SameLine()
		textColored(colRed, msg)
	}
	return done
}

func (p *Panel) lawSection(in *PanelInput, a *Actions) {
	e := p.law
	kinds := in.LawKinds
	if len(kinds) > 0 {
		base := e.Base()
		cur := int32(indexOf(kinds, base.Kind))
		if imgui.Combo("law", &cur, kinds) && cur >= 0 {
			e.Modify(func(l *LawParams) { l.Kind = kinds[cur] }, p.lawValid)
			p.commitLaw(in, a)
		}
	} else if in.Law.Kind != "" {
		imgui.Text("law: " + in.Law.Kind)
	}
	for i := 0; i < lawNormalFields; i++ {
		if numField(p, e, i, p.lawValid) {
			p.commitLaw(in, a)
		}
	}
	// derived, read-only
	d := in.Law
	if e.Dirty() && in.DeriveLaw != nil {
		if c, ok := e.Candidate(p.lawValid); ok {
			if dd, err := in.DeriveLaw(c); err == nil {
				d = dd
			}
		}
	}
	textColored(colDim, "eps2 = "+FormatSci(d.Eps2)+"   c2 = "+FormatSci(d.C2)+"  (derived)")
	if e.Dirty() {
		if imgui.Button("Apply") {
			p.commitLaw(in, a)
		}
		imgui.SameLine()
		if imgui.Button("Revert") {
			e.Reset(in.Law)
		}
		if e.Err != "" && e.ErrAt < 0 {
			textColored(colRed, e.Err)
		}
	}
	p.lawPlots(in)
}

func (p *Panel) frictionSection(in *PanelInput, a *Actions) {
	for i := lawNormalFields; i < len(lawFields); i++ {
		if numField(p, p.law, i, p.lawValid) {
			p.commitLaw(in, a)
		}
	}
}

func (p *Panel) commitLaw(in *PanelInput, a *Actions) {
	if c, ok := p.law.Commit(p.lawValid); ok && c != in.Law {
		v := c
		a.Law = &v
	}
}

func (p *Panel) lawPlots(in *PanelInput) {
	if in.LawCurve == nil {
		return
	}
	params := in.Law
	if p.law.Dirty() {
		if c, ok := p.law.Candidate(p.lawValid); ok {
			params = c
		}
	}
	if !p.curveHave || params != p.curveKey {
		g, fn, dt, err := in.LawCurve(params)
		p.curveKey, p.curveHave = params, true
		p.curveG, p.curveFn, p.cDt = g, fn, dt
		p.curveErr = ""
		if err != nil {
			p.curveErr = err.Error()
		}
	}
	if p.curveErr != "" {
		textColored(colRed, "curve: "+p.curveErr)
		return
	}
	imgui.Checkbox("log10 plots", &p.curveLog)
	w := imgui.ContentRegionAvail().X
	gr := ""
	if n := len(p.curveG); n > 1 {
		gr = fmt.Sprintf("g: %s .. %s", FormatSI(float64(p.curveG[0]), "m"), FormatSI(float64(p.curveG[n-1]), "m"))
	}
	p.plotFn = transformPlot(p.plotFn, p.curveFn, p.curveLog)
	p.plotDt = transformPlot(p.plotDt, p.cDt, p.curveLog)
	if len(p.plotFn) > 0 {
		lo, hi := finiteRange(p.curveFn)
		imgui.PlotLinesV("##fn", p.plotFn, 0, "f_n(g)  "+FormatSI(lo, "N")+" .. "+FormatSI(hi, "N"), maxFloat, maxFloat, imgui.Vec2{X: w, Y: plotH * 1.5})
	}
	if len(p.plotDt) > 0 {
		lo, hi := finiteRange(p.cDt)
		imgui.PlotLinesV("##dtc", p.plotDt, 0, "dt_c(g)  "+FormatSI(lo, "s")+" .. "+FormatSI(hi, "s"), maxFloat, maxFloat, imgui.Vec2{X: w, Y: plotH * 1.5})
	}
	if gr != "" {
		textColored(colDim, gr)
	}
	textColored(colDim, "dt_c = 2 sqrt(m_c/k_c),  k_c = -df_n/dg")
}

// transformPlot copies src into dst (log10 of |v| when lg), replacing
// non-finite values so imgui's autoscale is not poisoned.
func transformPlot(dst, src []float32, lg bool) []float32 {
	dst = dst[:0]
	for _, v := range src {
		x := float64(v)
		if lg {
			x = math.Log10(math.Abs(x))
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if lg {
				x = -30
			} else {
				x = 0
			}
		}
		dst = append(dst, float32(x))
	}
	return dst
}

func finiteRange(v []float32) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		lo, hi = math.Min(lo, f), math.Max(hi, f)
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// shapesSection edits the smooth shape of each material: half-lengths as
// numbers, exponents with sliders; an edit is sent when the field is left
// (or the slider released) and valid.
func (p *Panel) shapesSection(in *PanelInput, a *Actions) {
	if len(p.mats) != len(in.Materials) {
		p.mats = make([]*Editor[Material], len(in.Materials))
	}
	for mi := range in.Materials {
		m := in.Materials[mi]
		if m.Kind == "" {
			continue
		}
		if p.mats[mi] == nil {
			p.mats[mi] = NewEditor(materialFields)
		}
		e := p.mats[mi]
		e.Sync(m)
		imgui.PushIDInt(mi)
		name := m.Name
		if name == "" {
			name = fmt.Sprintf("material %d", m.Index)
		}
		imgui.Text(fmt.Sprintf("%s: %d %s", name, m.Count, plural(m.Kind, m.Count)))
		if m.Varied {
			textColored(colDim, "sizes vary: a, b, c are the first body's; each body keeps its size relative to it")
		}
		done := false
		for i := 0; i < materialExpField; i++ {
			done = numField(p, e, i, p.matValid) || done
		}
		for i := materialExpField; i < len(e.Fields); i++ {
			done = expSlider(e, i, p.matValid) || done
		}
		if done {
			if c, ok := e.Commit(p.matValid); ok && c != m {
				a.Material = &MaterialEdit{Index: m.Index, Material: c}
			}
		}
		if e.Err != "" && e.ErrAt < 0 {
			textColored(colRed, e.Err)
		}
		imgui.PopID()
	}
	imgui.PushTextWrapPos()
	textColored(colDim, "(|x/a|^n2 + |y/b|^n2)^(n1/n2) + |z/c|^n1 = 1  (S1 eq. 1)")
	imgui.PopTextWrapPos()
}

func plural(kind string, n int) string {
	if n == 1 {
		return kind
	}
	return kind + "s"
}

// expSlider draws field i of e as a slider over [MinBlockiness,
// MaxBlockiness]; it returns true when the user released it after a change.
func expSlider[T comparable](e *Editor[T], i int, validate func(T) error) bool {
	f := e.Fields[i]
	v, err := ParseNumber(e.Bufs[i])
	if err != nil {
		v = MinBlockiness
	}
	x := float32(v)
	if imgui.SliderFloatV(f.Label+"##s"+fmt.Sprint(i), &x, MinBlockiness, MaxBlockiness, "%.2f", imgui.SliderFlagsAlwaysClamp) {
		e.Edit(i, FormatEdit(math.Round(float64(x)*1000)/1000), validate)
	}
	tooltip(f.Tip + " (Ctrl-click to type)")
	done := imgui.IsItemDeactivatedAfterEdit()
	if msg := e.FieldError(i); msg != "" {
		imgui.SameLine()
		textColored(colRed, msg)
	}
	return done
}

// smoothSection edits the smooth contact law of the default pair; each
// valid change is sent as contact.default.<key>.
func (p *Panel) smoothSection(in *PanelInput, a *Actions) {
	e := p.smooth
	model := in.SmoothLaw.Model
	imgui.Text("model: " + model)
	for i := range e.Fields {
		if !smoothFieldUsed(model, i) {
			continue
		}
		if numField(p, e, i, p.smValid) {
			if c, ok := e.Commit(p.smValid); ok {
				p.params = smoothChanges(p.params, in.SmoothLaw, c)
			}
		}
	}
	for _, f := range smoothFlags {
		on := *f.Get(&in.SmoothLaw)
		if imgui.Checkbox(f.Label, &on) {
			p.params = append(p.params, flagEdit(f.Label, on))
		}
		tooltip(f.Tip)
	}
	if e.Err != "" && e.ErrAt < 0 {
		textColored(colRed, e.Err)
	}
}

// integratorSection picks the integrator and shows its statistics with
// plots of Δt and the iteration counts.
func (p *Panel) integratorSection(in *PanelInput, a *Actions) {
	cur := int32(indexOf(in.Integrators, in.Integrator))
	if imgui.Combo("integrator", &cur, in.Integrators) && cur >= 0 && in.Integrators[cur] != in.Integrator {
		a.Integrator = in.Integrators[cur]
	}
	if in.HasCompatible {
		on := in.Compatible
		if imgui.Checkbox("compatible forces", &on) {
			a.Compatible = &on
		}
		tooltip("contact dynamics: show the compatible (S3 §6) instead of the classic contact forces")
	}
	s := in.Snap
	if s == nil {
		return
	}
	st := &s.Stats
	imgui.Text(fmt.Sprintf("%s   dt = %s", st.Integrator, FormatSI(st.Dt, "s")))
	imgui.Text(fmt.Sprintf("Newton it. %d   linear it. %d   residual %s", st.NewtonIters, st.LinearIters, FormatSci(st.Residual)))
	imgui.Text(fmt.Sprintf("rejected steps %d   sq failures %d", st.Rejected, st.SQFailures))
	p.integratorPlots(in)
}

// flow lays items out left to right, wrapping when the next one does not fit.
type flow struct {
	right, last float32
	any         bool
}

func beginFlow() flow {
	return flow{right: imgui.CursorScreenPos().X + imgui.ContentRegionAvail().X}
}

// place positions the next item of width w.
func (f *flow) place(w float32) {
	if f.any && f.last+imgui.CurrentStyle().ItemSpacing().X+w <= f.right {
		imgui.SameLine()
	}
	f.any = true
}

func (f *flow) end() { f.last = imgui.ItemRectMax().X }

func checkWidth(label string) float32 {
	if i := strings.Index(label, "##"); i >= 0 {
		label = label[:i]
	}
	return imgui.FrameHeight() + imgui.CurrentStyle().ItemInnerSpacing().X + imgui.CalcTextSize(label, false, 0).X
}

func (f *flow) check(label string, v *bool, changed *bool) {
	f.place(checkWidth(label))
	checkbox(label, v, changed)
	f.end()
}

// swatchCheck is a colour swatch followed by a checkbox, kept together.
func (f *flow) swatchCheck(id string, c [3]float32, label string, v *bool, changed *bool) {
	f.place(12 + 2 + checkWidth(label))
	imgui.BeginGroup()
	imgui.ColorButton(id, imgui.Vec4{X: c[0], Y: c[1], Z: c[2], W: 1}, imgui.ColorEditFlagsNoTooltip, imgui.Vec2{X: 10, Y: 10})
	imgui.SameLineV(0, 2)
	checkbox(label, v, changed)
	imgui.EndGroup()
	f.end()
}

func (p *Panel) viewSection(in *PanelInput, a *Actions) {
	v := in.View
	ch := &a.ViewChanged
	f := beginFlow()
	f.check("bodies", &v.ShowBodies, ch)
	f.check("edges", &v.ShowEdges, ch)
	f.check("walls", &v.ShowWalls, ch)
	f.check("grid", &v.ShowGrid, ch)
	f.check("axes", &v.ShowAxes, ch)
	f.check("spheres", &v.ShowSpheres, ch)
	f.check("skin", &v.ShowSkin, ch)
	tooltip("contact-skin shell inflated by the skin gap gbar of the default law")
	f.check("markers", &v.ShowContacts, ch)

	textColored(colDim, "contact types")
	f = beginFlow()
	for k := snap.ContactKind(0); k < snap.NumContactKinds; k++ {
		f.swatchCheck("##kc"+k.String(), render.KindColors[k], k.String()+"##kf", &v.KindFilter[k], ch)
	}
	f.swatchCheck("##kcs", render.SuppressedColor, "suppressed", &v.ShowSuppressed, ch)

	textColored(colDim, "force arrows")
	f = beginFlow()
	f.swatchCheck("##nc", render.NormalArrowColor, "normal", &v.ShowNormal, ch)
	f.swatchCheck("##fc", render.FrictionArrowColor, "friction", &v.ShowFriction, ch)
	f.check("log", &v.LogArrows, ch)
	tooltip("L = scale * knee * ln(1 + |F|/knee)")
	sc := float32(v.ArrowScale)
	if imgui.SliderFloatV("arrow m/N", &sc, 1e-9, 1e3, "%.3g", imgui.SliderFlagsLogarithmic) && sc > 0 {
		v.ArrowScale, v.ArrowPinned, *ch = float64(sc), true, true // a chosen scale stays
	}
	imgui.SameLine()
	if imgui.Button("auto##arrow") && in.Snap != nil {
		v.AutoArrowScale(in.Snap)
		v.ArrowPinned, *ch = false, true
	}
	if v.LogArrows {
		ref := float32(v.ArrowRef)
		if imgui.DragFloatV("knee (N)", &ref, float32(math.Max(v.ArrowRef*0.01, 1e-9)), 1e-9, 1e9, "%.3g", imgui.SliderFlagsLogarithmic) && ref > 0 {
			v.ArrowRef, *ch = float64(ref), true
		}
	}
	mp := v.MarkerPx
	if imgui.SliderFloatV("marker px", &mp, 1, 20, "%.1f", 0) {
		v.MarkerPx, *ch = mp, true
	}
	if imgui.SliderFloatV("hidden alpha", &v.OccludedAlpha, 0, 1, "%.2f", 0) {
		*ch = true
	}
	tooltip("opacity of markers and arrows hidden behind bodies")
	if imgui.SliderFloatV("wall alpha", &v.WallAlpha, 0, 1, "%.2f", 0) {
		*ch = true
	}
	p.displaySection(in, ch) // V1: first view, arrow fit, force chains, pass times
	gz := float32(v.GridZ)
	if imgui.DragFloatV("grid z (m)", &gz, 0.01, -1e6, 1e6, "%.3g", 0) {
		v.GridZ, *ch = float64(gz), true
	}

	cb := int32(v.ColorBy)
	if imgui.Combo("colour by", &cb, render.ColorByNames) {
		v.ColorBy, *ch = render.ColorBy(cb), true
	}
	if v.ColorBy != render.ColorNone {
		checkbox("auto range", &v.AutoRange, ch)
		if !v.AutoRange {
			r := [2]float32{float32(v.Range[0]), float32(v.Range[1])}
			if imgui.DragFloat2V("range", &r, float32(math.Max(math.Abs(v.Range[1]-v.Range[0])*0.005, 1e-9)), -1e12, 1e12, "%.3g", 0) {
				v.Range, *ch = [2]float64{float64(r[0]), float64(r[1])}, true
			}
		} else {
			v.Range = in.ColorRange
		}
		unit := "m/s"
		if v.ColorBy == render.ColorForce {
			unit = "N"
		}
		colorBar(in.ColorRange[0], in.ColorRange[1], unit)
	}
}

// colorBar draws the Colormap gradient with its range labels.
func colorBar(lo, hi float64, unit string) {
	dl := imgui.WindowDrawList()
	p0 := imgui.CursorScreenPos()
	w := imgui.ContentRegionAvail().X
	h := float32(12)
	const n = 32
	for i := 0; i < n; i++ {
		c0 := render.Colormap(float64(i) / n)
		c1 := render.Colormap(float64(i+1) / n)
		a := imgui.PackedColorFromVec4(imgui.Vec4{X: c0[0], Y: c0[1], Z: c0[2], W: 1})
		b := imgui.PackedColorFromVec4(imgui.Vec4{X: c1[0], Y: c1[1], Z: c1[2], W: 1})
		x0 := p0.X + w*float32(i)/n
		x1 := p0.X + w*float32(i+1)/n
		dl.AddRectFilledMultiColor(imgui.Vec2{X: x0, Y: p0.Y}, imgui.Vec2{X: x1, Y: p0.Y + h}, a, b, b, a)
	}
	imgui.Dummy(imgui.Vec2{X: w, Y: h})
	imgui.Text(FormatSI(lo, unit))
	hiS := FormatSI(hi, unit)
	imgui.SameLineV(w-imgui.CalcTextSize(hiS, false, 0).X, -1)
	imgui.Text(hiS)
}

func (p *Panel) statsSection(in *PanelInput) {
	s := in.Snap
	h := p.History()
	fps := imgui.CurrentIO().Framerate()
	if s == nil {
		imgui.Text(fmt.Sprintf("no snapshot   fps %.0f", fps))
		return
	}
	st := &s.Stats
	nb := len(s.Bodies) - len(s.Walls)
	imgui.Text(fmt.Sprintf("bodies %d   walls %d   meshes %d", nb, len(s.Walls), len(s.Meshes)))
	imgui.Text(fmt.Sprintf("contacts %d   suppressed %d", st.Contacts, st.Suppressed))
	for k := snap.ContactKind(0); k < snap.NumContactKinds; k++ {
		c := render.KindColors[k]
		if k > 0 {
			imgui.SameLine()
		}
		textColored(imgui.Vec4{X: c[0], Y: c[1], Z: c[2], W: 1}, fmt.Sprintf("%s %d", k, st.ByKind[k]))
	}
	imgui.Text("t = " + FormatSI(st.Time, "s") + "   step " + FormatCount(st.Step))
	imgui.Text("dt = " + FormatSI(st.Dt, "s") + "   " + st.Integrator)
	rate, rtf := rateOr0(h.Rate.Rate()), h.RTF
	if in.RunRate > 0 {
		rate, rtf = in.RunRate, in.RunRTF
	}
	imgui.Text(fmt.Sprintf("steps/s %s   RTF %s   fps %.0f", FormatSci(rate), FormatFactor(rtf), fps))
	tooltip("steps per wall second over the last second")
	if st.NightOwls > 0 || st.Rejected > 0 {
		imgui.Text(fmt.Sprintf("night owls %d   rejected %d", st.NightOwls, st.Rejected))
	}
	imgui.Text("E_kin " + FormatSI(st.Kinetic, "J") + "  E_g " + FormatSI(st.PotentialGravity, "J") + "  E_c " + FormatSI(st.PotentialContact, "J"))
}

// rateOr0 is r, or 0 while unknown (NaN).
func rateOr0(r float64) float64 {
	if math.IsNaN(r) {
		return 0
	}
	return r
}
