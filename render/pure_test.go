package render

import (
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

func TestBuildMeshCube(t *testing.T) {
	m := CubeMesh("c", 2)
	c := buildMesh(&m)
	if !c.closed || c.flipped {
		t.Fatalf("closed=%v flipped=%v, want closed, not flipped", c.closed, c.flipped)
	}
	if got := len(c.tri) / meshVertFloats; got != 36 {
		t.Fatalf("soup vertices %d, want 36", got)
	}
	if got := len(c.lineIdx) / 2; got != 12 {
		t.Fatalf("feature edges %d, want 12 (diagonals are not features)", got)
	}
	// flat normals point away from the centre, skin offsets hit the corner (1,1,1)
	for i := 0; i < len(c.tri); i += meshVertFloats {
		p := geom.Vec3{X: float64(c.tri[i]), Y: float64(c.tri[i+1]), Z: float64(c.tri[i+2])}
		n := geom.Vec3{X: float64(c.tri[i+3]), Y: float64(c.tri[i+4]), Z: float64(c.tri[i+5])}
		s := geom.Vec3{X: float64(c.tri[i+6]), Y: float64(c.tri[i+7]), Z: float64(c.tri[i+8])}
		if n.Dot(p) <= 0 {
			t.Fatalf("normal %v not outward at %v", n, p)
		}
		if s.Sub(p).Norm() > 1e-6 { // unit cube corner: mitred offset = corner direction (±1,±1,±1)
			t.Fatalf("skin dir %v at %v", s, p)
		}
	}
}

func TestBuildMeshHidesDiagonals(t *testing.T) {
	m := CubeMesh("c", 2)
	c := buildMesh(&m)
	stride := 3 * meshVertFloats
	for i := 0; i < len(c.tri); i += stride {
		hidden := 0 // edges whose bary component is 1 at all three corners
		for k := 0; k < 3; k++ {
			all := true
			for j := 0; j < 3; j++ {
				if c.tri[i+j*meshVertFloats+9+k] != 1 {
					all = false
				}
			}
			if all {
				hidden++
			}
		}
		if hidden != 1 {
			t.Fatalf("triangle %d: %d hidden edges, want the diagonal only", i/stride, hidden)
		}
	}
}

func TestBuildMeshFlipsInwardWinding(t *testing.T) {
	m := CubeMesh("c", 1)
	for i := range m.Tris {
		m.Tris[i][1], m.Tris[i][2] = m.Tris[i][2], m.Tris[i][1]
	}
	c := buildMesh(&m)
	if !c.closed || !c.flipped {
		t.Fatalf("closed=%v flipped=%v, want both", c.closed, c.flipped)
	}
	n := geom.Vec3{X: float64(c.tri[3]), Y: float64(c.tri[4]), Z: float64(c.tri[5])}
	p := geom.Vec3{X: float64(c.tri[0]), Y: float64(c.tri[1]), Z: float64(c.tri[2])}
	if n.Dot(p) <= 0 {
		t.Fatal("normal not outward after flip")
	}
}

func TestTetrapodMesh(t *testing.T) {
	m := TetrapodMesh("t", 0.09, 0.13)
	c := buildMesh(&m)
	if !c.closed || c.flipped {
		t.Fatalf("closed=%v flipped=%v", c.closed, c.flipped)
	}
	if c.radius < 0.13 {
		t.Fatalf("radius %g, legs missing", c.radius)
	}
	p := PlaneMesh("p", 2, 2)
	if pc := buildMesh(&p); pc.closed || len(pc.lineIdx)/2 != 4 {
		t.Fatalf("plane closed=%v edges=%d, want open with 4 boundary edges", pc.closed, len(pc.lineIdx)/2)
	}
}

func TestBuildMeshSkipsBadIndices(t *testing.T) {
	m := snap.Mesh{Verts: []geom.Vec3{{}, {X: 1}, {Y: 1}}, Tris: [][3]int32{{0, 1, 2}, {0, 1, 9}, {-1, 0, 1}}}
	if c := buildMesh(&m); len(c.tri) != 3*meshVertFloats {
		t.Fatalf("got %d floats", len(c.tri))
	}
	empty := snap.Mesh{}
	if c := buildMesh(&empty); len(c.tri) != 0 || c.closed {
		t.Fatal("empty mesh")
	}
}

func TestCameraRayMatchesProject(t *testing.T) {
	c := NewCamera()
	c.Target = geom.Vec3{X: 1, Y: 2, Z: 0.5}
	c.Dist = 3
	w, h := 800, 500
	for _, px := range [][2]float64{{400, 250}, {10, 20}, {790, 480}} {
		o, d := c.Ray(px[0], px[1], w, h)
		p := o.AddScaled(2.5, d)
		x, y, ok := c.Project(p, w, h)
		if !ok || math.Abs(x-px[0]) > 1e-6 || math.Abs(y-px[1]) > 1e-6 {
			t.Fatalf("pixel %v → ray → %v,%v ok=%v", px, x, y, ok)
		}
		// and the GPU matrix agrees
		clip := c.ViewProj(float64(w) / float64(h)).Mul4x1(v32(p).Vec4(1))
		gx := (float64(clip[0]/clip[3]) + 1) * float64(w) / 2
		gy := (1 - float64(clip[1]/clip[3])) * float64(h) / 2
		if math.Abs(gx-px[0]) > 0.05 || math.Abs(gy-px[1]) > 0.05 {
			t.Fatalf("ViewProj maps to %v,%v want %v", gx, gy, px)
		}
	}
	// centre ray goes through the target
	o, d := c.Ray(400, 250, w, h)
	if off := c.Target.Sub(o).Cross(d).Norm(); off > 1e-9 {
		t.Fatalf("centre ray misses target by %g", off)
	}
}

func TestCameraControls(t *testing.T) {
	c := NewCamera()
	c.Orbit(0, 1e6)
	if c.Pitch > maxPitch+1e-12 {
		t.Fatalf("pitch %g not clamped", c.Pitch)
	}
	c.Zoom(1e4)
	if c.Dist != c.MinDist {
		t.Fatalf("dist %g, want clamp to %g", c.Dist, c.MinDist)
	}
	c = NewCamera()
	before := c.Target
	c.Pan(100, 0, 500)
	_, r, _ := c.Basis()
	if d := c.Target.Sub(before); d.Dot(r) >= 0 {
		t.Fatalf("dragging right should move the target left, moved %v", d)
	}
	if _, _, up := c.Basis(); up.Z <= 0 {
		t.Fatal("up vector not Z-up")
	}
}

func TestCameraFitIgnoresGround(t *testing.T) {
	s := DemoSnapshot()
	c := NewCamera()
	c.Fit(s)
	if c.Dist > 3 || c.Dist < 0.2 {
		t.Fatalf("fit distance %g: the 100 m ground should be ignored", c.Dist)
	}
	if c.Target.Sub(geom.Vec3{X: 0.16, Z: 0.2}).Norm() > 0.2 {
		t.Fatalf("fit target %v", c.Target)
	}
	// no bodies: frame the walls
	w := &snap.Snapshot{Meshes: s.Meshes, Bodies: s.Bodies[3:4], Walls: []snap.Wall{{Body: 0, Mesh: 2, Enabled: true}}}
	c.Fit(w)
	if c.Dist < 50 {
		t.Fatalf("wall-only fit distance %g", c.Dist)
	}
}

func TestPickBody(t *testing.T) {
	s := DemoSnapshot()
	// straight down: the tetrapod sits on top of cube A
	if i, _, ok := PickBody(s, geom.Vec3{X: 0.01, Y: 0.01, Z: 5}, geom.Vec3{Z: -2}); !ok || i != 2 {
		t.Fatalf("got %d %v, want the tetrapod", i, ok)
	}
	s.Bodies[2].Pos.Z = 10 // move it away: now cube A's top face at z = 0.2
	i, d, ok := PickBody(s, geom.Vec3{X: 0.01, Y: 0.01, Z: 5}, geom.Vec3{Z: -2})
	if !ok || i != 0 || math.Abs(d-4.8) > 1e-9 {
		t.Fatalf("got %d %g %v, want cube A at t=4.8", i, d, ok)
	}
	// horizontal ray through both cubes from +x hits cube B first
	i, _, ok = PickBody(s, geom.Vec3{X: 5, Z: 0.1}, geom.Vec3{X: -1})
	if !ok || i != 1 {
		t.Fatalf("got %d %v, want cube B", i, ok)
	}
	// grazing the bounding sphere of cube B but missing its rotated faces
	if i, _, ok := PickBody(s, geom.Vec3{X: 0.32 + 0.16, Y: 0.16, Z: 5}, geom.Vec3{Z: -1}); ok && i == 1 {
		t.Fatal("ray inside the bounding sphere but outside the mesh picked the cube")
	}
	// the ground wall is never picked
	if _, _, ok := PickBody(s, geom.Vec3{X: 3, Y: 3, Z: 5}, geom.Vec3{Z: -1}); ok {
		t.Fatal("picked the ground")
	}
}

func TestPickContact(t *testing.T) {
	s := DemoSnapshot()
	p := s.Contacts[6].Point
	o := p.Add(geom.Vec3{X: 0.001, Z: 3})
	i, ok := PickContact(s, o, geom.Vec3{Z: -1}, 0.01)
	if !ok || i != 6 {
		t.Fatalf("got %d %v want 6", i, ok)
	}
	if _, ok := PickContact(s, o.Add(geom.Vec3{X: 1}), geom.Vec3{Z: -1}, 0.01); ok {
		t.Fatal("picked a far contact")
	}
	v := DefaultView()
	v.KindFilter[snap.VV] = false
	if i, ok := PickContactView(s, &v, o, geom.Vec3{Z: -1}, 0.01); ok && i == 6 {
		t.Fatal("picked a filtered contact")
	}
}

func TestColormapAndRange(t *testing.T) {
	a, b := Colormap(0), Colormap(1)
	if a[2] < a[0] || b[0] < 0.9 || b[1] < 0.85 {
		t.Fatalf("viridis ends %v %v", a, b)
	}
	if Colormap(math.NaN()) != a || Colormap(7) != b {
		t.Fatal("clamping")
	}
	s := DemoSnapshot()
	lo, hi := ScalarRange(s, ColorForce)
	if lo != 0 || hi != 12 {
		t.Fatalf("force range %g..%g", lo, hi)
	}
}

func TestArrowLength(t *testing.T) {
	v := DefaultView()
	v.ArrowScale = 0.01
	if l := v.ArrowLength(3); math.Abs(l-0.03) > 1e-15 {
		t.Fatal(l)
	}
	v.LogArrows, v.ArrowRef = true, 2
	if l := v.ArrowLength(1e-9); math.Abs(l-1e-11) > 1e-18 {
		t.Fatalf("log mapping should be linear near 0, got %g", l)
	}
	if v.ArrowLength(1e6) > 0.01*2*math.Log(1e6) {
		t.Fatal("log mapping not compressed")
	}
	if v.ArrowLength(math.NaN()) != 0 || v.ArrowLength(-1) != 0 {
		t.Fatal("bad magnitudes must give 0")
	}
	s := DemoSnapshot()
	v.LogArrows = false
	v.AutoArrowScale(s)
	if l := v.ArrowLength(4); l < 0.1 || l > 0.5 {
		t.Fatalf("auto scale gives %g m for the max force", l)
	}
}

// fittedFrame builds the 1280×800 frame of s under v with a camera fitted
// to s and every mesh's centre known; it returns the frame, the camera and
// the mesh info, for building again.
func fittedFrame(s *snap.Snapshot, v *View) (*frame, *Camera, []meshInfo) {
	cam := NewCamera()
	cam.Fit(s)
	info := make([]meshInfo, len(s.Meshes))
	for i := range s.Meshes {
		c := buildMesh(&s.Meshes[i])
		info[i] = meshInfo{center: c.center, valid: true}
	}
	var f frame
	f.build(s, v, cam, info, 1280, 800)
	return &f, cam, info
}

func TestFrameBuild(t *testing.T) {
	s := DemoSnapshot()
	v := DefaultView()
	v.ShowSkin = true
	v.SelectedBody = 1
	v.AutoArrowScale(s)   // arrows shorter than two pixels are left out
	v.WallOutline = false // the ground translucent
	f, cam, info := fittedFrame(s, &v)
	var opaque, wall, skin, outline, spheres int
	for _, c := range f.cmds {
		switch c.kind {
		case cmdOpaque:
			opaque += c.count
		case cmdWall:
			wall += c.count
		case cmdSkin:
			skin += c.count
		case cmdOutline:
			outline += c.count
		case cmdSpheres:
			spheres += c.count
		}
	}
	if opaque != 3 || wall != 1 || skin != 3 || outline != 1 || spheres != 1 {
		t.Fatalf("opaque %d wall %d skin %d outline %d spheres %d", opaque, wall, skin, outline, spheres)
	}
	// two opaque draws: one per mesh (cubes instanced together)
	n := 0
	for _, c := range f.cmds {
		if c.kind == cmdOpaque {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d opaque draw calls, want one per mesh", n)
	}
	if f.nMarkers != 8 { // suppressed one hidden by default
		t.Fatalf("%d markers", f.nMarkers)
	}
	if f.nArrows != 8+6 {
		t.Fatalf("%d arrows", f.nArrows)
	}
	// translucent items are sorted far to near
	for i := 1; i < len(f.trans); i++ {
		if f.trans[i].d2 > f.trans[i-1].d2 {
			t.Fatal("translucent order")
		}
	}
	v.ShowSuppressed = true
	f.build(s, &v, cam, info, 1280, 800)
	if f.nMarkers != 9 {
		t.Fatalf("%d markers with suppressed", f.nMarkers)
	}
	// steady state: no allocations per frame
	allocs := testing.AllocsPerRun(20, func() { f.build(s, &v, cam, info, 1280, 800) })
	if allocs > 0 {
		t.Fatalf("%g allocations per frame build", allocs)
	}
}

func TestPickContactScreenAndDrag(t *testing.T) {
	s := DemoSnapshot()
	cam := NewCamera()
	cam.Fit(s)
	w, h := 640, 400
	for _, want := range []int{0, 4, 6} {
		x, y, ok := cam.Project(s.Contacts[want].Point, w, h)
		if !ok {
			t.Fatal("behind")
		}
		i, ok := PickContactScreen(s, nil, cam, x+1, y-1, w, h, 4)
		if !ok || s.Contacts[i].Point != s.Contacts[want].Point {
			t.Fatalf("picked %d want %d", i, want)
		}
	}
	if _, ok := PickContactScreen(s, nil, cam, 1, 1, w, h, 4); ok {
		t.Fatal("picked in empty corner")
	}
	anchor := geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}
	x, y, _ := cam.Project(anchor, w, h)
	if p := cam.DragPoint(x, y, w, h, anchor); p.Sub(anchor).Norm() > 1e-9 {
		t.Fatalf("drag point %v want %v", p, anchor)
	}
	v := DefaultView()
	v.AutoArrowScale(s) // arrows shorter than two pixels are left out
	v.SpringActive, v.SpringFrom, v.SpringTo = true, anchor, anchor.Add(geom.Vec3{Z: 1})
	var f frame
	info := make([]meshInfo, len(s.Meshes))
	f.build(s, &v, cam, info, 1280, 800)
	if f.nArrows != 15 {
		t.Fatalf("%d arrows with the spring", f.nArrows)
	}
}

func BenchmarkFrameBuild5000(b *testing.B) {
	s := DemoSnapshot()
	walls := s.Bodies[3:5]
	s.Bodies = append([]snap.Body(nil), walls...)
	s.Walls[0].Body, s.Walls[1].Body = 0, 1
	s.Contacts = nil
	for i := 0; i < 5000; i++ {
		p := geom.Vec3{X: float64(i%17) * 0.25, Y: float64(i/17%17) * 0.25, Z: float64(i/289) * 0.25}
		s.Bodies = append(s.Bodies, snap.Body{Mesh: i % 2, Pos: p, Rot: geom.QIdent(), Radius: 0.2})
		s.Contacts = append(s.Contacts, snap.Contact{A: len(s.Bodies) - 1, B: 0, Point: p, Normal: geom.Vec3{Z: 1}, Fn: 1, Ft: geom.Vec3{X: 0.3}},
			snap.Contact{A: len(s.Bodies) - 1, B: 0, Kind: snap.EE, Point: p, Normal: geom.Vec3{Z: 1}, Fn: 2})
	}
	v := DefaultView()
	cam := NewCamera()
	cam.Fit(s)
	info := make([]meshInfo, len(s.Meshes))
	for i := range info {
		info[i].valid = true
	}
	var f frame
	b.ReportAllocs()
	for b.Loop() {
		f.build(s, &v, cam, info, 1280, 800)
	}
}

// TestBuildMeshSmoothNormals: sphere and superquadric meshes get
// area-weighted vertex normals (a unit sphere's are radial), no feature
// edges; the same geometry under a polyhedron's name stays flat.
func TestBuildMeshSmoothNormals(t *testing.T) {
	vs, tris := sq.Sphere(1).Mesh(24, 12)
	normalsOf := func(c meshCPU) (ps, ns []geom.Vec3) {
		for i := 0; i < len(c.tri); i += meshVertFloats {
			ps = append(ps, geom.Vec3{X: float64(c.tri[i]), Y: float64(c.tri[i+1]), Z: float64(c.tri[i+2])})
			ns = append(ns, geom.Vec3{X: float64(c.tri[i+3]), Y: float64(c.tri[i+4]), Z: float64(c.tri[i+5])})
			for k := 9; k < 12; k++ {
				if c.smooth && c.tri[i+k] != 1 {
					t.Fatalf("smooth mesh has a feature-edge marker %v", c.tri[i+9:i+12])
				}
			}
		}
		return ps, ns
	}
	sm := snap.Mesh{Name: "sphere r=1", Verts: vs, Tris: tris}
	c := buildMesh(&sm)
	if !c.smooth || !c.closed || len(c.lineIdx) != 0 {
		t.Fatalf("smooth %v closed %v feature edges %d", c.smooth, c.closed, len(c.lineIdx)/2)
	}
	ps, ns := normalsOf(c)
	worst := 0.0
	for i := range ps {
		// on a unit sphere the exact normal is the position; the area-weighted
		// average of the 24×12 grid's faces deviates by O(h²): < 0.1 % in cos
		worst = math.Max(worst, 1-ns[i].Dot(ps[i].Unit()))
		if math.Abs(ns[i].Norm()-1) > 1e-6 {
			t.Fatalf("normal %v not unit", ns[i])
		}
	}
	// the grid spacing is 15° (24 around, 12 pole to pole); the averaged
	// normals must be within a quarter of it of the exact ones
	angle := func(oneMinusCos float64) float64 { return math.Acos(1-oneMinusCos) * 180 / math.Pi }
	if a := angle(worst); a > 15.0/4 {
		t.Errorf("smooth sphere normals deviate from radial by %.3g°", a)
	}
	fm := snap.Mesh{Name: "ball", Verts: vs, Tris: tris}
	f := buildMesh(&fm)
	_, fns := normalsOf(f)
	worstFlat := 0.0
	for i := range ps {
		worstFlat = math.Max(worstFlat, 1-fns[i].Dot(ps[i].Unit()))
	}
	t.Logf("largest normal error: smooth %.3g°, flat %.3g°", angle(worst), angle(worstFlat))
	if f.smooth || angle(worstFlat) < 2*angle(worst) || len(f.lineIdx) == 0 {
		t.Errorf("polyhedral name: smooth %v, flat normal error %.3g° (smooth %.3g°), %d feature edges", f.smooth, angle(worstFlat), angle(worst), len(f.lineIdx)/2)
	}

	// a blocky superquadric: the middle of each face has the face's normal
	box := sq.Shape{A: 1, B: 0.8, C: 0.6, N1: 10, N2: 10}
	bv, bt := box.Mesh(40, 20)
	bm := snap.Mesh{Name: "sq box", Verts: bv, Tris: bt}
	bc := buildMesh(&bm)
	bps, bns := normalsOf(bc)
	centres := 0
	for i := range bps {
		p := bps[i]
		for _, ax := range []struct {
			on bool
			n  geom.Vec3
		}{
			{math.Abs(p.X) > 0.999 && math.Abs(p.Y) < 1e-9 && math.Abs(p.Z) < 1e-9, geom.V(math.Copysign(1, p.X), 0, 0)},
			{math.Abs(p.X) < 1e-9 && math.Abs(p.Y) < 1e-9, geom.V(0, 0, math.Copysign(1, p.Z))},
		} {
			if ax.on {
				centres++
			}
			if ax.on && bns[i].Dot(ax.n) < 1-1e-6 {
				t.Errorf("face centre %v: normal %v, want %v", p, bns[i], ax.n)
			}
		}
	}
	if centres == 0 {
		t.Error("no face-centre vertex found")
	}
	if !SmoothMesh("sq 1×1×1 n=2,2") || !SmoothMesh("sphere r=0.5") || SmoothMesh("cube") || SmoothMesh("sqare") {
		t.Error("SmoothMesh names")
	}
}

// TestArrowsOnFreeBody: a contact with a fixed body or a wall draws the
// force on the free body, whichever of A and B the ground is: the demo's
// cube rests on the ground through four corners (two with the ground as A,
// two as B), and all four normal arrows point up (+z), the friction ones
// along the force on the cube (+x, S0 sign of Ft on A flipped for B).
func TestArrowsOnFreeBody(t *testing.T) {
	s := DemoSnapshot()
	v := DefaultView()
	v.ShowFriction = true
	v.AutoArrowScale(s)
	f, _, _ := fittedFrame(s, &v)
	up, fx := 0, 0
	for i := 0; i+arrowFloats <= len(f.arrows); i += arrowFloats {
		a := f.arrows[i : i+arrowFloats]
		if a[2] > 0.01 { // only the arrows at the ground (z = 0)
			continue
		}
		d := geom.Vec3{X: float64(a[3] - a[0]), Y: float64(a[4] - a[1]), Z: float64(a[5] - a[2])}
		switch [3]float32{a[6], a[7], a[8]} {
		case NormalArrowColor:
			if d.Z <= 0 || math.Abs(d.X)+math.Abs(d.Y) > 1e-6*d.Z {
				t.Errorf("normal arrow at the ground points %v, want +z", d)
			}
			up++
		case FrictionArrowColor:
			if d.X <= 0 {
				t.Errorf("friction arrow at the ground points %v, want +x (the force on the cube)", d)
			}
			fx++
		}
	}
	if up != 4 || fx != 3 {
		t.Errorf("%d normal and %d friction arrows at the ground, want 4 and 3", up, fx)
	}
}
