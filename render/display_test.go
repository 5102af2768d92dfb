package render

import (
	"math"
	"slices"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// forceScene: n bodies of radius 0.1 and n contacts with normal forces
// spread evenly over [1, 2] N.
func forceScene(n int) *snap.Snapshot {
	s := &snap.Snapshot{}
	for i := 0; i < n; i++ {
		s.Bodies = append(s.Bodies, snap.Body{Pos: geom.V(float64(i), 0, 0), Rot: geom.QIdent(), Radius: 0.1})
		s.Contacts = append(s.Contacts, snap.Contact{A: i, B: (i + 1) % n, Kind: snap.VF,
			Point: geom.V(float64(i)+0.5, 0, 0), Normal: geom.V(1, 0, 0), Fn: 1 + float64(i)/float64(n-1)})
	}
	return s
}

// TestArrowFitRobust: one contact carrying 1000× the others' force changes
// the fitted scale by less than 2 % (the old fit on the largest force shrank
// every other arrow 500×); the ArrowFitQuantile force is drawn ArrowFitLength
// mean radii long, linear and log alike.
func TestArrowFitRobust(t *testing.T) {
	for _, log := range []bool{false, true} {
		s := forceScene(200)
		sc, ref, ok := ArrowFit(s, log)
		if !ok {
			t.Fatal("no fit")
		}
		v := DefaultView()
		v.LogArrows, v.ArrowScale, v.ArrowRef = log, sc, ref
		fq := 1 + math.Floor(ArrowFitQuantile*200)/199
		if l := v.ArrowLength(fq); math.Abs(l-ArrowFitLength*0.1) > 1e-12 {
			t.Fatalf("log %v: P90 force drawn %g m, want %g", log, l, ArrowFitLength*0.1)
		}
		s.Contacts[17].Fn = 2000
		sc2, _, _ := ArrowFit(s, log)
		if d := math.Abs(sc2/sc - 1); d > 0.02 {
			t.Fatalf("log %v: an outlier changes the scale by %.1f %%", log, 100*d)
		}
	}
}

// TestArrowRefit: a pile whose forces drop 100× keeps arrows of the same
// length once re-fitted (they do not vanish); the re-fit moves geometrically
// by alpha; a pinned scale does not move.
func TestArrowRefit(t *testing.T) {
	s := forceScene(50)
	v := DefaultView()
	v.AutoArrowScale(s)
	l0 := v.ArrowLength(1.5)
	for i := range s.Contacts {
		s.Contacts[i].Fn /= 100
	}
	old := v.ArrowScale
	v.RefitArrows(s, 0.5)
	if r := v.ArrowScale / old; math.Abs(r-10) > 1e-9 { // half way in log: √100
		t.Fatalf("half re-fit scales by %g, want 10", r)
	}
	v.RefitArrows(s, 1)
	if l := v.ArrowLength(0.015); math.Abs(l-l0) > 1e-12*l0 {
		t.Fatalf("after the forces drop 100×: %g m, before %g m", l, l0)
	}
	v.ArrowPinned = true
	sc := v.ArrowScale
	s.Contacts[0].Fn = 1e6
	for i := range s.Contacts {
		s.Contacts[i].Fn *= 7
	}
	v.RefitArrows(s, 1)
	if v.ArrowScale != sc {
		t.Fatal("pinned scale moved")
	}
}

// TestMarkerThinning: 400 contacts in a 2 cm patch seen from 5 m keep at most
// one marker per screen cell of 2·MarkerPx; seen from far away (bodies under
// a few pixels) no marker is drawn; without thinning all are.
func TestMarkerThinning(t *testing.T) {
	s := &snap.Snapshot{Bodies: []snap.Body{{Pos: geom.V(0, 0, 0), Rot: geom.QIdent(), Radius: 0.1}}}
	for i := 0; i < 20; i++ {
		for j := 0; j < 20; j++ {
			s.Contacts = append(s.Contacts, snap.Contact{A: 0, B: 0, Kind: snap.VF,
				Point: geom.V(0.001*float64(i), 0.001*float64(j), 0), Normal: geom.V(0, 0, 1), Fn: 1})
		}
	}
	v := DefaultView()
	v.ShowNormal, v.ShowFriction = false, false
	cam := NewCamera()
	cam.Pitch = math.Pi / 2 * 0.99
	W, H := 1280, 800
	var f frame
	f.build(s, &v, cam, nil, W, H)
	// the patch spans 0.019 m / PixelSize px; cells are 2·MarkerPx wide
	span := 0.019 / cam.PixelSize(geom.V(0, 0, 0), H)
	cells := math.Pow(math.Ceil(span/(2*float64(v.MarkerPx)))+1, 2)
	t.Logf("patch %.1f px, %d markers kept (≤ %g cells)", span, f.nMarkers, cells)
	if f.nMarkers < 1 || float64(f.nMarkers) > cells {
		t.Fatalf("%d markers kept, want 1..%g", f.nMarkers, cells)
	}
	// marker radius ≤ markerBodyFrac of the body's screen radius
	rb := 0.1 / cam.PixelSize(geom.V(0, 0, 0), H)
	for k := 0; k < f.nMarkers; k++ {
		if r := f.markers[k*markerFloats+7]; float64(r) > markerBodyFrac*rb+1e-6 || r > v.MarkerPx {
			t.Fatalf("marker radius %g px for a body of %g px", r, rb)
		}
	}
	cam.Dist = 2000 // the body is 0.06 px: markers would be sub-pixel
	f.build(s, &v, cam, nil, W, H)
	if f.nMarkers != 0 {
		t.Fatalf("%d sub-pixel markers drawn", f.nMarkers)
	}
	v.ThinMarkers = false
	f.build(s, &v, cam, nil, W, H)
	if f.nMarkers != 400 {
		t.Fatalf("%d markers without thinning, want 400", f.nMarkers)
	}
}

// TestArrowThinning: of 400 loaded contacts in a patch of a few screen
// cells, with ThinMarkers at most one normal and one friction arrow per
// cell are drawn, each the longest starting in its cell (so the largest
// force is drawn); without thinning all 800 are.
func TestArrowThinning(t *testing.T) {
	s := &snap.Snapshot{Bodies: []snap.Body{{Pos: geom.V(0, 0, 0), Rot: geom.QIdent(), Radius: 0.1}}}
	for i := 0; i < 20; i++ {
		for j := 0; j < 20; j++ {
			fn := float64(1 + (i*7+j*13)%400) // distinct, largest somewhere inside
			s.Contacts = append(s.Contacts, snap.Contact{A: 0, B: 0, Kind: snap.VF,
				Point: geom.V(0.001*float64(i), 0.001*float64(j), 0), Normal: geom.V(0, 0, 1), Fn: fn, Ft: geom.V(0.1*fn, 0, 0)})
		}
	}
	v := DefaultView()
	v.ShowNormal, v.ShowFriction, v.LogArrows = true, true, false
	v.ArrowScale = 0.01 // m/N: the shortest arrow (0.1 N) is ≥ 2 px
	cam := NewCamera()
	cam.Pitch = math.Pi / 2 * 0.99
	cam.Dist = 0.4 // the patch ≈ 50 px wide: several contacts per cell
	W, H := 1280, 800
	var f frame
	f.build(s, &v, cam, nil, W, H)
	span := 0.019 / cam.PixelSize(geom.V(0, 0, 0), H)
	cells := math.Pow(math.Ceil(span/(2*float64(v.MarkerPx)))+1, 2)
	// the longest arrow of each colour per cell, from the contacts
	proj := newScreenProj(cam, W, H)
	cell := 2 * float64(v.MarkerPx)
	longest := map[arrowCell]float64{}
	for _, c := range s.Contacts {
		sx, sy, _, _, _ := proj.project(c.Point)
		k := uint64(uint32(int32(math.Floor(sx/cell))))<<32 | uint64(uint32(int32(math.Floor(sy/cell))))
		longest[arrowCell{k, false}] = math.Max(longest[arrowCell{k, false}], v.ArrowLength(c.Fn))
		longest[arrowCell{k, true}] = math.Max(longest[arrowCell{k, true}], v.ArrowLength(c.Ft.Norm()))
	}
	t.Logf("patch %.1f px, %d arrows kept of 800 (%d cells by colour, ≤ %g cells)", span, f.nArrows, len(longest), cells)
	if f.nArrows != len(longest) || float64(f.nArrows) > 2*cells {
		t.Fatalf("%d arrows kept, want one per cell and colour: %d", f.nArrows, len(longest))
	}
	for k := 0; k < f.nArrows; k++ {
		a := f.arrows[k*arrowFloats : (k+1)*arrowFloats]
		p := geom.V(float64(a[0]), float64(a[1]), float64(a[2]))
		l := geom.V(float64(a[3]), float64(a[4]), float64(a[5])).Sub(p).Norm()
		sx, sy, _, _, _ := proj.project(p)
		key := arrowCell{uint64(uint32(int32(math.Floor(sx/cell))))<<32 | uint64(uint32(int32(math.Floor(sy/cell)))), a[6] == FrictionArrowColor[0] && a[7] == FrictionArrowColor[1]}
		if want := longest[key]; math.Abs(l-want) > 1e-6*want {
			t.Fatalf("arrow %d is %g m long, the longest of its cell is %g m", k, l, want)
		}
	}
	v.ThinMarkers = false
	f.build(s, &v, cam, nil, W, H)
	if f.nArrows != 800 {
		t.Fatalf("%d arrows without thinning, want 800", f.nArrows)
	}
}

// TestZoomAt: the world point under the cursor (at the target's depth) stays
// under it; the distance scales by the factor; at the centre it is Zoom.
func TestZoomAt(t *testing.T) {
	W, H := 1000, 600
	for _, f := range []float64{0.9, 0.5, 1.7} {
		cam := NewCamera()
		cam.Target = geom.V(0.3, -0.2, 0.1)
		fwd, _, _ := cam.Basis()
		px, py := 810.0, 123.0
		o, dir := cam.Ray(px, py, W, H)
		p := o.AddScaled(cam.Dist/dir.Dot(fwd), dir)
		d0 := cam.Dist
		cam.ZoomAt(px, py, W, H, f)
		x, y, ok := cam.Project(p, W, H)
		if !ok || math.Hypot(x-px, y-py) > 1e-6 {
			t.Fatalf("factor %g: cursor point now at (%g, %g), want (%g, %g)", f, x, y, px, py)
		}
		if math.Abs(cam.Dist-f*d0) > 1e-12 {
			t.Fatalf("dist %g want %g", cam.Dist, f*d0)
		}
		c2 := NewCamera()
		c2.Target = geom.V(0.3, -0.2, 0.1)
		c2.ZoomAt(float64(W)/2, float64(H)/2, W, H, f)
		if c2.Target.Sub(geom.V(0.3, -0.2, 0.1)).Norm() > 1e-12 {
			t.Fatalf("zoom at the centre moved the target to %v", c2.Target)
		}
	}
	// clamped: the point still stays put
	cam := NewCamera()
	cam.MinDist = 4
	o, dir := cam.Ray(100, 100, W, H)
	fwd, _, _ := cam.Basis()
	p := o.AddScaled(cam.Dist/dir.Dot(fwd), dir)
	cam.ZoomAt(100, 100, W, H, 0.1)
	if x, y, _ := cam.Project(p, W, H); cam.Dist != 4 || math.Hypot(x-100, y-100) > 1e-6 {
		t.Fatalf("clamped zoom: dist %g, point at (%g, %g)", cam.Dist, x, y)
	}
}

// TestChainsBuild: contacts of one pair are summed, wall contacts and
// suppressed ones give no chain, the default threshold is the mean pair force.
func TestChainsBuild(t *testing.T) {
	s := forceScene(10) // pairs (i, i+1 mod 10), forces 1..2 N
	s.Contacts = append(s.Contacts, snap.Contact{A: 1, B: 0, Kind: snap.EE, Point: geom.V(0.5, 0, 0), Fn: 5},
		snap.Contact{A: 3, B: 2, Kind: snap.EE, Point: geom.V(2.5, 0, 0), Fn: 50, Suppressed: true})
	v := DefaultView()
	v.ShowChains = true
	var f frame
	f.build(s, &v, NewCamera(), nil, 640, 400)
	// pair (0,1): 1 + 5 = 6 N; the others 1 + i/9
	sum := 6.0
	for i := 1; i < 10; i++ {
		sum += 1 + float64(i)/9
	}
	if math.Abs(f.chainMean-sum/10) > 1e-12 || f.chainMax != 6 {
		t.Fatalf("mean %g max %g, want %g, 6", f.chainMean, f.chainMax, sum/10)
	}
	want := 0
	for i := 1; i < 10; i++ {
		if 1+float64(i)/9 > sum/10 {
			want++
		}
	}
	if f.nChains != want+1 {
		t.Fatalf("%d chains above the mean, want %d", f.nChains, want+1)
	}
	v.ChainThreshold = 5.5
	f.build(s, &v, NewCamera(), nil, 640, 400)
	if f.nChains != 1 || f.chains[10] != v.ChainWidthPx {
		t.Fatalf("%d chains above 5.5 N (width %g)", f.nChains, f.chains[10])
	}
	s.Walls = []snap.Wall{{Body: 0, Enabled: true, Mesh: -1}}
	f.build(s, &v, NewCamera(), nil, 640, 400)
	if f.nChains != 0 {
		t.Fatalf("%d chains to a wall", f.nChains)
	}
}

// TestSphereInstancesReused: a frame of the same snapshot and colouring
// (a camera move) keeps the impostor spheres' instance data and does not
// upload it again (sphNew false); a new snapshot, another selected body or
// colouring rebuilds it, with the new data.
func TestSphereInstancesReused(t *testing.T) {
	mk := func(dz float64) *snap.Snapshot {
		s := &snap.Snapshot{Meshes: []snap.Mesh{{Name: "sphere r=0.001"}}}
		for i := range 50 {
			s.Bodies = append(s.Bodies, snap.Body{Pos: geom.V(0.002*float64(i), 0, dz), Rot: geom.QIdent(), Radius: 0.001, Vel: geom.V(float64(i), 0, 0)})
		}
		return s
	}
	meshes := []meshInfo{{valid: true, sphere: true, radius: 0.001}}
	s := mk(0)
	v := DefaultView()
	cam := NewCamera()
	cam.Fit(s)
	var f frame
	build := func(s *snap.Snapshot) []float32 {
		f.build(s, &v, cam, meshes, 1280, 800)
		return append([]float32(nil), f.spheres...)
	}
	first := build(s)
	if !f.sphNew || f.nSpheres != 50 {
		t.Fatalf("first frame: new %v, %d spheres", f.sphNew, f.nSpheres)
	}
	cam.Orbit(0.3, 0.1)
	if again := build(s); f.sphNew || f.nSpheres != 50 || !slices.Equal(again, first) {
		t.Fatalf("camera move: new %v, %d spheres, same data %v", f.sphNew, f.nSpheres, slices.Equal(again, first))
	}
	for _, c := range []struct {
		name string
		edit func() *snap.Snapshot
	}{
		{"new snapshot", func() *snap.Snapshot { return mk(0.5) }},
		{"selection", func() *snap.Snapshot { v.SelectedBody = 3; return s }},
		{"colour by speed", func() *snap.Snapshot { v.ColorBy = ColorSpeed; return s }},
	} {
		s2 := c.edit()
		got := build(s2)
		if !f.sphNew || f.nSpheres != 50 || slices.Equal(got, first) {
			t.Fatalf("%s: new %v, %d spheres, data unchanged %v", c.name, f.sphNew, f.nSpheres, slices.Equal(got, first))
		}
		first = got
	}
}

// TestContactInstancesReused: a frame of the same snapshot, settings and
// camera keeps the contact markers' and arrows' instance data (no rebuild,
// no marker upload: conNew, markNew false); a camera move with ThinMarkers
// redoes only the sizing and thinning from the cached contacts, and without
// ThinMarkers nothing; a contact setting, the arrow mapping, the marker size
// or a new snapshot rebuilds. Every frame's markers and arrows equal those
// of a fresh frame built from the same inputs (the thinning stays correct).
func TestContactInstancesReused(t *testing.T) {
	mk := func(scale float64) *snap.Snapshot {
		s := &snap.Snapshot{Bodies: []snap.Body{{Pos: geom.V(0, 0, 0), Rot: geom.QIdent(), Radius: 0.1},
			{Pos: geom.V(0, 0, -1), Rot: geom.QIdent(), Radius: 0.1, Fixed: true}}}
		for i := range 20 {
			for j := range 20 {
				fn := scale * float64(1+(i*7+j*13)%400)
				s.Contacts = append(s.Contacts, snap.Contact{A: (i + j) % 2, B: 1 - (i+j)%2, Kind: snap.ContactKind((i * j) % int(snap.NumContactKinds)),
					Suppressed: (i+j)%11 == 0, Point: geom.V(0.001*float64(i), 0.001*float64(j), 0), Normal: geom.V(0, 0, 1),
					Fn: fn, Ft: geom.V(0.1*fn, 0.05*fn, 0)})
			}
		}
		return s
	}
	s := mk(1)
	v := DefaultView()
	v.ArrowScale, v.LogArrows = 0.01, false
	cam := NewCamera()
	cam.Pitch = math.Pi / 2 * 0.9
	cam.Dist = 0.4 // several contacts per screen cell
	const W, H = 1280, 800
	var f frame
	check := func(name string, s *snap.Snapshot, wantCon, wantMark bool) {
		t.Helper()
		f.build(s, &v, cam, nil, W, H)
		var g frame // a fresh frame: what the cached one must show
		g.build(s, &v, cam, nil, W, H)
		if f.conNew != wantCon || f.markNew != wantMark {
			t.Errorf("%s: contacts rebuilt %v (want %v), markers and arrows rebuilt %v (want %v)", name, f.conNew, wantCon, f.markNew, wantMark)
		}
		if f.nMarkers != g.nMarkers || f.nArrows != g.nArrows ||
			!slices.Equal(f.markers[:f.nMarkers*markerFloats], g.markers[:g.nMarkers*markerFloats]) ||
			!slices.Equal(f.arrows[:f.nArrows*arrowFloats], g.arrows[:g.nArrows*arrowFloats]) {
			t.Errorf("%s: %d markers, %d arrows; a fresh frame has %d, %d (or other data)", name, f.nMarkers, f.nArrows, g.nMarkers, g.nArrows)
		}
		if s != nil && (f.nMarkers == 0 || f.nArrows == 0) {
			t.Errorf("%s: %d markers, %d arrows: nothing to compare", name, f.nMarkers, f.nArrows)
		}
	}
	check("first frame", s, true, true)
	check("same frame", s, false, false)
	cam.Orbit(0.3, 0.1)
	check("camera move, thinned", s, false, true)
	check("same again", s, false, false)
	v.SpringActive, v.SpringFrom, v.SpringTo = true, geom.V(0, 0, 0), geom.V(0, 0, 0.1)
	check("spring", s, false, false)
	v.SpringActive = false
	check("spring released", s, false, false)
	v.ThinMarkers = false
	check("thinning off", s, false, true)
	cam.Orbit(-0.2, 0.05)
	check("camera move, not thinned", s, false, false)
	v.ThinMarkers = true
	check("thinning on", s, false, true)
	v.MarkerPx = 8
	check("marker size", s, false, true)
	v.ArrowScale *= 1.5
	check("arrow scale", s, false, true)
	v.LogArrows = true
	check("log arrows", s, false, true)
	v.ShowFriction = false
	check("friction arrows off", s, true, true)
	v.ShowSuppressed = true
	check("suppressed shown", s, true, true)
	v.KindFilter[snap.VF] = false
	check("kind filter", s, true, true)
	v.SelectContact(s, 5)
	check("selected contact", s, true, true)
	s2 := mk(3)
	check("new snapshot", s2, true, true)
	check("same new snapshot", s2, false, false)
	check("nil snapshot", nil, true, true)
}

// TestArrowRefitSettles: re-fitting every frame to a still snapshot reaches
// its fit exactly once within arrowFitSnap of it (here from 100× off at
// α = 0.1 in ≤ 120 frames) and then stays bit for bit, so that the arrows'
// instance data is kept (frame.thinKey holds the scale).
func TestArrowRefitSettles(t *testing.T) {
	s := &snap.Snapshot{Bodies: []snap.Body{{Pos: geom.V(0, 0, 0), Rot: geom.QIdent(), Radius: 0.01}}}
	for i := range 50 {
		s.Contacts = append(s.Contacts, snap.Contact{Normal: geom.V(0, 0, 1), Fn: 1 + float64(i), Ft: geom.V(0.3, 0, 0)})
	}
	for _, log := range []bool{false, true} {
		sc, ref, ok := ArrowFit(s, log)
		if !ok {
			t.Fatal("no fit")
		}
		v := DefaultView()
		v.LogArrows, v.ArrowScale, v.ArrowRef = log, 100*sc, ref/100
		n := 0
		for ; n < 120 && (v.ArrowScale != sc || v.ArrowRef != ref); n++ {
			v.RefitArrows(s, 0.1)
		}
		if v.ArrowScale != sc || v.ArrowRef != ref {
			t.Fatalf("log %v: after %d re-fits scale %g, ref %g; the fit is %g, %g", log, n, v.ArrowScale, v.ArrowRef, sc, ref)
		}
		for range 10 {
			v.RefitArrows(s, 0.1)
		}
		if v.ArrowScale != sc || v.ArrowRef != ref {
			t.Fatalf("log %v: settled after %d re-fits, then moved to %g, %g", log, n, v.ArrowScale, v.ArrowRef)
		}
		t.Logf("log %v: settled after %d re-fits", log, n)
	}
}
