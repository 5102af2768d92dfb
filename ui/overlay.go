package ui

import "github.com/inkyblackness/imgui-go/v4"

// overlayFlags: a window without decorations, inputs or focus, sized to
// its text.
const overlayFlags = imgui.WindowFlagsNoDecoration | imgui.WindowFlagsNoInputs | imgui.WindowFlagsAlwaysAutoResize |
	imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsNoFocusOnAppearing | imgui.WindowFlagsNoNav

// Hint draws text in the big font on a dark box centred horizontally in
// the first width screen units of the window, its bottom bottomGap above
// the window's bottom edge (the first view's "Space: play …").
func (u *UI) Hint(text string, width, bottomGap float32) {
	ds := imgui.MainViewport().Size()
	imgui.SetNextWindowPosV(imgui.Vec2{X: 0.5 * width, Y: ds.Y - bottomGap}, imgui.ConditionAlways, imgui.Vec2{X: 0.5, Y: 1})
	imgui.SetNextWindowBgAlpha(0.7)
	imgui.BeginV("##hint", nil, overlayFlags)
	imgui.PushFont(u.Big)
	imgui.PushStyleColor(imgui.StyleColorText, imgui.Vec4{X: 1, Y: 0.92, Z: 0.55, W: 1})
	imgui.Text(text)
	imgui.PopStyleColor()
	imgui.PopFont()
	imgui.End()
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
