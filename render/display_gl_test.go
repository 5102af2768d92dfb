package render_test

import (
	"image"
	"math"
	"testing"

	"grainlab/render"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

// chainScene: three cubes in a row on the ground; cubes 0–1 press hard on
// each other (two contacts, 30 N + 30 N), cubes 1–2 lightly (2 N), so with the
// default threshold (the mean pair force, 31 N) only the 0–1 chain is drawn.
func chainScene() *snap.Snapshot {
	s := &snap.Snapshot{Scene: "chains"}
	s.Meshes = []snap.Mesh{render.CubeMesh("cube", 0.2), render.PlaneMesh("ground", 6, 6)}
	r := 0.1 * math.Sqrt(3)
	s.Bodies = []snap.Body{
		{Mesh: 0, Pos: geom.V(-0.6, 0, 0.1), Rot: geom.QIdent(), Radius: r},
		{Mesh: 0, Pos: geom.V(0, 0, 0.1), Rot: geom.QIdent(), Radius: r},
		{Mesh: 0, Pos: geom.V(0.6, 0, 0.1), Rot: geom.QIdent(), Radius: r},
		{Mesh: 1, Rot: geom.QIdent(), Fixed: true, Name: "ground"},
	}
	s.Walls = []snap.Wall{{Name: "ground", Body: 3, Enabled: true, Mesh: 1}}
	x := geom.V(1, 0, 0)
	s.Contacts = []snap.Contact{
		{A: 1, B: 0, Kind: snap.VF, Point: geom.V(-0.3, 0, 0.15), Normal: x, Fn: 30},
		{A: 1, B: 0, Kind: snap.VF, Point: geom.V(-0.3, 0, 0.05), Normal: x, Fn: 30},
		{A: 2, B: 1, Kind: snap.VF, Point: geom.V(0.3, 0, 0.1), Normal: x, Fn: 2},
		{A: 0, B: 3, Kind: snap.VF, Point: geom.V(-0.6, 0, 0), Normal: geom.V(0, 0, 1), Fn: 500}, // wall: no chain
	}
	return s
}

// TestForceChainPixels: pixels of the strongest chain's colour lie on the
// screen segment between the two loaded cubes' centres with chains on, none
// with chains off; the lightly loaded pair below the mean gets no chain.
func TestForceChainPixels(t *testing.T) {
	const W, H = 480, 320
	var on, off *image.RGBA
	var st render.FrameStats
	cam := render.NewCamera()
	var fbw, fbh int
	withRenderer(t, W, H, func(r *render.Renderer, fw, fh int) {
		fbw, fbh = fw, fh
		s := chainScene()
		v := render.DefaultView()
		v.ShowGrid, v.ShowAxes, v.ShowContacts, v.ShowNormal, v.ShowFriction = false, false, false, false, false
		cam.Yaw, cam.Pitch = -math.Pi/2, 0.5 // looking along +y, slightly from above
		cam.Aspect = float64(fbw) / float64(fbh)
		cam.FitSphere(geom.V(0, 0, 0.1), 0.8)
		v.ShowChains = true
		r.Draw(s, &v, cam, fbw, fbh)
		on = render.Screenshot(fbw, fbh)
		st = r.Stats()
		v.ShowChains = false
		r.Draw(s, &v, cam, fbw, fbh)
		off = render.Screenshot(fbw, fbh)
		if err := glErr("chains"); err != nil {
			t.Error(err)
		}
	})
	if on == nil {
		return
	}
	savePNG(t, shotDir(t), "chains.png", on)
	if st.Chains != 1 || math.Abs(st.ChainMean-31) > 1e-9 || st.ChainMax != 60 {
		t.Fatalf("chains %d mean %g max %g, want 1, 31, 60", st.Chains, st.ChainMean, st.ChainMax)
	}
	band := func(a, b geom.Vec3) rect {
		x0, y0, _ := cam.Project(a, fbw, fbh)
		x1, y1, _ := cam.Project(b, fbw, fbh)
		return rect{int(math.Min(x0, x1)) + 4, int(math.Min(y0, y1)) - 4, int(math.Max(x0, x1)) - 4, int(math.Max(y0, y1)) + 5}
	}
	strong := band(geom.V(-0.6, 0, 0.1), geom.V(0, 0, 0.1))
	weak := band(geom.V(0, 0, 0.1), geom.V(0.6, 0, 0.1))
	col := render.ChainColor(1)
	nOn, nOff := countColor(on, strong, col, 3), countColor(off, strong, col, 3)
	nWeak := countColor(on, weak, col, 40)
	wantLen := strong.x1 - strong.x0
	t.Logf("chain-colour pixels between the loaded cubes: %d on, %d off (segment %d px); weak pair %d", nOn, nOff, wantLen, nWeak)
	// the strongest chain is ChainWidthPx = 6 px wide: at least 4 px per column along the segment
	if nOn < 4*wantLen || nOff != 0 || nWeak != 0 {
		t.Fatalf("chain pixels on %d (want ≥ %d), off %d, weak pair %d (want 0)", nOn, 4*wantLen, nOff, nWeak)
	}
}

// TestImpostorSphere: a sphere body is one impostor (no mesh draw) whose
// pixels cover the disc of its projected silhouette within 3 %.
func TestImpostorSphere(t *testing.T) {
	const W, H = 480, 320
	var with, without *image.RGBA
	var st render.FrameStats
	cam := render.NewCamera()
	var fbw, fbh int
	const R = 0.5
	c := geom.V(0.1, -0.2, 0.6)
	withRenderer(t, W, H, func(r *render.Renderer, fw, fh int) {
		fbw, fbh = fw, fh
		bv, bt := sq.Sphere(R).Mesh(24, 12)
		s := &snap.Snapshot{Scene: "sphere", Meshes: []snap.Mesh{{Name: "sphere r=0.5", Verts: bv, Tris: bt}},
			Bodies: []snap.Body{{Mesh: 0, Pos: c, Rot: geom.QIdent(), Radius: R}}}
		v := render.DefaultView()
		v.ShowGrid, v.ShowAxes = false, false
		cam.Aspect = float64(fbw) / float64(fbh)
		cam.FitSphere(c, 1.5)
		r.Draw(s, &v, cam, fbw, fbh)
		with = render.Screenshot(fbw, fbh)
		st = r.Stats()
		v.ShowBodies = false
		r.Draw(s, &v, cam, fbw, fbh)
		without = render.Screenshot(fbw, fbh)
		if err := glErr("impostor"); err != nil {
			t.Error(err)
		}
	})
	if with == nil {
		return
	}
	savePNG(t, shotDir(t), "impostor.png", with)
	if st.Spheres != 1 || st.Instances != 0 {
		t.Fatalf("spheres %d mesh instances %d, want 1 impostor and no mesh", st.Spheres, st.Instances)
	}
	// silhouette: a cone of half angle asin(R/L) from the eye, centred on the view axis here
	L := cam.Dist
	rpx := math.Tan(math.Asin(R/L)) / math.Tan(cam.FovY/2) * float64(fbh) / 2
	want := math.Pi * rpx * rpx
	got := countDiff(with, without, rect{0, 0, fbw, fbh}, 2)
	t.Logf("sphere pixels %d, silhouette disc %.0f (radius %.1f px)", got, want, rpx)
	if math.Abs(float64(got)-want) > 0.03*want {
		t.Fatalf("sphere covers %d px, want %.0f within 3 %%", got, want)
	}
}

// wallShots draws s with bodies, grid and axes off three times: walls as
// outlines (the default), translucent (WallOutline off), and no walls.
func wallShots(r *render.Renderer, s *snap.Snapshot, cam *render.Camera, fbw, fbh int) (outline, filled, bare *image.RGBA) {
	v := render.DefaultView()
	v.ShowGrid, v.ShowAxes, v.ShowBodies = false, false, false
	r.Draw(s, &v, cam, fbw, fbh)
	outline = render.Screenshot(fbw, fbh)
	v.WallOutline = false
	r.Draw(s, &v, cam, fbw, fbh)
	filled = render.Screenshot(fbw, fbh)
	v.ShowWalls = false
	r.Draw(s, &v, cam, fbw, fbh)
	bare = render.Screenshot(fbw, fbh)
	return outline, filled, bare
}

// TestWallOutlines: a box of walls around a body is drawn as outlines, so
// the pixels inside the box's screen rectangle stay the background (bar the
// thin edges); drawn translucent (WallOutline off) they do not.
func TestWallOutlines(t *testing.T) {
	const W, H = 480, 320
	var outline, filled, bare *image.RGBA
	cam := render.NewCamera()
	var fbw, fbh int
	withRenderer(t, W, H, func(r *render.Renderer, fw, fh int) {
		fbw, fbh = fw, fh
		s := &snap.Snapshot{Scene: "box"}
		s.Meshes = []snap.Mesh{render.CubeMesh("cube", 0.1), render.CubeMesh("box", 1)}
		s.Bodies = []snap.Body{
			{Mesh: 0, Pos: geom.V(0, 0, 0.5), Rot: geom.QIdent(), Radius: 0.087},
			{Mesh: 1, Pos: geom.V(0, 0, 0.5), Rot: geom.QIdent(), Fixed: true, Name: "box"},
		}
		s.Walls = []snap.Wall{{Name: "box", Body: 1, Enabled: true, Mesh: 1}}
		cam.Aspect = float64(fbw) / float64(fbh)
		cam.FitSphere(geom.V(0, 0, 0.5), 0.9)
		outline, filled, bare = wallShots(r, s, cam, fbw, fbh)
	})
	if outline == nil {
		return
	}
	savePNG(t, shotDir(t), "wall-outline.png", outline)
	// the middle third of the box's screen extent
	x, y, _ := cam.Project(geom.V(0, 0, 0.5), fbw, fbh)
	d := float64(fbh) / 8
	in := rect{int(x - d), int(y - d), int(x + d), int(y + d)}
	n := (in.x1 - in.x0) * (in.y1 - in.y0)
	dOut, dFill := countDiff(outline, bare, in, 2), countDiff(filled, bare, in, 2)
	t.Logf("interior pixels differing from the background: outlines %d, translucent %d of %d", dOut, dFill, n)
	if dOut > n/20 || dFill < n/2 {
		t.Fatalf("outlines change %d of %d interior pixels (want ≤ 5 %%), translucent %d (want ≥ 50 %%)", dOut, n, dFill)
	}
}

// TestDisabledWallsDim: a disabled wall is never drawn brighter than an
// enabled one. With wall outlines on (the default) it is not drawn at all:
// no pixel of its screen box differs from the bare background (tolerance
// 2/255); with them off its outline's largest pixel difference from the
// background is below the enabled translucent wall's.
func TestDisabledWallsDim(t *testing.T) {
	const W, H = 480, 320
	var imgs [3]*image.RGBA // outlines on, off, no walls
	cam := render.NewCamera()
	var fbw, fbh int
	withRenderer(t, W, H, func(r *render.Renderer, fw, fh int) {
		fbw, fbh = fw, fh
		s := &snap.Snapshot{Scene: "boxes"}
		s.Meshes = []snap.Mesh{render.CubeMesh("cube", 0.1), render.CubeMesh("box", 1)}
		s.Bodies = []snap.Body{
			{Mesh: 0, Pos: geom.V(0, 0, 0.5), Rot: geom.QIdent(), Radius: 0.087},
			{Mesh: 1, Pos: geom.V(0, 0, 0.5), Rot: geom.QIdent(), Fixed: true, Name: "box"},
			{Mesh: 1, Pos: geom.V(1.6, 0, 0.5), Rot: geom.QIdent(), Fixed: true, Name: "gone"},
		}
		s.Walls = []snap.Wall{{Name: "box", Body: 1, Enabled: true, Mesh: 1}, {Name: "gone", Body: 2, Enabled: false, Mesh: 1}}
		cam.Aspect = float64(fbw) / float64(fbh)
		cam.FitSphere(geom.V(0.8, 0, 0.5), 1.9)
		imgs[0], imgs[1], imgs[2] = wallShots(r, s, cam, fbw, fbh)
	})
	if imgs[0] == nil {
		return
	}
	savePNG(t, shotDir(t), "disabled-wall.png", imgs[1])
	box := func(c geom.Vec3) rect { // the screen box of a unit cube at c
		r := rect{fbw, fbh, 0, 0}
		for i := 0; i < 8; i++ {
			p := c.Add(geom.V(float64(i&1)-0.5, float64(i>>1&1)-0.5, float64(i>>2&1)-0.5))
			x, y, _ := cam.Project(p, fbw, fbh)
			r.x0, r.y0 = min(r.x0, int(x)-2), min(r.y0, int(y)-2)
			r.x1, r.y1 = max(r.x1, int(x)+3), max(r.y1, int(y)+3)
		}
		r.x0, r.y0, r.x1, r.y1 = max(r.x0, 0), max(r.y0, 0), min(r.x1, fbw), min(r.y1, fbh)
		return r
	}
	maxDiff := func(a, b *image.RGBA, r rect) int {
		m := 0
		for y := r.y0; y < r.y1; y++ {
			for x := r.x0; x < r.x1; x++ {
				o := a.PixOffset(x, y)
				for k := 0; k < 3; k++ {
					m = max(m, abs(int(a.Pix[o+k])-int(b.Pix[o+k])))
				}
			}
		}
		return m
	}
	on, gone := box(geom.V(0, 0, 0.5)), box(geom.V(1.6, 0, 0.5))
	// the part of the disabled wall's box not covered by the enabled one's
	gone.x0 = max(gone.x0, on.x1)
	nOn, nGone := countDiff(imgs[0], imgs[2], on, 2), countDiff(imgs[0], imgs[2], gone, 2)
	dOn, dGone := maxDiff(imgs[1], imgs[2], on), maxDiff(imgs[1], imgs[2], gone)
	t.Logf("outlines on: %d pixels of the enabled wall, %d of the disabled one; outlines off: largest difference %d enabled, %d disabled",
		nOn, nGone, dOn, dGone)
	if nOn == 0 || nGone != 0 {
		t.Errorf("outlines on: %d enabled-wall pixels (want > 0), %d disabled-wall pixels (want 0)", nOn, nGone)
	}
	if dGone == 0 || dGone >= dOn {
		t.Errorf("outlines off: disabled wall's largest difference %d, want > 0 and below the enabled wall's %d", dGone, dOn)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestIsolatedBuriedBody: "show only this body's contacts" on a body buried
// in the pile (here: a small cube inside a large one) draws its contact
// markers through the bodies in front (≥ 20 pixels of the VF marker colour
// around its contact's screen point, with hidden alpha 0, where none show
// when the snapshot is not isolated) and outlines it in the selection
// colour over the large cube.
func TestIsolatedBuriedBody(t *testing.T) {
	const W, H = 480, 320
	var iso, full *image.RGBA
	cam := render.NewCamera()
	var fbw, fbh int
	p := geom.V(0.05, 0, 0.5) // the contact between the two small cubes
	s := &snap.Snapshot{Scene: "buried"}
	s.Meshes = []snap.Mesh{render.CubeMesh("small", 0.1), render.CubeMesh("big", 0.8)}
	s.Bodies = []snap.Body{
		{Mesh: 0, Pos: geom.V(0, 0, 0.5), Rot: geom.QIdent(), Radius: 0.087, Name: "buried"},
		{Mesh: 0, Pos: geom.V(0.1, 0, 0.5), Rot: geom.QIdent(), Radius: 0.087, Name: "neighbour"},
		{Mesh: 1, Pos: geom.V(0, 0, 0.5), Rot: geom.QIdent(), Radius: 0.69, Name: "pile"},
		{Mesh: 1, Pos: geom.V(2, 0, 0.5), Rot: geom.QIdent(), Radius: 0.69, Name: "other"},
	}
	s.Contacts = []snap.Contact{
		{A: 1, B: 0, Kind: snap.VF, Point: p, Normal: geom.V(1, 0, 0), Fn: 1},
		{A: 3, B: 2, Kind: snap.VF, Point: geom.V(1.6, 0, 0.5), Normal: geom.V(1, 0, 0), Fn: 1},
	}
	s.Stats.Contacts = 2
	withRenderer(t, W, H, func(r *render.Renderer, fw, fh int) {
		fbw, fbh = fw, fh
		v := render.DefaultView()
		v.ShowGrid, v.ShowAxes, v.ShowNormal, v.ShowFriction = false, false, false, false
		v.OccludedAlpha, v.SelectedBody = 0, 0
		cam.Aspect = float64(fbw) / float64(fbh)
		cam.FitSphere(geom.V(0, 0, 0.5), 0.8)
		r.Draw(s, &v, cam, fbw, fbh)
		full = render.Screenshot(fbw, fbh)
		r.Draw(render.OnlyBodyContacts(s, 0), &v, cam, fbw, fbh)
		iso = render.Screenshot(fbw, fbh)
	})
	if iso == nil {
		return
	}
	savePNG(t, shotDir(t), "isolated-buried.png", iso)
	x, y, _ := cam.Project(p, fbw, fbh)
	at := rect{int(x) - 12, int(y) - 12, int(x) + 13, int(y) + 13}
	nIso, nFull := countColor(iso, at, render.KindColors[snap.VF], 10), countColor(full, at, render.KindColors[snap.VF], 10)
	// the small cube's outline: selection-coloured pixels within its screen box
	b := rect{int(x) - 60, int(y) - 60, int(x) + 60, int(y) + 60}
	oIso, oFull := countColor(iso, b, render.SelectedColor, 20), countColor(full, b, render.SelectedColor, 20)
	t.Logf("marker pixels at the buried contact: %d isolated, %d not; selection-coloured pixels: %d isolated, %d not", nIso, nFull, oIso, oFull)
	if nFull != 0 {
		t.Errorf("not isolated: %d marker pixels of a hidden contact (hidden alpha 0), want 0", nFull)
	}
	if nIso < 20 {
		t.Errorf("isolated buried body: %d marker pixels at its contact, want ≥ 20", nIso)
	}
	if oIso < oFull+20 {
		t.Errorf("isolated buried body: %d selection-coloured pixels (%d not isolated), want its outline over the pile", oIso, oFull)
	}
}
