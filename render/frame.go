package render

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Instance layouts (float32 counts).
const (
	instFloats   = 20 // model matrix (column-major) + colour rgba
	markerFloats = 9  // centre 3, colour 4, radius px, selected flag
	arrowFloats  = 10 // start 3, end 3, colour 4
)

type cmdKind uint8

const (
	cmdOpaque cmdKind = iota
	cmdWall
	cmdSkin
	cmdSpheres
	cmdOutline
)

// drawCmd is one instanced draw over instances [first, first+count).
type drawCmd struct {
	kind         cmdKind
	mesh         int
	first, count int
}

// transItem is one translucent object to be sorted back to front.
type transItem struct {
	kind cmdKind
	mesh int
	body int
	d2   float64
}

// transSorter is sorted far to near by sortTrans.
type transSorter []transItem

// frame is the per-frame CPU work of Draw, reused across frames (no GL here).
type frame struct {
	walls    []bool
	inst     []float32
	cmds     []drawCmd
	counts   []int
	offs     []int
	trans    transSorter
	markers  []float32
	arrows   []float32
	lo, hi   float64
	nMarkers int
	nArrows  int
}

// meshInfo is what frame building needs to know about an uploaded mesh.
type meshInfo struct {
	center geom.Vec3
	valid  bool
}

func appendModel(dst []float32, pos geom.Vec3, q geom.Quat, scale float64, col [4]float32) []float32 {
	m := q.Normalize().Mat()
	s := scale
	return append(dst,
		float32(m[0][0]*s), float32(m[1][0]*s), float32(m[2][0]*s), 0,
		float32(m[0][1]*s), float32(m[1][1]*s), float32(m[2][1]*s), 0,
		float32(m[0][2]*s), float32(m[1][2]*s), float32(m[2][2]*s), 0,
		float32(pos.X), float32(pos.Y), float32(pos.Z), 1,
		col[0], col[1], col[2], col[3])
}

func rgba(c [3]float32, a float32) [4]float32 { return [4]float32{c[0], c[1], c[2], a} }

// bodyColor returns the display colour of body i.
func (f *frame) bodyColor(s *snap.Snapshot, v *View, i int) [4]float32 {
	b := &s.Bodies[i]
	var c [3]float32
	switch {
	case v.ColorBy != ColorNone:
		x := bodyScalar(v.ColorBy, b)
		c = Colormap((x - f.lo) / (f.hi - f.lo))
	case b.Fixed:
		c = FixedBodyColor
	default:
		t := hashTint(i)
		c = [3]float32{BodyColor[0] * t, BodyColor[1] * t, BodyColor[2] * t}
	}
	if i == v.SelectedBody {
		for k := range c {
			c[k] = 0.35*c[k] + 0.65*SelectedColor[k]
		}
	}
	return rgba(c, 1)
}

// build fills instance data and draw commands for s.
func (f *frame) build(s *snap.Snapshot, v *View, cam *Camera, meshes []meshInfo) {
	f.inst = f.inst[:0]
	f.cmds = f.cmds[:0]
	f.trans = f.trans[:0]
	f.markers = f.markers[:0]
	f.arrows = f.arrows[:0]
	f.nMarkers, f.nArrows = 0, 0
	if s == nil {
		return
	}
	f.walls = wallMask(s, f.walls)
	if v.ColorBy != ColorNone {
		if v.AutoRange {
			f.lo, f.hi = scalarRange(s, v.ColorBy, f.walls)
		} else {
			f.lo, f.hi = v.Range[0], v.Range[1]
			if !(f.hi > f.lo) {
				f.hi = f.lo + 1
			}
		}
	} else {
		f.lo, f.hi = 0, 1
	}
	nm := len(meshes)
	okMesh := func(i int) bool { return i >= 0 && i < nm && meshes[i].valid }

	// opaque bodies grouped by mesh (counting sort)
	if v.ShowBodies {
		if cap(f.counts) < nm {
			f.counts = make([]int, nm)
			f.offs = make([]int, nm)
		}
		f.counts, f.offs = f.counts[:nm], f.offs[:nm]
		clear(f.counts)
		for i := range s.Bodies {
			if b := &s.Bodies[i]; !f.walls[i] && okMesh(b.Mesh) && b.Pos.IsFinite() {
				f.counts[b.Mesh]++
			}
		}
		total := 0
		for m := range f.counts {
			f.offs[m] = total
			if f.counts[m] > 0 {
				f.cmds = append(f.cmds, drawCmd{kind: cmdOpaque, mesh: m, first: total, count: f.counts[m]})
			}
			total += f.counts[m]
		}
		need := total * instFloats
		if cap(f.inst) < need {
			f.inst = make([]float32, need, need*5/4+instFloats)
		}
		f.inst = f.inst[:need]
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if f.walls[i] || !okMesh(b.Mesh) || !b.Pos.IsFinite() {
				continue
			}
			o := f.offs[b.Mesh] * instFloats
			appendModel(f.inst[o:o:o+instFloats], b.Pos, b.Rot, 1, f.bodyColor(s, v, i))
			f.offs[b.Mesh]++
		}
	}

	// translucent: enabled walls and skin shells, back to front
	eye := cam.Eye()
	if v.ShowWalls {
		for wi := range s.Walls {
			w := &s.Walls[wi]
			if !w.Enabled || w.Body < 0 || w.Body >= len(s.Bodies) || !okMesh(w.Mesh) {
				continue
			}
			b := &s.Bodies[w.Body]
			c := b.Pos.Add(b.Rot.Rotate(meshes[w.Mesh].center))
			f.trans = append(f.trans, transItem{kind: cmdWall, mesh: w.Mesh, body: w.Body, d2: c.Sub(eye).Norm2()})
		}
	}
	if v.ShowSkin && s.SkinGap > 0 {
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if f.walls[i] || !okMesh(b.Mesh) || !b.Pos.IsFinite() {
				continue
			}
			f.trans = append(f.trans, transItem{kind: cmdSkin, mesh: b.Mesh, body: i, d2: b.Pos.Sub(eye).Norm2()})
		}
	}
	sortTrans(f.trans)
	wallA := v.WallAlpha
	for i := range f.trans {
		it := &f.trans[i]
		b := &s.Bodies[it.body]
		col := rgba(SkinColor, 0.16)
		if it.kind == cmdWall {
			col = rgba(WallColor, wallA)
		}
		first := len(f.inst) / instFloats
		f.inst = appendModel(f.inst, b.Pos, b.Rot, 1, col)
		if n := len(f.cmds); n > 0 && f.cmds[n-1].kind == it.kind && f.cmds[n-1].mesh == it.mesh &&
			f.cmds[n-1].first+f.cmds[n-1].count == first {
			f.cmds[n-1].count++
		} else {
			f.cmds = append(f.cmds, drawCmd{kind: it.kind, mesh: it.mesh, first: first, count: 1})
		}
	}

	// disabled walls as outlines
	if v.ShowWalls {
		first := len(f.inst) / instFloats
		for wi := range s.Walls {
			w := &s.Walls[wi]
			if w.Enabled || w.Body < 0 || w.Body >= len(s.Bodies) || !okMesh(w.Mesh) {
				continue
			}
			b := &s.Bodies[w.Body]
			f.inst = appendModel(f.inst, b.Pos, b.Rot, 1, rgba(WallColor, 0.9))
			f.cmds = append(f.cmds, drawCmd{kind: cmdOutline, mesh: w.Mesh, first: first, count: 1})
			first++
		}
	}

	// bounding spheres (always for the selected body)
	{
		first := len(f.inst) / instFloats
		n := 0
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if f.walls[i] || !b.Pos.IsFinite() || !(v.ShowSpheres || i == v.SelectedBody) {
				continue
			}
			col := rgba(SphereColor, 0.8)
			if i == v.SelectedBody {
				col = rgba(SelectedColor, 1)
			}
			f.inst = appendModel(f.inst, b.Pos, geom.QIdent(), bodyRadius(s, b), col)
			n++
		}
		if n > 0 {
			f.cmds = append(f.cmds, drawCmd{kind: cmdSpheres, mesh: -1, first: first, count: n})
		}
	}

	f.buildContacts(s, v)
	if v.SpringActive {
		d := v.SpringTo.Sub(v.SpringFrom)
		if l := d.Norm(); l > 0 {
			f.addArrow(v.SpringFrom, d.Scale(1/l), l, SpringColor)
		}
	}
}

func sortTrans(t transSorter) {
	// shell sort: allocation free, and fast on the nearly sorted order of
	// consecutive frames
	n := len(t)
	gap := 1
	for gap < n/3 {
		gap = 3*gap + 1
	}
	for ; gap > 0; gap /= 3 {
		for i := gap; i < n; i++ {
			x := t[i]
			j := i
			for ; j >= gap && t[j-gap].d2 < x.d2; j -= gap {
				t[j] = t[j-gap]
			}
			t[j] = x
		}
	}
}

// buildContacts fills marker and arrow instances.
func (f *frame) buildContacts(s *snap.Snapshot, v *View) {
	sel := v.SelectedContactIndex(s)
	for i := range s.Contacts {
		c := &s.Contacts[i]
		if !v.ContactVisible(c) || !c.Point.IsFinite() {
			continue
		}
		isSel := i == sel
		if v.ShowContacts || isSel {
			col := SuppressedColor
			if !c.Suppressed && int(c.Kind) < len(KindColors) {
				col = KindColors[c.Kind]
			}
			r, fl := v.MarkerPx, float32(0)
			if isSel {
				r, fl = r*1.8+2, 1
			}
			p := c.Point
			f.markers = append(f.markers, float32(p.X), float32(p.Y), float32(p.Z), col[0], col[1], col[2], 1, r, fl)
			f.nMarkers++
		}
		if c.Suppressed {
			continue
		}
		if v.ShowNormal {
			l := v.ArrowLength(math.Abs(c.Fn))
			dirn := c.Normal
			if c.Fn < 0 {
				dirn = dirn.Neg()
			}
			f.addArrow(c.Point, dirn.Unit(), l, NormalArrowColor)
		}
		if v.ShowFriction {
			ft := c.Ft.Norm()
			if ft > 0 && !math.IsInf(ft, 0) {
				f.addArrow(c.Point, c.Ft.Scale(1/ft), v.ArrowLength(ft), FrictionArrowColor)
			}
		}
	}
}

func (f *frame) addArrow(p, dir geom.Vec3, l float64, col [3]float32) {
	if !(l > 0) || math.IsInf(l, 0) || !dir.IsFinite() || dir.Norm2() == 0 {
		return
	}
	e := p.AddScaled(l, dir)
	f.arrows = append(f.arrows, float32(p.X), float32(p.Y), float32(p.Z),
		float32(e.X), float32(e.Y), float32(e.Z), col[0], col[1], col[2], 1)
	f.nArrows++
}
