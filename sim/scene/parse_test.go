package scene

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"grainlab/assets"
	"grainlab/sim/geom"
	"grainlab/sim/law"
)

var wantBuiltins = []string{
	"box-of-cubes", "box-of-tetrapods",
	"cube-drop-a", "cube-drop-b", "cube-drop-c", "cube-drop-d",
	"kodam-impact", "pile-of-blocks", "sliding-block-a", "sliding-block-b", "sliding-block-c",
	"sphere-box", "sphere-box-soft", "sphere-piling", "sq-hopper", "sq-piling", "sq-settling", "tetrapod-twist",
}

func mustBuiltin(t *testing.T, name string, sets ...string) *Spec {
	t.Helper()
	s, err := LoadBuiltin(name, sets...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// Every built-in scene parses, has a one-line description, and is listed.
func TestBuiltinsParse(t *testing.T) {
	bs := Builtins()
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
		s := mustBuiltin(t, b.Name)
		if s.Name != b.Name {
			t.Errorf("%s: name key is %q", b.Name, s.Name)
		}
		if b.Description == "" || strings.ContainsAny(b.Description, "\n\r") || b.Description != s.Description {
			t.Errorf("%s: bad description %q", b.Name, b.Description)
		}
		if !regexp.MustCompile(`^S[0-3] (ex\. |§)`).MatchString(s.Description) {
			t.Errorf("%s: description should name its paper example (\"S0 ex. 1\", \"S1 §3.1\"): %q", b.Name, s.Description)
		}
		data, _ := fs.ReadFile(assets.FS, "scenes/"+b.Name+".yaml")
		if !strings.Contains(string(data), "# chosen:") {
			t.Errorf("%s: no '# chosen:' comments", b.Name)
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("Builtins not sorted: %v", names)
	}
	if !reflect.DeepEqual(names, wantBuiltins) {
		t.Errorf("Builtins = %v, want %v", names, wantBuiltins)
	}
	if _, err := LoadBuiltin("cube-drop-x"); err == nil || !strings.Contains(err.Error(), `did you mean "cube-drop-`) {
		t.Errorf("unknown built-in: %v", err)
	}
	if s, err := LoadBuiltin("cube-drop-a.yaml"); err != nil || s.Name != "cube-drop-a" {
		t.Errorf("LoadBuiltin with .yaml suffix: %v", err)
	}
}

// boxVerts returns the world positions of a box body's vertices.
func boxVerts(s *Spec, b Body) []geom.Vec3 {
	h := s.Shapes[b.Shape].Size.Scale(0.5)
	var out []geom.Vec3
	for _, sx := range []float64{-1, 1} {
		for _, sy := range []float64{-1, 1} {
			for _, sz := range []float64{-1, 1} {
				v := geom.Vec3{X: sx * h.X, Y: sy * h.Y, Z: sz * h.Z}
				out = append(out, b.Position.Add(b.Orientation.Rotate(v)))
			}
		}
	}
	return out
}

// S0 ex. 1: the lowest point is 0.05 m (±1e-6) above the ground; in (a), (b),
// (c) the lowest vertex, edge midpoint, face centre lies straight below the
// centre of mass (±1e-9 m); (d) touches with one vertex, off-centre.
func TestCubeDropGeometry(t *testing.T) {
	for _, c := range []struct {
		name  string
		touch int // vertices within 1e-9 m of the lowest
	}{{"cube-drop-a", 1}, {"cube-drop-b", 2}, {"cube-drop-c", 4}, {"cube-drop-d", 1}} {
		s := mustBuiltin(t, c.name)
		if len(s.Bodies) != 1 || len(s.Walls) != 1 {
			t.Fatalf("%s: want one body and one wall", c.name)
		}
		b, g := s.Bodies[0], s.Walls[0]
		if g.Name != "ground" || g.Normal != (geom.Vec3{Z: 1}) || g.Point != (geom.Vec3{}) || g.Size != [2]float64{2, 2} {
			t.Errorf("%s: ground = %+v", c.name, g)
		}
		if sh := s.Shapes[b.Shape]; sh.Type != ShapeBox || sh.Size != (geom.Vec3{X: 0.1, Y: 0.1, Z: 0.1}) {
			t.Errorf("%s: shape %+v", c.name, sh)
		}
		if m := b.Density * 0.001; math.Abs(m-1) > 1e-12 {
			t.Errorf("%s: mass %v, want 1 kg", c.name, m)
		}
		l := s.Contact.Default
		if l.Law != "barrier" || l.Set.Normal.GBar != 0.001 || l.Set.Normal.Eps1 != 2e5 || l.Set.Normal.N1 != 1 || l.Set.Normal.F != 0.5 || l.Set.Normal.N2 != -2 ||
			l.Set.Zeta != 0 || l.Set.Friction.MuS != 0 || l.Set.Friction.MuD != 0 || l.Set.Friction.EpsT != 0 || l.Set.Friction.CT != 0 {
			t.Errorf("%s: law %+v", c.name, l)
		}
		it := s.Integrator
		if it.Name != "explicit" || it.Dt != 1e-4 || it.DtMin != 1e-9 || it.DtMax != 1e-3 || it.Safety != 0.05 || s.Time != 1 {
			t.Errorf("%s: integrator %+v time %v", c.name, it, s.Time)
		}
		vs := boxVerts(s, b)
		low := math.Inf(1)
		for _, v := range vs {
			low = math.Min(low, v.Z)
		}
		if math.Abs(low-0.05) > 1e-6 {
			t.Errorf("%s: lowest point %.9f m above ground, want 0.05 ± 1e-6", c.name, low)
		}
		var sum geom.Vec3
		n := 0
		for _, v := range vs {
			if v.Z-low < 1e-9 {
				sum, n = sum.Add(v), n+1
			}
		}
		if n != c.touch {
			t.Errorf("%s: %d lowest vertices, want %d", c.name, n, c.touch)
			continue
		}
		mid := sum.Scale(1 / float64(n))
		off := math.Hypot(mid.X-b.Position.X, mid.Y-b.Position.Y)
		if c.name == "cube-drop-d" {
			if off < 1e-3 {
				t.Errorf("%s: lowest vertex is below the centre; want a generic tilt", c.name)
			}
		} else if off > 1e-9 {
			t.Errorf("%s: lowest feature %.3g m off the vertical through the centre", c.name, off)
		}
	}
}

// S0 ex. 2: ten face-down cubes, lowest 0.02 m above ground, 0.02 m gaps
// (±1e-9 m), offsets ≤ 0.01 m, small rotations about z only.
func TestPileGeometry(t *testing.T) {
	s := mustBuiltin(t, "pile-of-blocks")
	if len(s.Bodies) != 10 || s.Time != 3 {
		t.Fatalf("%d bodies, time %v", len(s.Bodies), s.Time)
	}
	l := s.Contact.Default
	if l.Set.Zeta != 0.5 || l.Set.Friction.MuS != 0.5 || l.Set.Friction.MuD != 0.4 || l.Set.Friction.EpsT != 1e5 || l.Set.Friction.CT != 50 || l.Set.Normal.GBar != 0.001 {
		t.Errorf("law %+v", l)
	}
	prevTop := 0.0
	for i, b := range s.Bodies {
		q := b.Orientation
		if math.Abs(q.X) > 1e-15 || math.Abs(q.Y) > 1e-15 || q.RotVec().Norm() > 20*math.Pi/180 {
			t.Errorf("%s: orientation %v is not a small rotation about z", b.Name, q)
		}
		if math.Abs(b.Position.X) > 0.01+1e-15 || math.Abs(b.Position.Y) > 0.01+1e-15 {
			t.Errorf("%s: offset %v", b.Name, b.Position)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range boxVerts(s, b) {
			lo, hi = math.Min(lo, v.Z), math.Max(hi, v.Z)
		}
		if math.Abs(lo-prevTop-0.02) > 1e-9 {
			t.Errorf("%s: gap below %.12f, want 0.02", b.Name, lo-prevTop)
		}
		prevTop = hi
		_ = i
	}
	if len(s.Probes) != 1 || s.Probes[0].Wall != "ground" || s.Probes[0].Quantity != "force" {
		t.Errorf("probes %+v", s.Probes)
	}
}

// S0 ex. 3: force ramp 0→16 N along +x over 0–0.8 s at three points.
func TestSlidingBlocks(t *testing.T) {
	for name, z := range map[string]float64{"sliding-block-a": -0.05, "sliding-block-b": 0, "sliding-block-c": 0.05} {
		s := mustBuiltin(t, name)
		b := s.Bodies[0]
		if math.Abs(b.Position.Z-0.05-0.00095) > 1e-12 || b.Orientation != geom.QIdent() {
			t.Errorf("%s: body at %v %v", name, b.Position, b.Orientation)
		}
		l := s.Contact.Default
		if l.Set.Zeta != 0.5 || l.Set.Friction.MuS != 0.8 || l.Set.Friction.MuD != 0.6 || l.Set.Friction.EpsT != 1e5 || l.Set.Friction.CT != 20 {
			t.Errorf("%s: law %+v", name, l)
		}
		if len(s.Loads) != 1 {
			t.Fatalf("%s: loads %+v", name, s.Loads)
		}
		ld := s.Loads[0]
		if ld.Body != "cube" || ld.Point != (geom.Vec3{Z: z}) || ld.Frame != "world" {
			t.Errorf("%s: load %+v", name, ld)
		}
		for _, c := range []struct{ t, fx float64 }{{-1, 0}, {0, 0}, {0.4, 8}, {0.8, 16}, {1, 16}} {
			if f := ld.Force.At(c.t); math.Abs(f.X-c.fx) > 1e-12 || f.Y != 0 || f.Z != 0 {
				t.Errorf("%s: force(%v) = %v, want %v", name, c.t, f, c.fx)
			}
		}
		if ld.Moment.At(0.5) != (geom.Vec3{}) || s.Time != 1 {
			t.Errorf("%s: moment or time", name)
		}
	}
}

func TestTetrapodScenes(t *testing.T) {
	s := mustBuiltin(t, "tetrapod-twist")
	sh := s.Shapes["tetrapod"]
	if sh.Type != ShapeTetrapod || sh.LegLength != 0.69 || sh.BaseRadius != 0.16 || sh.TipRadius != 0 ||
		sh.Sides != 6 || sh.RootDistance != 0.16 {
		t.Errorf("shape %+v", sh)
	}
	b := s.Bodies[0]
	if b.Mass != 313.188 || b.Density != 0 || !b.RestOnGround || b.Position.Z != 0.2303 {
		t.Errorf("body %+v", b)
	}
	if mc := b.Mass * b.Mass / (2 * b.Mass); math.Abs(mc-156.594) > 1e-9 {
		t.Errorf("equivalent mass %v", mc)
	}
	l := s.Contact.Default
	if l.Set.Normal.GBar != 0.005 || l.Set.Normal.Eps1 != 1e7 || l.Set.Zeta != 0.5 || l.Set.Friction.MuS != 0.3 || l.Set.Friction.MuD != 0.3 || l.Set.Friction.EpsT != 1e7 || l.Set.Friction.CT != 2e3 {
		t.Errorf("law %+v", l)
	}
	if m := s.Loads[0].Moment.At(1); math.Abs(m.Z-375) > 1e-9 || m.X != 0 || s.Loads[0].Force.At(1) != (geom.Vec3{}) {
		t.Errorf("moment at 1 s = %v", m)
	}

	s6 := mustBuiltin(t, "box-of-tetrapods")
	if !reflect.DeepEqual(s6.Contact.Default, withPath(l, "contact.default")) {
		t.Errorf("ex. 6 law %+v differs from ex. 4 %+v", s6.Contact.Default, l)
	}
	if s6.Shapes["tetrapod"] != sh {
		t.Errorf("ex. 6 shape differs from ex. 4")
	}
	g := s6.Generators[0]
	if g.Name != "fill" || g.Count != 300 || g.Mass != 313.188 || g.Seed != 1 || !g.RandomOrientation ||
		g.Min != (geom.Vec3{X: -3.2, Y: -3.2, Z: 0.8}) || g.Max != (geom.Vec3{X: 3.2, Y: 3.2, Z: 30}) {
		t.Errorf("generator %+v", g)
	}
	checkBox(t, s6, 3.5, 32, 6.0, 13.0)
}

func withPath(l Law, p string) Law { l.Path = p; return l }

// checkBox checks an expanded open-top box of half-width hw and height h
// and the "disable side walls" event.
func checkBox(t *testing.T, s *Spec, hw, h, at, end float64) {
	t.Helper()
	want := map[string]geom.Vec3{"left": {X: 1}, "right": {X: -1}, "front": {Y: 1}, "back": {Y: -1}, "bottom": {Z: 1}}
	if len(s.Walls) != len(want) {
		t.Fatalf("%s: %d walls, want %d", s.Name, len(s.Walls), len(want))
	}
	for _, w := range s.Walls {
		n, ok := want[w.Name]
		if !ok || w.Normal != n || w.Type != "plane" || w.Side != w.Name || !w.Enabled || w.Path != "walls[0]" {
			t.Errorf("%s: wall %+v", s.Name, w)
			continue
		}
		// The plane sits on its face and is centred on it.
		if d := w.Point.Dot(n); w.Name != "bottom" && math.Abs(d+hw) > 1e-12 || w.Name == "bottom" && w.Point.Z != 0 {
			t.Errorf("%s: %s at %v", s.Name, w.Name, w.Point)
		}
		if w.Name != "bottom" && (math.Abs(w.Point.Z-h/2) > 1e-12 || w.Size != [2]float64{2 * hw, h}) {
			t.Errorf("%s: %s point %v size %v", s.Name, w.Name, w.Point, w.Size)
		}
	}
	if len(s.Events) != 1 || s.Events[0].At != at ||
		!reflect.DeepEqual(s.Events[0].DisableWalls, []string{"left", "right", "front", "back"}) || s.Time != end {
		t.Errorf("%s: events %+v time %v", s.Name, s.Events, s.Time)
	}
}

func TestBoxOfCubes(t *testing.T) {
	s := mustBuiltin(t, "box-of-cubes")
	g := s.Generators[0]
	if g.Name != "fill" || g.Count != 564 || g.Seed != 1 || g.Density != 1000 ||
		g.Min != (geom.Vec3{X: -0.45, Y: -0.45, Z: 0.1}) || g.Max != (geom.Vec3{X: 0.45, Y: 0.45, Z: 4.3}) {
		t.Errorf("generator %+v", g)
	}
	l := s.Contact.Default
	if l.Set.Zeta != 0.5 || l.Set.Friction.MuS != 0.5 || l.Set.Friction.MuD != 0.5 || l.Set.Friction.EpsT != 1e5 || l.Set.Friction.CT != 20 || l.Set.Normal.GBar != 0.001 || l.Set.Normal.Eps1 != 2e5 {
		t.Errorf("law %+v", l)
	}
	if s.Output.Every != 0.01 {
		t.Errorf("output %+v", s.Output)
	}
	checkBox(t, s, 0.5, 4.5, 3.0, 6.0)
}

// Every file in testdata/bad starts with "# want: <exact error>".
func TestBadInputs(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) < 20 {
		t.Fatalf("only %d bad inputs", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		want, ok := strings.CutPrefix(first, "# want: ")
		if !ok {
			t.Fatalf("%s: no want line", f)
		}
		base := filepath.Base(f)
		_, err = Parse(data, base)
		if err == nil {
			t.Errorf("%s: parsed without error, want %s", base, want)
			continue
		}
		if err.Error() != want {
			t.Errorf("%s:\n got %s\nwant %s", base, err, want)
		}
		var e *Error
		if !errors.As(err, &e) || e.File != base || e.Line < 2 {
			t.Errorf("%s: error %#v lacks file or line", base, err)
		}
	}
}

// Load reads files and reports the path it was given.
func TestLoad(t *testing.T) {
	if _, err := Load("testdata/bad/number.yaml"); err == nil || !strings.HasPrefix(err.Error(), "testdata/bad/number.yaml:7: contact.default.gbar:") {
		t.Errorf("Load error: %v", err)
	}
	s, err := Load("testdata/good/full.yaml", "time=3")
	if err != nil || s.Time != 3 || s.Dir != "testdata/good" {
		t.Fatalf("Load: %v", err)
	}
	if _, err := s.ReadFile("nope.stl"); err == nil {
		t.Error("ReadFile of a missing file succeeded")
	}
	if _, err := Find("testdata/good/full.yaml"); err != nil {
		t.Error(err)
	}
	if s, err := Find("cube-drop-c"); err != nil || s.Name != "cube-drop-c" {
		t.Error(err)
	}
}

// testdata/good/full.yaml uses every key; check that each lands.
func TestFullScene(t *testing.T) {
	s, err := Load("testdata/good/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	approx := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	if s.Name != "full" || s.Description != "every key of the scene format" || s.Time != 2.5 || s.Gravity.Z != -9.81 {
		t.Errorf("header %q %q %v %v", s.Name, s.Description, s.Time, s.Gravity)
	}
	if s.Params["rho"] != 2500 || s.Params["drop"] != 0.3 {
		t.Errorf("params %v", s.Params)
	}
	it := s.Integrator
	if it.Name != "newmark" || it.Dt != 1e-4 || it.DtMin != 1e-8 || it.DtMax != 1e-3 || it.Safety != 0.25 ||
		*it.Beta != 0.25 || *it.Gamma != 0.5 || *it.Alpha != -0.1 || *it.Tol != 1e-10 || *it.MaxIter != 30 {
		t.Errorf("integrator %+v", it)
	}
	d := s.Contact.Default
	if d.Law != "barrier" || d.Set.Normal.GBar != 0.001 || d.Set.Normal.Eps1 != 2e5 || d.Set.Normal.N1 != 1.5 || d.Set.Normal.F != 0.4 || d.Set.Normal.N2 != -3 ||
		d.Set.Zeta != 0.1 || d.Set.Friction.MuS != 0.5 || d.Set.Friction.MuD != 0.4 || d.Set.Friction.EpsT != 1e5 || d.Set.Friction.CT != 20 || d.Set.DampBand != law.DefaultSet().DampBand {
		t.Errorf("default law %+v", d)
	}
	p0, p1 := s.Contact.Pairs[0], s.Contact.Pairs[1]
	if p0.Between != [2]string{"steel", "default"} || p0.Law.Set.Friction.MuS != 0.2 || p0.Law.Set.Friction.MuD != 0.1 || p0.Law.Set.Zeta != 0.1 || p0.Law.Set.DampBand != law.DefaultSet().DampBand ||
		!p0.Keys["mu_s"] || p0.Keys["zeta"] || p0.Law.Path != "contact.pairs[0]" {
		t.Errorf("pair 0 %+v", p0)
	}
	if p1.Between != [2]string{"rubber", "rubber"} || p1.Law.Law != "hertz" || p1.Law.Set.Zeta != 0.7 || p1.Law.Set.Normal.N1 != 1.5 || !p1.Keys["n1"] || p1.Law.Set.DampBand != 0.02 {
		t.Errorf("pair 1 (merge key) %+v", p1)
	}
	if got := s.ShapeOrder; !reflect.DeepEqual(got, []string{"cube", "pod", "part", "ball", "pill"}) {
		t.Errorf("shape order %v", got)
	}
	if sh := s.Shapes["pod"]; sh.Sides != 8 || sh.TipRadius != 0.01 || sh.RootDistance != 0.2 {
		t.Errorf("pod %+v", sh)
	}
	if sh := s.Shapes["part"]; sh.File != "meshes/part.stl" || sh.Scale != 0.001 || sh.WeldTol != 1e-9 {
		t.Errorf("part %+v", sh)
	}
	if sh := s.Shapes["ball"]; sh.Radius != 0.05 {
		t.Errorf("ball %+v", sh)
	}
	if sh := s.Shapes["pill"]; sh.A != 0.1 || sh.B != 0.05 || sh.C != 0.05 || sh.N1 != 4 || sh.N2 != 2 {
		t.Errorf("pill %+v", sh)
	}
	q, aa, eu, rot := s.Bodies[0], s.Bodies[1], s.Bodies[2], s.Bodies[3]
	if q.Material != "steel" || q.Density != 2500 || q.Position.Z != 0.3 || q.Orientation != geom.QIdent() ||
		q.Velocity.X != 1 || q.AngularVelocity.Z != 3 || q.Fixed || q.RestOnGround {
		t.Errorf("body q %+v", q)
	}
	if aa.Mass != 2 || aa.Material != "default" || !aa.RestOnGround {
		t.Errorf("body aa %+v", aa)
	}
	// Orientation conventions: rotate body-frame x and check the world image.
	x, y := geom.Vec3{X: 1}, geom.Vec3{Y: 1}
	approx("axis_angle 90° about z: x→y", aa.Orientation.Rotate(x).Y, 1)
	// euler_deg [90, 0, 90]: world x by 90 (y→z), then world z by 90 (x→y).
	approx("euler: x→y", eu.Orientation.Rotate(x).Y, 1)
	approx("euler: y→z", eu.Orientation.Rotate(y).Z, 1)
	// rotations [x 90, z 90] about world axes: same as euler [90, 0, 90].
	if a := rot.Orientation.AngleTo(eu.Orientation); a > 1e-12 || !rot.Fixed || rot.Density != 0 || rot.Mass != 0 {
		t.Errorf("rotations differ from euler by %g rad, or body %+v", a, rot)
	}
	g := s.Generators[0]
	if g.Count != 12 || g.Seed != 7 || g.Mass != 313.188 || g.Material != "rubber" || g.RandomOrientation ||
		g.Velocity.Z != -1 || math.Abs(g.Orientation.Rotate(x).Y-math.Sqrt(0.5)) > 1e-12 {
		t.Errorf("generator %+v", g)
	}
	names := wallNames(s.Walls)
	if !reflect.DeepEqual(names, []string{"ground", "west", "east", "front", "back", "bottom", "top", "chute"}) {
		t.Errorf("walls %v", names)
	}
	w := s.Walls[0]
	if w.Normal != (geom.Vec3{Z: 1}) || w.Size != [2]float64{4, 6} || w.Material != "steel" || !w.Enabled {
		t.Errorf("ground %+v", w)
	}
	for _, w := range s.Walls[1:7] {
		if w.Box != "bin" || w.Enabled || w.Path != "walls[1]" {
			t.Errorf("box wall %+v", w)
		}
	}
	if s.Walls[5].Size != [2]float64{10, 10} || s.Walls[6].Size != [2]float64{2, 3} || s.Walls[6].Point.Z != 3 {
		t.Errorf("bottom/top %+v %+v", s.Walls[5], s.Walls[6])
	}
	if c := s.Walls[7]; c.Type != "stl" || c.File != "meshes/chute.stl" || c.Scale != 2 {
		t.Errorf("chute %+v", c)
	}
	ld := s.Loads[0]
	if ld.Frame != "body" || ld.Point.Z != 0.05 || ld.Force.T0 != 0.1 || ld.Force.T1 != 0.9 || ld.Moment.At(5).Z != 1 {
		t.Errorf("load %+v", ld)
	}
	approx("ramp midpoint", ld.Force.At(0.5).X, 8)
	e0, e1 := s.Events[0], s.Events[1]
	if e0.At != 1 || !reflect.DeepEqual(e0.DisableWalls, []string{"west", "east"}) ||
		!reflect.DeepEqual(e0.Set, []Assignment{{"contact.default.mu_s", "0.6"}}) {
		t.Errorf("event 0 %+v", e0)
	}
	if e1.At != 2 || !reflect.DeepEqual(e1.EnableWalls, []string{"west"}) ||
		!reflect.DeepEqual(e1.Set, []Assignment{{"contact.pairs.0.mu_s", "0.3"}, {"walls.bin.enabled", "true"}}) {
		t.Errorf("event 1 %+v", e1)
	}
	if s.Output.Every != 0.02 || s.Output.Contacts != "every" {
		t.Errorf("output %+v", s.Output)
	}
	wantProbes := []Probe{
		{Path: "probes[0]", Name: "q_pos", Body: "q", Quantity: "position"},
		{Path: "probes[1]", Name: "q_angular_velocity", Body: "q", Quantity: "angular_velocity"},
		{Path: "probes[2]", Name: "ground_force", Wall: "ground", Quantity: "force"},
	}
	if !reflect.DeepEqual(s.Probes, wantProbes) {
		t.Errorf("probes %+v", s.Probes)
	}
}

// Spec.Errorf names the line of the key, or of its nearest present parent.
func TestSpecErrorf(t *testing.T) {
	s, err := Load("testdata/good/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"bodies[2].density", "testdata/good/full.yaml:64: bodies[2].density: must be > 0"},
		{"bodies[2].velocity", "testdata/good/full.yaml:62: bodies[2].velocity: must be > 0"}, // absent: the list item
		{"contact.default.gbar", "testdata/good/full.yaml:25: contact.default.gbar: must be > 0"},
		{"walls[1]", "testdata/good/full.yaml:88: walls[1]: must be > 0"},
		{"time", "testdata/good/full.yaml:4: time: must be > 0"},
	} {
		if got := s.Errorf(c.path, "must be > 0").Error(); got != c.want {
			t.Errorf("Errorf(%s) = %s, want %s", c.path, got, c.want)
		}
	}
	if s.Line("generators[0].count") != 77 {
		t.Errorf("Line(generators[0].count) = %d", s.Line("generators[0].count"))
	}
}

func TestWallAxes(t *testing.T) {
	for _, n := range []geom.Vec3{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}, {X: 1, Y: 2, Z: 3}, {X: 0.1, Z: -1}} {
		w := Wall{Normal: n.Unit()}
		u, v := w.Axes()
		if math.Abs(u.Norm()-1) > 1e-12 || math.Abs(v.Norm()-1) > 1e-12 || math.Abs(u.Dot(v)) > 1e-12 ||
			math.Abs(u.Dot(w.Normal)) > 1e-12 || u.Cross(v).Sub(w.Normal).Norm() > 1e-12 {
			t.Errorf("axes of %v: u %v v %v", n, u, v)
		}
	}
	// Box side walls: u horizontal, v = +z, so Size = [width, height].
	s := mustBuiltin(t, "box-of-cubes")
	for _, w := range s.Walls {
		u, v := w.Axes()
		if w.Side != "bottom" && (math.Abs(u.Z) > 1e-12 || v != (geom.Vec3{Z: 1})) {
			t.Errorf("%s: u %v v %v", w.Name, u, v)
		}
	}
}

func TestRamp(t *testing.T) {
	r := Ramp{From: geom.Vec3{X: 1}, To: geom.Vec3{X: 3}, T0: 1, T1: 2}
	for _, c := range []struct{ t, x float64 }{{0, 1}, {1, 1}, {1.25, 1.5}, {2, 3}, {9, 3}} {
		if got := r.At(c.t).X; math.Abs(got-c.x) > 1e-15 {
			t.Errorf("At(%v) = %v, want %v", c.t, got, c.x)
		}
	}
	step := Ramp{To: geom.Vec3{Z: 1}, T0: 1, T1: 1}
	if step.At(0.999).Z != 0 || step.At(1).Z != 0 || step.At(1.001).Z != 1 {
		t.Error("step ramp")
	}
}

// Truncating a built-in scene anywhere never panics, and every error
// carries the file name and a line within the file.
func TestTruncatedScenes(t *testing.T) {
	for _, name := range []string{"box-of-cubes", "pile-of-blocks", "tetrapod-twist"} {
		data, _ := fs.ReadFile(assets.FS, "scenes/"+name+".yaml")
		lines := strings.Count(string(data), "\n") + 1
		for cut := 0; cut < len(data); cut += 7 {
			_, err := Parse(data[:cut], "x.yaml")
			if err == nil {
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "x.yaml" || e.Line < 1 || e.Line > lines {
				t.Fatalf("%s cut at %d: %v", name, cut, err)
			}
		}
	}
}

// A scene argument that looks like a path gets the file system's error, not
// "no built-in scene"; built-in names (with or without .yaml) still resolve.
func TestFindPathErrors(t *testing.T) {
	cases := []struct{ arg, want string }{
		{"testdata/missing.yaml", "no such file or directory"},
		{"nowhere/scene", "no such file or directory"},
		{"missing.yml", "no such file or directory"},
		{"testdata", "is a directory"},
		{"testdata/", "is a directory"},
		{"cube-drop-z", "no built-in scene"},
	}
	for _, c := range cases {
		if _, err := Find(c.arg); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(c.want, "no such") && strings.Contains(err.Error(), "built-in") {
			t.Errorf("Find(%q): got %v, want %q", c.arg, err, c.want)
		}
	}
	for _, name := range []string{"cube-drop-a", "cube-drop-a.yaml"} {
		if _, err := Find(name); err != nil {
			t.Errorf("Find(%q): %v", name, err)
		}
	}
}
