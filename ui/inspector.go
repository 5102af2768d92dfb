package ui

import (
	"fmt"

	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/render"
	"grainlab/sim/snap"
)

// inspector is the state of the contact inspector: a window of its own
// beside the panel, near the top of the screen, showing the selected
// contact (bodies by name, features as v7 / e12 / f3, forces, the
// hierarchy's reasoning) or the selected body and its contacts.
type inspector struct {
	list     []int
	sortBy   ContactSort
	onlyBody bool // 3D: only the selected body's contacts

	panelPos, panelSize imgui.Vec2 // the panel's rectangle this frame
	pos, size           imgui.Vec2 // the inspector's rectangle last drawn
	shown               bool
	copied              string // what Copy put on the clipboard (shown briefly)
	copiedAt            float64
}

// inspectorEms is the inspector's width in font heights (390 px at the
// default 13 px font), before clamping to the display: it follows a UI scale.
const inspectorEms = 30

// InspectorRect returns the inspector window's position and size as last
// drawn (display pixels, top-left origin) and whether it was drawn.
func (p *Panel) InspectorRect() (pos, size imgui.Vec2, shown bool) {
	return p.insp.pos, p.insp.size, p.insp.shown
}

// ContactsShown returns the snapshot the 3D view should draw and pick from:
// s itself, or with only the selected body's contacts when the inspector's
// "only this body's contacts" is on (render.OnlyBodyContacts).
func (p *Panel) ContactsShown(s *snap.Snapshot, v *render.View) *snap.Snapshot {
	if !p.insp.onlyBody || v == nil || v.SelectedBody < 0 {
		return s
	}
	return render.OnlyBodyContacts(s, v.SelectedBody)
}

// inspectorWindow draws the inspector when a body or a contact is selected
// (after the panel's window), and the selected contact's features in 3D.
func (p *Panel) inspectorWindow(in *PanelInput, a *Actions) {
	p.insp.shown = false
	s, v := in.Snap, in.View
	if s == nil || v == nil {
		return
	}
	ci := v.SelectedContactIndex(s)
	bi := v.SelectedBody
	if bi >= len(s.Bodies) {
		bi = -1
	}
	if bi < 0 && !v.HasSelectedContact {
		return
	}
	if ci >= 0 {
		p.highlight(in, ci)
	}
	ds := imgui.MainViewport().Size()
	w := min(inspectorEms*imgui.FontSize(), ds.X-12)
	x := ds.X - w - 6
	if p.insp.panelSize.X > 0 && p.insp.panelPos.X-w-6 >= 6 {
		x = p.insp.panelPos.X - w - 6 // left of the panel
	} else if p.insp.panelSize.X > 0 {
		x = 6
	}
	imgui.SetNextWindowPosV(imgui.Vec2{X: x, Y: 6}, imgui.ConditionAlways, imgui.Vec2{})
	imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: w, Y: 0}, imgui.Vec2{X: w, Y: max(ds.Y-12, 40)})
	imgui.SetNextWindowBgAlpha(0.9)
	open := true
	if !imgui.BeginV("Inspector", &open, imgui.WindowFlagsAlwaysAutoResize|imgui.WindowFlagsNoSavedSettings|imgui.WindowFlagsNoCollapse) {
		imgui.End()
		return
	}
	p.insp.shown = true
	imgui.PushTextWrapPos()
	if ci >= 0 {
		p.contactInspector(in, s, ci, a)
	} else if v.HasSelectedContact {
		textColored(colDim, "the selected contact does not exist in this frame")
	}
	if bi >= 0 {
		if ci >= 0 || v.HasSelectedContact {
			imgui.Separator()
		}
		p.bodyInspector(s, v, bi, a)
	}
	if p.insp.copied != "" && imgui.Time()-p.insp.copiedAt < 3 {
		textColored(colGood, "copied "+p.insp.copied+" to the clipboard")
	}
	imgui.PopTextWrapPos()
	if imgui.Button("clear selection") || !open {
		v.SelectedBody, v.HasSelectedContact = -1, false
		a.SelectionChanged = true
	}
	p.insp.pos, p.insp.size = imgui.WindowPos(), imgui.WindowSize()
	imgui.End()
}

func (p *Panel) contactInspector(in *PanelInput, s *snap.Snapshot, i int, a *Actions) {
	c := &s.Contacts[i]
	kc := render.KindColors[c.Kind%snap.NumContactKinds]
	fa, fb := FeatureLabels(c)
	textColored(vec4(kc), fmt.Sprintf("%s contact", c.Kind))
	imgui.SameLine()
	if imgui.Button("copy##contact") {
		a.Clipboard = ContactReport(s, i)
		p.insp.copied, p.insp.copiedAt = "the contact", imgui.Time()
	}
	for k, side := range []struct {
		b    int
		feat string
	}{{c.A, fa}, {c.B, fb}} {
		imgui.Text(fmt.Sprintf("%c: %s  %s", 'A'+k, BodyLabel(s, side.b), side.feat))
		imgui.SameLine()
		if imgui.Button(fmt.Sprintf("select##b%d", k)) {
			in.View.SelectedBody, a.SelectionChanged = side.b, true
		}
	}
	imgui.Text("gap " + FormatSI(c.Gap, "m"))
	slip := "stick"
	if c.Sliding {
		slip = "slip"
	}
	imgui.Text("f_n " + FormatSI(c.Fn, "N") + "   |f_t| " + FormatSI(c.Ft.Norm(), "N") + "   " + slip)
	if c.Fn > 0 {
		imgui.SameLine()
		textColored(colDim, fmt.Sprintf("(|f_t|/f_n %.3g)", c.Ft.Norm()/c.Fn))
	}
	imgui.Text(fmt.Sprintf("n = (%.3f, %.3f, %.3f)  from B to A", c.Normal.X, c.Normal.Y, c.Normal.Z))
	col := colGood
	if c.Suppressed {
		col = colRed
	}
	for _, l := range HierarchyText(s, i) {
		textColored(col, l)
		col = colDim
	}
}

func (p *Panel) bodyInspector(s *snap.Snapshot, v *render.View, b int, a *Actions) {
	body := &s.Bodies[b]
	mesh := ""
	if body.Mesh >= 0 && body.Mesh < len(s.Meshes) {
		mesh = s.Meshes[body.Mesh].Name
	}
	imgui.Text(fmt.Sprintf("body %s  (index %d, mesh %s)", BodyLabel(s, b), b, mesh))
	if body.Fixed {
		imgui.SameLine()
		textColored(colDim, "fixed")
	}
	imgui.SameLine()
	if imgui.Button("copy##body") {
		a.Clipboard = BodyReport(s, b)
		p.insp.copied, p.insp.copiedAt = "the body", imgui.Time()
	}
	imgui.Text(fmt.Sprintf("x  = (%s, %s, %s) m", FormatSci(body.Pos.X), FormatSci(body.Pos.Y), FormatSci(body.Pos.Z)))
	imgui.Text(fmt.Sprintf("v  = (%s, %s, %s)  |v| %s", FormatSci(body.Vel.X), FormatSci(body.Vel.Y), FormatSci(body.Vel.Z), FormatSI(body.Vel.Norm(), "m/s")))
	imgui.Text(fmt.Sprintf("w  = (%s, %s, %s) rad/s", FormatSci(body.AngVel.X), FormatSci(body.AngVel.Y), FormatSci(body.AngVel.Z)))
	imgui.Text("sum|F| " + FormatSI(body.ContactForce, "N") + "   r " + FormatSI(body.Radius, "m"))
	if imgui.Checkbox("show only this body's contacts in 3D", &p.insp.onlyBody) {
		a.ViewChanged = true
	}
	p.insp.list = BodyContacts(p.insp.list, s, b, p.insp.sortBy)
	imgui.Text(fmt.Sprintf("%d contacts   sort:", len(p.insp.list)))
	for k, name := range []string{"|f| down", "|f| up", "order"} {
		imgui.SameLine()
		if imgui.RadioButton(name+"##sort", p.insp.sortBy == ContactSort(k)) {
			p.insp.sortBy = ContactSort(k)
		}
	}
	if len(p.insp.list) == 0 {
		return
	}
	h := float32(min(len(p.insp.list), 10))*imgui.TextLineHeightWithSpacing() + 6
	if imgui.BeginChildV("##bodycontacts", imgui.Vec2{X: 0, Y: h}, true, 0) {
		for _, i := range p.insp.list {
			c := &s.Contacts[i]
			other, fo := c.B, ""
			fa, fb := FeatureLabels(c)
			mine := fa
			if other == b {
				other, mine, fo = c.A, fb, fa
			} else {
				fo = fb
			}
			f := "|f| " + FormatSI(contactForce(c), "N")
			if c.Suppressed {
				f = "suppressed (" + c.SuppressedBy + ")"
			}
			lbl := fmt.Sprintf("%s %s on %s %s  %s##c%d", c.Kind, mine, BodyLabel(s, other), fo, f, i)
			if imgui.SelectableV(lbl, v.HasSelectedContact && render.KeyOf(c) == v.SelectedContact, 0, imgui.Vec2{}) {
				v.SelectContact(s, i)
				a.SelectionChanged = true
			}
		}
	}
	imgui.EndChild() // always paired with BeginChild
}

// highlight draws the selected contact's features over the 3D view (under
// the panel's windows): vertices as rings, edges and faces as lines, in the
// contact kind's colour, from PanelInput.Camera.
func (p *Panel) highlight(in *PanelInput, i int) {
	if in.Camera == nil {
		return
	}
	hl := render.ContactHighlight(in.Snap, i)
	ds := imgui.MainViewport().Size()
	w, h := int(ds.X), int(ds.Y)
	kc := render.KindColors[in.Snap.Contacts[i].Kind%snap.NumContactKinds]
	col := imgui.PackedColorFromVec4(imgui.Vec4{X: kc[0], Y: kc[1], Z: kc[2], W: 1})
	halo := imgui.PackedColorFromVec4(imgui.Vec4{X: 0, Y: 0, Z: 0, W: 0.7})
	dl := imgui.BackgroundDrawList()
	for _, sg := range hl.Segs {
		x0, y0, ok0 := in.Camera.Project(sg[0], w, h)
		x1, y1, ok1 := in.Camera.Project(sg[1], w, h)
		if ok0 && ok1 {
			a, b := imgui.Vec2{X: float32(x0), Y: float32(y0)}, imgui.Vec2{X: float32(x1), Y: float32(y1)}
			dl.AddLineV(a, b, halo, 5)
			dl.AddLineV(a, b, col, 2.5)
		}
	}
	for _, pt := range hl.Points {
		if x, y, ok := in.Camera.Project(pt, w, h); ok {
			c := imgui.Vec2{X: float32(x), Y: float32(y)}
			dl.AddCircleV(c, 8, halo, 16, 4)
			dl.AddCircleV(c, 8, col, 16, 2)
		}
	}
}
