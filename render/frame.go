package render

import (
	"cmp"
	"math"
	"slices"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Instance layouts (float32 counts).
const (
	instFloats   = 20 // model matrix (column-major) + colour rgba
	markerFloats = 9  // centre 3, colour 4, radius px, selected flag
	arrowFloats  = 10 // start 3, end 3, colour 4
	sphereFloats = 8  // centre 3, radius 1, colour 4
	chainFloats  = 11 // start 3, end 3, colour 4, width px
)

// Screen-size limits of the contact overlay (pixels).
const (
	minMarkerPx    = 1.5 // a marker smaller than this is not drawn
	markerBodyFrac = 0.3 // a marker's radius is at most this share of the mean body radius on screen
	minArrowPx     = 2.0 // an arrow shorter than this is not drawn
)

type cmdKind uint8

const (
	cmdOpaque cmdKind = iota
	cmdWall
	cmdSkin
	cmdSpheres
	cmdOutline
	cmdXray // the isolated body's edges, drawn through the other bodies
)

// drawCmd is one instanced draw over instances [first, first+count).
type drawCmd struct {
	kind         cmdKind
	mesh         int
	first, count int
}

// opaqueItem is one opaque body, sorted by mesh and distance.
type opaqueItem struct {
	mesh, body int32
	d2         float64
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
	order    []opaqueItem
	trans    transSorter
	markers  []float32
	arrows   []float32
	lo, hi   float64
	nMarkers int
	nArrows  int

	spheres  []float32 // impostor spheres (bodies whose mesh is a sphere)
	nSpheres int
	// sphKey is what spheres was built from; a frame of the same snapshot
	// and colouring (a camera move, a redraw between two snapshots) reuses
	// it, and sphNew tells Draw whether to upload it.
	sphKey sphereKey
	sphNew bool

	// The contact markers and arrows are built in two stages, each kept
	// while what it depends on stays (a redraw, a panel edit elsewhere):
	// items, the visible contacts' markers and arrows before sizing and
	// thinning (the snapshot and the contact settings, conKey); and from
	// them markers and the first nConArrows arrows (sizing, arrow lengths
	// and the per-screen-cell thinning, which with ThinMarkers depend on the
	// camera: thinKey). markNew tells Draw whether to upload the markers.
	items           []contactItem
	conKey          contactKey
	conGen          uint64 // counts the rebuilds of items
	rBody           float64
	thinKey         thinKey
	nConArrows      int
	conNew, markNew bool

	// isolated: the snapshot shows only the selected body's contacts
	// (OnlyBodyContacts): its markers, arrows and edges are drawn through
	// the other bodies (isolatedBody).
	isolated bool

	proj        screenProj
	cells       map[uint64]int32 // marker thinning: screen cell → marker index
	markerDepth []float32        // view depth of each kept marker
	arrowCells  map[arrowCell]int32
	// grid: the thinning's slots of the cells inside the viewport, three per
	// cell (marker, normal arrow, friction arrow; −1: empty), gw cells a
	// row; the maps above hold the cells outside it
	grid                          []int32
	gw                            int
	arrowLen                      []float64        // world length of each kept arrow (thinning)
	pairs                         map[uint64]int32 // force chains: body pair → index in chainF
	chainF                        []chainPair
	chains                        []float32
	nChains                       int
	chainMean, chainMax, chainThr float64
	outline                       []wallStyle // per wall of the snapshot
}

// sphereKey is what the impostor spheres' instance data depends on: the
// snapshot, the meshes, the colouring and the selection, not the camera.
type sphereKey struct {
	s        *snap.Snapshot
	meshes   *meshInfo
	nMeshes  int
	colorBy  ColorBy
	lo, hi   float64
	selected int
}

// contactKey is what frame.items depends on: the snapshot, the contact
// filters and arrow parts shown, and the selected contact.
type contactKey struct {
	s                                                      *snap.Snapshot
	showContacts, showSuppressed, showNormal, showFriction bool
	kinds                                                  [snap.NumContactKinds]bool
	sel                                                    int
}

// thinKey is what the markers and contact arrows depend on besides
// frame.items: its generation, the marker size, the arrow mapping and,
// with ThinMarkers, the camera and viewport (screen cells, pixel sizes).
type thinKey struct {
	gen                  uint64
	thin                 bool
	proj                 screenProj // zero unless thin
	markerPx             float32
	arrowScale, arrowRef float64
	logArrows            bool
}

// contactItem is one visible contact's marker and force arrows before
// sizing and thinning: the marker (when drawn) in colour col, the normal and
// friction arrows (when hasN, hasF) along unit nDir, fDir for the forces fn,
// ft (N), mapped to lengths by View.ArrowLength.
type contactItem struct {
	p, nDir, fDir geom.Vec3
	fn, ft        float64
	col           [3]float32
	marker, sel   bool
	hasN, hasF    bool
}

// arrowCell is a screen cell of the marker thinning and an arrow colour
// (normal, friction): with ThinMarkers the longest arrow of each is drawn.
type arrowCell struct {
	cell     uint64
	friction bool
}

// chainPair is the summed normal force between two bodies.
type chainPair struct {
	a, b int
	fn   float64
}

// screenProj maps world points to pixels for the frame's camera (no GL).
type screenProj struct {
	eye, fwd, right, up geom.Vec3
	t                   float64 // tan(fovY/2)
	w, h                float64
}

func newScreenProj(cam *Camera, w, h int) screenProj {
	f, r, u := cam.Basis()
	return screenProj{eye: cam.Eye(), fwd: f, right: r, up: u, t: math.Tan(cam.FovY / 2), w: float64(w), h: float64(h)}
}

// project returns the pixel (top-left origin), the depth along the view
// direction and the world size of one pixel at p; ok is false behind the eye.
func (p *screenProj) project(q geom.Vec3) (x, y, z, px float64, ok bool) {
	d := q.Sub(p.eye)
	z = d.Dot(p.fwd)
	if !(z > 1e-12) || !(p.h > 0) {
		return 0, 0, 0, 0, false
	}
	nx := d.Dot(p.right) / (z * p.t * p.w / p.h)
	ny := d.Dot(p.up) / (z * p.t)
	return (nx + 1) * p.w / 2, (1 - ny) * p.h / 2, z, 2 * z * p.t / p.h, true
}

// meshInfo is what frame building needs to know about an uploaded mesh.
type meshInfo struct {
	center geom.Vec3
	valid  bool
	sphere bool    // a sphere mesh ("sphere r=…"): drawn as impostors
	radius float64 // its largest vertex norm
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

// build fills instance data and draw commands for s, drawn by cam into a
// w×h viewport.
func (f *frame) build(s *snap.Snapshot, v *View, cam *Camera, meshes []meshInfo, w, h int) {
	f.inst = f.inst[:0]
	f.cmds = f.cmds[:0]
	f.trans = f.trans[:0]
	f.chains = f.chains[:0]
	f.nChains = 0
	f.chainMean, f.chainMax, f.chainThr = 0, 0, 0
	f.proj = newScreenProj(cam, w, h)
	if s == nil {
		f.spheres, f.nSpheres, f.sphKey, f.sphNew = f.spheres[:0], 0, sphereKey{}, true
		f.markers, f.arrows, f.nMarkers, f.nArrows, f.nConArrows = f.markers[:0], f.arrows[:0], 0, 0, 0
		f.items, f.conKey, f.conGen, f.conNew, f.markNew = f.items[:0], contactKey{}, f.conGen+1, true, true
		f.thinKey = thinKey{}
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
	key := sphereKey{s: s, nMeshes: nm, colorBy: v.ColorBy, lo: f.lo, hi: f.hi, selected: v.SelectedBody}
	if nm > 0 {
		key.meshes = &meshes[0]
	}
	if !v.ShowBodies {
		key = sphereKey{}
	}
	keep := key.s != nil && key == f.sphKey // the spheres of the last frame
	f.sphKey, f.sphNew = key, !keep
	if !keep {
		f.spheres, f.nSpheres = f.spheres[:0], 0
	}

	// opaque bodies grouped by mesh, near to far within a mesh so that the
	// depth test rejects hidden fragments before shading them
	if v.ShowBodies {
		eye := cam.Eye()
		f.order = f.order[:0]
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if f.walls[i] || !okMesh(b.Mesh) || !b.Pos.IsFinite() {
				continue
			}
			if meshes[b.Mesh].sphere {
				if keep {
					continue
				}
				c := f.bodyColor(s, v, i)
				f.spheres = append(f.spheres, float32(b.Pos.X), float32(b.Pos.Y), float32(b.Pos.Z),
					float32(meshes[b.Mesh].radius), c[0], c[1], c[2], c[3])
				f.nSpheres++
				continue
			}
			f.order = append(f.order, opaqueItem{mesh: int32(b.Mesh), body: int32(i), d2: b.Pos.Sub(eye).Norm2()})
		}
		slices.SortFunc(f.order, func(a, b opaqueItem) int {
			if a.mesh != b.mesh {
				return int(a.mesh - b.mesh)
			}
			return cmp.Compare(a.d2, b.d2)
		})
		need := len(f.order) * instFloats
		if cap(f.inst) < need {
			f.inst = make([]float32, 0, need*5/4+instFloats)
		}
		for k, it := range f.order {
			b := &s.Bodies[it.body]
			f.inst = appendModel(f.inst, b.Pos, b.Rot, 1, f.bodyColor(s, v, int(it.body)))
			if n := len(f.cmds); n > 0 && f.cmds[n-1].mesh == int(it.mesh) {
				f.cmds[n-1].count++
			} else {
				f.cmds = append(f.cmds, drawCmd{kind: cmdOpaque, mesh: int(it.mesh), first: k, count: 1})
			}
		}
	}

	// translucent: enabled walls and skin shells, back to front
	eye := cam.Eye()
	f.outline = wallOutlines(s, v, f.walls, f.outline)
	if v.ShowWalls {
		for wi := range s.Walls {
			w := &s.Walls[wi]
			if !w.Enabled || f.outline[wi] != wallFilled || w.Body < 0 || w.Body >= len(s.Bodies) || !okMesh(w.Mesh) {
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

	// enabled walls as faint outlines once the bodies are inside them
	// (WallOutline); disabled walls as dimmer outlines while the enabled
	// ones are translucent, and not at all with WallOutline (a removed wall
	// must not be the most visible line of the view)
	if v.ShowWalls {
		first := len(f.inst) / instFloats
		for wi := range s.Walls {
			w := &s.Walls[wi]
			if (w.Enabled && f.outline[wi] != wallOutlined) || (!w.Enabled && v.WallOutline) ||
				w.Body < 0 || w.Body >= len(s.Bodies) || !okMesh(w.Mesh) {
				continue
			}
			b := &s.Bodies[w.Body]
			col := rgba(WallColor, DisabledWallAlpha)
			if w.Enabled {
				col = rgba(WallColor, WallOutlineAlpha)
			}
			f.inst = appendModel(f.inst, b.Pos, b.Rot, 1, col)
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

	f.isolated = isolatedBody(s, v)
	if b := v.SelectedBody; f.isolated && okMesh(s.Bodies[b].Mesh) && s.Bodies[b].Pos.IsFinite() {
		bd := &s.Bodies[b]
		first := len(f.inst) / instFloats
		f.inst = appendModel(f.inst, bd.Pos, bd.Rot, 1, rgba(SelectedColor, 1))
		f.cmds = append(f.cmds, drawCmd{kind: cmdXray, mesh: bd.Mesh, first: first, count: 1})
	}
	f.buildContacts(s, v)
	if v.ShowChains {
		f.buildChains(s, v)
	}
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

// meanBodyRadius is the mean bounding radius of the non-wall bodies (0 without).
func meanBodyRadius(s *snap.Snapshot, walls []bool) float64 {
	var sum float64
	n := 0
	for i := range s.Bodies {
		if !walls[i] && s.Bodies[i].Radius > 0 && !math.IsInf(s.Bodies[i].Radius, 0) {
			sum += s.Bodies[i].Radius
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// markerPx is the drawn radius (px) of a marker at a point where one pixel is
// pxWorld long: MarkerPx, at most markerBodyFrac of the mean body radius rBody
// on screen when thinning; 0 when it would be smaller than minMarkerPx.
func markerPx(v *View, rBody, pxWorld float64) float32 {
	r := v.MarkerPx
	if !v.ThinMarkers {
		return r
	}
	if rBody > 0 && pxWorld > 0 {
		r = min(r, float32(markerBodyFrac*rBody/pxWorld))
	}
	if r < minMarkerPx {
		return 0
	}
	return r
}

// buildContacts fills marker and arrow instances. With ThinMarkers a marker
// is sized by markerPx and at most one (the nearest) is kept per screen cell
// of 2·MarkerPx; arrows shorter than minArrowPx on screen are left out, and
// of the arrows starting in one cell only the longest normal and the
// longest friction arrow are kept (a settled box of 10⁵ spheres has 3·10⁵
// contacts and ≈ 2·10³ cells: the arrows cost what the markers cost).
// Both stages are kept while their keys stay (frame.items): a frame of the
// same snapshot and settings rebuilds nothing, a camera move with
// ThinMarkers only the sizing and thinning from the cached items.
func (f *frame) buildContacts(s *snap.Snapshot, v *View) {
	ck := contactKey{s: s, showContacts: v.ShowContacts, showSuppressed: v.ShowSuppressed,
		showNormal: v.ShowNormal, showFriction: v.ShowFriction, kinds: v.KindFilter, sel: v.SelectedContactIndex(s)}
	f.conNew = ck != f.conKey
	if f.conNew {
		f.conKey = ck
		f.conGen++
		f.buildItems(s, v, ck.sel)
	}
	thin := v.ThinMarkers && f.proj.h > 0
	tk := thinKey{gen: f.conGen, thin: thin, markerPx: v.MarkerPx,
		arrowScale: v.ArrowScale, arrowRef: v.ArrowRef, logArrows: v.LogArrows}
	if thin {
		tk.proj = f.proj
	}
	f.markNew = tk != f.thinKey
	if !f.markNew {
		// the markers and contact arrows of the last frame; drop what
		// was appended after them (the spring)
		f.arrows, f.nArrows = f.arrows[:f.nConArrows*arrowFloats], f.nConArrows
		return
	}
	f.thinKey = tk
	f.thinItems(v, thin)
	f.nConArrows = f.nArrows
}

// buildItems fills f.items from the visible contacts of s (sel: the
// selected one, −1 for none) and f.rBody, the mean body radius.
func (f *frame) buildItems(s *snap.Snapshot, v *View, sel int) {
	f.items = f.items[:0]
	f.rBody = meanBodyRadius(s, f.walls)
	for i := range s.Contacts {
		c := &s.Contacts[i]
		if !v.ContactVisible(c) || !c.Point.IsFinite() {
			continue
		}
		it := contactItem{p: c.Point, sel: i == sel}
		if v.ShowContacts || it.sel {
			it.marker = true
			it.col = SuppressedColor
			if !c.Suppressed && int(c.Kind) < len(KindColors) {
				it.col = KindColors[c.Kind]
			}
		}
		if !c.Suppressed {
			// The arrows show the force on A (Fn along the normal from B
			// to A, Ft: snap.Contact), or on B (the reaction, −force) when
			// A is fixed or a wall and B is free: the force on the free
			// body, which a resting body's arrow pointing up from the
			// ground shows.
			sign := 1.0
			if f.onFixed(s, c.A) && !f.onFixed(s, c.B) {
				sign = -1
			}
			if v.ShowNormal {
				dirn := c.Normal.Scale(sign)
				if c.Fn < 0 {
					dirn = dirn.Neg()
				}
				it.hasN, it.fn, it.nDir = true, math.Abs(c.Fn), dirn.Unit()
			}
			if v.ShowFriction {
				if ft := c.Ft.Norm(); ft > 0 && !math.IsInf(ft, 0) {
					it.hasF, it.ft, it.fDir = true, ft, c.Ft.Scale(sign/ft)
				}
			}
		}
		if it.marker || it.hasN || it.hasF {
			f.items = append(f.items, it)
		}
	}
}

// thinItems fills the markers and arrows from f.items: sizes, arrow lengths
// and, when thin, the per-screen-cell thinning of buildContacts.
func (f *frame) thinItems(v *View, thin bool) {
	f.markers, f.arrows = f.markers[:0], f.arrows[:0]
	f.nMarkers, f.nArrows = 0, 0
	var cell float64
	if thin {
		cell = math.Max(2*float64(v.MarkerPx), 2)
		if f.cells == nil {
			f.cells = make(map[uint64]int32)
			f.arrowCells = make(map[arrowCell]int32)
		}
		clear(f.cells)
		clear(f.arrowCells)
		f.arrowLen = f.arrowLen[:0]
		f.gw = int(f.proj.w/cell) + 1
		n := 3 * f.gw * (int(f.proj.h/cell) + 1)
		if cap(f.grid) < n {
			f.grid = make([]int32, n)
		}
		f.grid = f.grid[:n]
		for i := range f.grid {
			f.grid[i] = -1
		}
	}
	gh := len(f.grid) / 3 / max(f.gw, 1)
	for i := range f.items {
		it := &f.items[i]
		p := it.p
		pxWorld := 0.0
		var sx, sy, sz float64
		var key uint64
		d := -1 // the cell's slots in f.grid, −1: in the maps
		onScreen := false
		if thin {
			sx, sy, sz, pxWorld, onScreen = f.proj.project(p)
			cx, cy := int32(math.Floor(sx/cell)), int32(math.Floor(sy/cell))
			key = uint64(uint32(cx))<<32 | uint64(uint32(cy))
			if d = -1; cx >= 0 && cy >= 0 && int(cx) < f.gw && int(cy) < gh {
				d = 3 * (int(cy)*f.gw + int(cx))
			}
		}
		if it.marker {
			col := it.col
			r, fl := v.MarkerPx, float32(0)
			switch {
			case it.sel:
				r, fl = r*1.8+2, 1
			case thin && !onScreen:
				r = 0
			case thin:
				r = markerPx(v, f.rBody, pxWorld)
			}
			if r > 0 {
				m := [markerFloats]float32{float32(p.X), float32(p.Y), float32(p.Z), col[0], col[1], col[2], 1, r, fl}
				keep := true
				if thin && !it.sel {
					k, ok := int32(-1), false
					if d >= 0 {
						k = f.grid[d]
						ok = k >= 0
					} else {
						k, ok = f.cells[key]
					}
					switch {
					case ok:
						keep = false
						if o := int(k) * markerFloats; float32(sz) < f.markerDepth[k] {
							copy(f.markers[o:o+markerFloats], m[:markerFloats])
							f.markerDepth[k] = float32(sz)
						}
					case d >= 0:
						f.grid[d] = int32(f.nMarkers)
					default:
						f.cells[key] = int32(f.nMarkers)
					}
				}
				if keep {
					f.markers = append(f.markers, m[:markerFloats]...)
					f.markerDepth = append(f.markerDepth[:f.nMarkers], float32(sz))
					f.nMarkers++
				}
			}
		}
		minLen := 0.0
		if thin {
			minLen = minArrowPx * pxWorld
			if !onScreen {
				minLen = math.Inf(1)
			}
		}
		if it.hasN {
			if l := v.ArrowLength(it.fn); l >= minLen {
				f.addThinArrow(thin && !it.sel, arrowCell{key, false}, d, p, it.nDir, l, NormalArrowColor)
			}
		}
		if it.hasF {
			if l := v.ArrowLength(it.ft); l >= minLen {
				f.addThinArrow(thin && !it.sel, arrowCell{key, true}, d, p, it.fDir, l, FrictionArrowColor)
			}
		}
	}
}

// isolatedBody reports whether s shows only the selected body's contacts
// ("show only this body's contacts", OnlyBodyContacts): a body is selected
// and every contact of s is one of its (at least one, or the statistics
// count contacts s no longer lists).
func isolatedBody(s *snap.Snapshot, v *View) bool {
	b := v.SelectedBody
	if b < 0 || b >= len(s.Bodies) || (len(s.Contacts) == 0 && s.Stats.Contacts == 0) {
		return false
	}
	for i := range s.Contacts {
		if c := &s.Contacts[i]; c.A != b && c.B != b {
			return false
		}
	}
	return true
}

// onFixed reports whether body i of s is fixed or a wall (an index out of
// range counts as neither).
func (f *frame) onFixed(s *snap.Snapshot, i int) bool {
	return i >= 0 && i < len(s.Bodies) && (s.Bodies[i].Fixed || (i < len(f.walls) && f.walls[i]))
}

// buildChains fills the force-chain instances: one line per pair of
// contacting non-wall bodies whose summed normal force exceeds the threshold
// (ChainThreshold, or the mean pair force when ≤ 0), between the bodies'
// centres, its width and colour growing with the force (ChainColor).
func (f *frame) buildChains(s *snap.Snapshot, v *View) {
	if f.pairs == nil {
		f.pairs = make(map[uint64]int32)
	}
	clear(f.pairs)
	f.chainF = f.chainF[:0]
	nb := len(s.Bodies)
	for i := range s.Contacts {
		c := &s.Contacts[i]
		a, b := c.A, c.B
		if c.Suppressed || a == b || a < 0 || b < 0 || a >= nb || b >= nb || f.walls[a] || f.walls[b] ||
			math.IsNaN(c.Fn) || math.IsInf(c.Fn, 0) {
			continue
		}
		if a > b {
			a, b = b, a
		}
		key := uint64(a)<<32 | uint64(uint32(b))
		if k, ok := f.pairs[key]; ok {
			f.chainF[k].fn += c.Fn
			continue
		}
		f.pairs[key] = int32(len(f.chainF))
		f.chainF = append(f.chainF, chainPair{a: a, b: b, fn: c.Fn})
	}
	var sum float64
	for i := range f.chainF {
		fn := math.Max(f.chainF[i].fn, 0)
		f.chainF[i].fn = fn
		sum += fn
		f.chainMax = math.Max(f.chainMax, fn)
	}
	if len(f.chainF) == 0 || !(f.chainMax > 0) {
		return
	}
	f.chainMean = sum / float64(len(f.chainF))
	f.chainThr = v.ChainThreshold
	if !(f.chainThr > 0) {
		f.chainThr = f.chainMean
	}
	wmax := float64(max(v.ChainWidthPx, 1))
	for i := range f.chainF {
		cp := &f.chainF[i]
		if !(cp.fn > f.chainThr) {
			continue
		}
		pa, pb := s.Bodies[cp.a].Pos, s.Bodies[cp.b].Pos
		if !pa.IsFinite() || !pb.IsFinite() {
			continue
		}
		t := cp.fn / f.chainMax
		col := ChainColor(t)
		f.chains = append(f.chains, float32(pa.X), float32(pa.Y), float32(pa.Z),
			float32(pb.X), float32(pb.Y), float32(pb.Z), col[0], col[1], col[2], 1,
			float32(math.Max(1.5, wmax*t)))
		f.nChains++
	}
}

// wallStyle is how an enabled wall is drawn.
type wallStyle uint8

const (
	wallFilled   wallStyle = iota // translucent faces
	wallOutlined                  // faint edges
	wallHidden                    // not drawn
)

// wallOutlines returns, in buf (grown as needed), how the enabled walls of s
// are drawn with View.WallOutline: as faint outlines when they enclose the
// bodies (the bodies' centroid lies in the box of those walls); walls more
// than ten times the bodies' extent, like a ground plane, not at all while the
// grid shows the ground; otherwise translucent.
func wallOutlines(s *snap.Snapshot, v *View, walls []bool, buf []wallStyle) []wallStyle {
	n := len(s.Walls)
	if cap(buf) < n {
		buf = make([]wallStyle, n)
	}
	buf = buf[:n]
	clear(buf)
	if !v.WallOutline {
		return buf
	}
	var c geom.Vec3
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	nb := 0
	for i := range s.Bodies {
		if walls[i] || !s.Bodies[i].Pos.IsFinite() {
			continue
		}
		p := s.Bodies[i].Pos
		c = c.Add(p)
		r := bodyRadius(s, &s.Bodies[i])
		e := geom.Vec3{X: r, Y: r, Z: r}
		lo, hi = lo.Min(p.Sub(e)), hi.Max(p.Add(e))
		nb++
	}
	if nb == 0 {
		return buf
	}
	c = c.Scale(1 / float64(nb))
	limit := 10 * math.Max(hi.Sub(lo).Norm(), 1e-3)
	wlo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	whi := wlo.Neg()
	m := 0
	for i := range s.Walls {
		w := &s.Walls[i]
		if !w.Enabled || w.Body < 0 || w.Body >= len(s.Bodies) || w.Mesh < 0 || w.Mesh >= len(s.Meshes) {
			continue
		}
		l, h, ok := worldAABB(&s.Meshes[w.Mesh], &s.Bodies[w.Body])
		if !ok {
			continue
		}
		if h.Sub(l).Norm() > limit {
			if v.ShowGrid {
				buf[i] = wallHidden
			}
			continue
		}
		wlo, whi = wlo.Min(l), whi.Max(h)
		m++
	}
	inside := m > 0 && c.X >= wlo.X && c.X <= whi.X && c.Y >= wlo.Y && c.Y <= whi.Y && c.Z >= wlo.Z && c.Z <= whi.Z
	if !inside {
		return buf
	}
	for i := range s.Walls {
		w := &s.Walls[i]
		if buf[i] == wallFilled && w.Enabled && w.Body >= 0 && w.Body < len(s.Bodies) && w.Mesh >= 0 && w.Mesh < len(s.Meshes) {
			buf[i] = wallOutlined
		}
	}
	return buf
}

func (f *frame) addArrow(p, dir geom.Vec3, l float64, col [3]float32) {
	if !(l > 0) || math.IsInf(l, 0) || !dir.IsFinite() || dir.Norm2() == 0 {
		return
	}
	e := p.AddScaled(l, dir)
	f.arrows = append(f.arrows, float32(p.X), float32(p.Y), float32(p.Z),
		float32(e.X), float32(e.Y), float32(e.Z), col[0], col[1], col[2], 1)
	f.nArrows++
	if len(f.arrowLen) < f.nArrows {
		f.arrowLen = append(f.arrowLen, 0)
	}
	f.arrowLen[f.nArrows-1] = l
}

// addThinArrow is addArrow, keeping (when thin) only the longest arrow of
// cell c (its slots in f.grid from d, or in f.arrowCells when d < 0): a
// longer one replaces the cell's arrow, a shorter one is dropped.
func (f *frame) addThinArrow(thin bool, c arrowCell, d int, p, dir geom.Vec3, l float64, col [3]float32) {
	if !thin {
		f.addArrow(p, dir, l, col)
		return
	}
	if !(l > 0) || math.IsInf(l, 0) || !dir.IsFinite() || dir.Norm2() == 0 {
		return
	}
	k, ok := int32(-1), false
	if d >= 0 {
		if c.friction {
			d += 2
		} else {
			d++
		}
		k = f.grid[d]
		ok = k >= 0
	} else {
		k, ok = f.arrowCells[c]
	}
	if !ok {
		if d >= 0 {
			f.grid[d] = int32(f.nArrows)
		} else {
			f.arrowCells[c] = int32(f.nArrows)
		}
		f.addArrow(p, dir, l, col)
		return
	}
	if l <= f.arrowLen[k] {
		return
	}
	e := p.AddScaled(l, dir)
	o := int(k) * arrowFloats
	copy(f.arrows[o:o+arrowFloats], []float32{float32(p.X), float32(p.Y), float32(p.Z),
		float32(e.X), float32(e.Y), float32(e.Z), col[0], col[1], col[2], 1})
	f.arrowLen[k] = l
}
