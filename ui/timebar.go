package ui

import (
	"fmt"
	"math"

	"github.com/inkyblackness/imgui-go/v4"
)

// Timeline is the cursor of the time bar over a growing sequence of frames
// (the window's history or a recorded run). The zero value is live.
type Timeline struct {
	// Live follows the newest frame; otherwise T is the time shown.
	Live bool
	T    float64
	// Playing plays the frames at Factor simulated seconds per wall second
	// (negative: backwards), independently of the simulation.
	Playing bool
	Factor  float64
}

// NewTimeline returns a live cursor with playback at 1× real time.
func NewTimeline() Timeline { return Timeline{Live: true, Factor: 1} }

// Advance moves a playing cursor by wall seconds dt over frames spanning
// [t0, t1]. Forward play reaching t1 goes live when canLive (the simulation
// computes ahead), else stops there; backward play stops at t0.
func (tl *Timeline) Advance(dt, t0, t1 float64, canLive bool) {
	if !tl.Playing || tl.Live || !(dt > 0) {
		return
	}
	if tl.Factor == 0 || math.IsNaN(tl.Factor) {
		tl.Factor = 1
	}
	tl.T += tl.Factor * dt
	switch {
	case tl.T >= t1:
		tl.T = t1
		if canLive {
			tl.Live = true
		} else {
			tl.Playing = false
		}
	case tl.T <= t0:
		tl.T, tl.Playing = t0, false
	}
}

// Seek shows the frame at time t (leaving live).
func (tl *Timeline) Seek(t float64) { tl.Live, tl.T = false, t }

// TimeMark is one marker of the time bar.
type TimeMark struct {
	Time  float64
	Kind  int // index into MarkColors
	Label string
}

// MarkColors are the marker colours by kind: scene event, wall, edit,
// integrator, rejected steps, branch.
var MarkColors = [...]imgui.Vec4{
	{X: 0.4, Y: 0.8, Z: 1, W: 1},
	{X: 1, Y: 0.75, Z: 0.2, W: 1},
	{X: 0.6, Y: 1, Z: 0.4, W: 1},
	{X: 0.85, Y: 0.55, Z: 1, W: 1},
	{X: 1, Y: 0.3, Z: 0.3, W: 1},
	{X: 1, Y: 1, Z: 1, W: 1},
}

// TimeBarInput is what the time bar shows in one frame.
type TimeBarInput struct {
	N        int               // frames held
	Time     func(int) float64 // time of frame i
	Index    int               // frame shown
	Timeline *Timeline         // the cursor (read only here)
	Markers  []TimeMark
	Player   bool    // a recorded run: no simulation behind it
	Note     string  // e.g. what the memory budget dropped
	BudgetMB float64 // history budget (0: not editable)
	X, W     float32 // left edge and width in pixels (bottom of the display)
	Scale    float32 // UI scale (0: 1): the bar's height is TimeBarHeight × Scale
}

// TimeBarActions are what the user asked for in the time bar.
type TimeBarActions struct {
	Seek          bool // show frame SeekIndex
	SeekIndex     int
	GoLive        bool
	TogglePlay    bool
	FactorChanged bool
	Factor        float64
	StepBack      bool
	StepForward   bool
	Resume        bool    // resume the simulation from the shown frame
	Budget        float64 // new history budget in MB (0: unchanged)
}

// TimeBarHeight is the height of the time bar window in pixels.
const TimeBarHeight = 64

// DrawTimeBar draws the time bar at the bottom of the display.
func (p *Panel) DrawTimeBar(in *TimeBarInput) TimeBarActions {
	var a TimeBarActions
	tl := in.Timeline
	ds := imgui.MainViewport().Size()
	p.scale = in.Scale
	if !(p.scale > 0) {
		p.scale = 1
	}
	h := TimeBarHeight * max(p.scale, 1)
	imgui.SetNextWindowPosV(imgui.Vec2{X: in.X, Y: ds.Y - h - 6}, imgui.ConditionAlways, imgui.Vec2{})
	imgui.SetNextWindowSizeV(imgui.Vec2{X: in.W, Y: h}, imgui.ConditionAlways)
	imgui.SetNextWindowBgAlpha(0.8)
	flags := imgui.WindowFlagsNoTitleBar | imgui.WindowFlagsNoResize | imgui.WindowFlagsNoMove | imgui.WindowFlagsNoScrollbar | imgui.WindowFlagsNoSavedSettings
	if !imgui.BeginV("time bar", nil, flags) {
		imgui.End()
		return a
	}
	defer imgui.End()
	if imgui.Button("<") {
		a.StepBack = true
	}
	tooltip("one recorded frame back (Left)")
	imgui.SameLine()
	label := "play"
	if tl.Playing && !tl.Live {
		label = "stop"
	}
	if imgui.ButtonV(label+"##tb", imgui.Vec2{X: p.px(40)}) {
		a.TogglePlay = true
	}
	tooltip("play the recorded frames at the factor (the simulation keeps computing ahead)")
	imgui.SameLine()
	if imgui.Button(">") {
		a.StepForward = true
	}
	tooltip("one recorded frame forward (Right; at the live edge: a simulation step)")
	imgui.SameLine()
	if !in.Player {
		if tl.Live {
			textColored(colGood, "LIVE")
		} else if imgui.Button("live") {
			a.GoLive = true
		}
		imgui.SameLine()
	}
	f := float32(tl.Factor)
	imgui.PushItemWidth(p.px(70))
	if imgui.DragFloatV("##factor", &f, 0.01, -1000, 1000, "%.3gx", imgui.SliderFlagsLogarithmic) && f != 0 {
		a.FactorChanged, a.Factor = true, float64(f)
	}
	imgui.PopItemWidth()
	tooltip("playback factor: simulated seconds per real second (negative: backwards)")
	if !in.Player && !tl.Live {
		imgui.SameLine()
		if imgui.Button("resume from here") {
			a.Resume = true
		}
		tooltip("branch: drop the recorded future and simulate on from this frame (an edit of a parameter, wall or integrator here does the same)")
	}
	if in.N > 0 {
		imgui.SameLine()
		t := in.Time(clampInt(in.Index, 0, in.N-1))
		imgui.Text(fmt.Sprintf("t = %s  frame %d/%d", FormatSI(t, "s"), in.Index+1, in.N))
	}
	if in.BudgetMB > 0 {
		imgui.SameLine()
		mb := int32(min(in.BudgetMB, math.MaxInt32))
		imgui.PushItemWidth(p.px(60))
		if imgui.InputIntV("MB##hist", &mb, 0, 0, imgui.InputTextFlagsEnterReturnsTrue) && mb >= 1 {
			a.Budget = float64(mb)
		}
		imgui.PopItemWidth()
		tooltip("memory budget of the history (--history-mb); the oldest frames go first")
	}
	if in.Note != "" {
		imgui.SameLine()
		textColored(colDim, in.Note)
	}
	if in.N == 0 {
		return a
	}
	idx := int32(clampInt(in.Index, 0, in.N-1))
	imgui.PushItemWidth(-1)
	if imgui.SliderIntV("##scrub", &idx, 0, int32(in.N-1), " ", imgui.SliderFlagsAlwaysClamp) {
		a.Seek, a.SeekIndex = true, int(idx)
	}
	imgui.PopItemWidth()
	lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
	t0, t1 := in.Time(0), in.Time(in.N-1)
	if t1 > t0 && len(in.Markers) > 0 {
		dl := imgui.WindowDrawList()
		mouse := imgui.MousePos()
		hover := ""
		for _, m := range in.Markers {
			if m.Time < t0 || m.Time > t1 {
				continue
			}
			x := lo.X + 4 + float32((m.Time-t0)/(t1-t0))*(hi.X-lo.X-8)
			c := MarkColors[clampInt(m.Kind, 0, len(MarkColors)-1)]
			dl.AddTriangleFilled(imgui.Vec2{X: x - 4, Y: lo.Y}, imgui.Vec2{X: x + 4, Y: lo.Y}, imgui.Vec2{X: x, Y: lo.Y + 6}, imgui.PackedColorFromVec4(c))
			dl.AddLine(imgui.Vec2{X: x, Y: lo.Y}, imgui.Vec2{X: x, Y: hi.Y}, imgui.PackedColorFromVec4(c))
			if mouse.Y >= lo.Y && mouse.Y <= hi.Y && math.Abs(float64(mouse.X-x)) < 4 {
				hover += fmt.Sprintf("t = %s  %s\n", FormatSI(m.Time, "s"), m.Label)
			}
		}
		if hover != "" {
			imgui.SetTooltip(hover)
		}
	}
	return a
}

func clampInt(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
