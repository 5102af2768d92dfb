package ui

import "github.com/inkyblackness/imgui-go/v4"

// overlayFlags: a window without decorations, inputs or focus, sized to
// its text.
const overlayFlags = imgui.WindowFlagsNoDecoration | imgui.WindowFlagsNoInputs | imgui.WindowFlagsAlwaysAutoResize |
	imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsNoFocusOnAppearing | imgui.WindowFlagsNoNav

// HintColor is the text colour of the first view's hint (UI.Hint).
var HintColor = imgui.Vec4{X: 1, Y: 0.92, Z: 0.55, W: 1}

// EventColor is the text colour of a scene event's message shown in the
// hint's place (UI.Band with it, "t = 6.000 s: side walls removed").
var EventColor = imgui.Vec4{X: 0.55, Y: 1, Z: 0.75, W: 1}

// Hint draws text in the big font on a dark box centred horizontally in
// the first width screen units of the window, its bottom bottomGap above
// the window's bottom edge (the first view's "Space: play …"). It returns
// the box's rectangle (Band).
func (u *UI) Hint(text string, width, bottomGap float32) (lo, hi imgui.Vec2) {
	return u.Band("##hint", text, HintColor, width, bottomGap)
}

// Band draws text in colour col on a dark box centred in the free band
// [0, width) of the window (left of the panel), its bottom bottomGap above
// the window's bottom: in the big font when it fits, else in the panel's
// font (half its size), else wrapped in that font, so the box never leaves
// the band. It returns the box's rectangle.
func (u *UI) Band(id, text string, col imgui.Vec4, width, bottomGap float32) (lo, hi imgui.Vec2) {
	ds := imgui.MainViewport().Size()
	width = min(width, ds.X)
	pad := imgui.CurrentStyle().WindowPadding().X
	margin := float32(8)
	avail := width - 2*margin - 2*pad // room for the text
	imgui.PushFont(u.Big)
	big := imgui.CalcTextSize(text, false, 0).X <= avail
	imgui.PopFont()
	wrap := !big && imgui.CalcTextSize(text, false, 0).X > avail
	imgui.SetNextWindowPosV(imgui.Vec2{X: 0.5 * width, Y: ds.Y - bottomGap}, imgui.ConditionAlways, imgui.Vec2{X: 0.5, Y: 1})
	if wrap {
		imgui.SetNextWindowSizeConstraints(imgui.Vec2{}, imgui.Vec2{X: max(width-2*margin, 1), Y: ds.Y})
	}
	imgui.SetNextWindowBgAlpha(0.7)
	imgui.BeginV(id, nil, overlayFlags)
	if big {
		imgui.PushFont(u.Big)
	}
	imgui.PushStyleColor(imgui.StyleColorText, col)
	if wrap {
		imgui.PushTextWrapPosV(pad + max(avail, 1))
		imgui.Text(text)
		imgui.PopTextWrapPos()
	} else {
		imgui.Text(text)
	}
	imgui.PopStyleColor()
	if big {
		imgui.PopFont()
	}
	lo, sz := imgui.WindowPos(), imgui.WindowSize()
	imgui.End()
	return lo, imgui.Vec2{X: lo.X + sz.X, Y: lo.Y + sz.Y}
}

// Readouts draws lines in the big font at the window's top left (the clean
// mode's time, real-time factor and contact count).
func (u *UI) Readouts(lines []string) {
	imgui.SetNextWindowPosV(imgui.Vec2{X: 10, Y: 10}, imgui.ConditionAlways, imgui.Vec2{})
	imgui.SetNextWindowBgAlpha(0.45)
	imgui.BeginV("##readouts", nil, overlayFlags)
	imgui.PushFont(u.Big)
	for _, l := range lines {
		imgui.Text(l)
	}
	imgui.PopFont()
	imgui.End()
}

// Vec2 is imgui's 2-vector, for callers of Band and Hint that do not
// import imgui.
type Vec2 = imgui.Vec2
