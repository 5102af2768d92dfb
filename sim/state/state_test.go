package state

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// build returns a built-in scene's world.
func build(t *testing.T, name string, sets ...string) *world.World {
	t.Helper()
	s, err := scene.LoadBuiltin(name, sets...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Every shipped packed state reads, applies to its scene and places each
// body where the file says (bit for bit), with unit quaternions.
func TestShippedStatesLoad(t *testing.T) {
	cases := []struct {
		path, scene string
		sets        []string
	}{
		{"builtin:box-of-tetrapods-300-packed", "box-of-tetrapods", nil},
		{"../validation/testdata/box-of-cubes-564-packed.json", "box-of-cubes", nil},
		{"../validation/testdata/box-of-tetrapods-1005-packed.json", "box-of-tetrapods", []string{"generators.fill.count=1005"}},
		{"../validation/testdata/sphere-box-soft-218-settled.json", "sphere-box-soft", nil},
		{"../validation/testdata/sphere-box-218-t0.1.json", "sphere-box", nil},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			f, err := Read(c.path)
			if err != nil {
				t.Fatal(err)
			}
			w := build(t, c.scene, c.sets...)
			if err := Apply(w, f, c.path); err != nil {
				t.Fatal(err)
			}
			s, _ := scene.LoadBuiltin(c.scene, c.sets...)
			if err := CheckTime(f, c.path, s.Time); err != nil {
				t.Fatal(err)
			}
			for _, b := range f.Bodies {
				bd := w.Bodies()[w.BodyByName(b.Name)]
				if arr(bd.X) != b.Position || arr(bd.V) != b.Velocity {
					t.Fatalf("%s: placed at %v, file says %v", b.Name, bd.X, b.Position)
				}
				if math.Abs(bd.Q.Norm()-1) > 1e-15 {
					t.Fatalf("%s: |q| = %.17g", b.Name, bd.Q.Norm())
				}
			}
			if w.Time != f.Time {
				t.Fatalf("time %g, file %g", w.Time, f.Time)
			}
		})
	}
}

// Write then Read gives the state back bit for bit (the round trip of a restart).
func TestWriteReadRoundTrip(t *testing.T) {
	w := build(t, "cube-drop-b")
	w.Time = 0.25
	b := w.Bodies()[w.BodyByName("cube")]
	b.V.X, b.W.Z = 0.125, -3
	path := filepath.Join(t.TempDir(), "final.json")
	if err := Write(path, w); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	w2 := build(t, "cube-drop-b")
	if err := Apply(w2, f, path); err != nil {
		t.Fatal(err)
	}
	b2 := w2.Bodies()[w2.BodyByName("cube")]
	if b2.X != b.X || b2.Q != b.Q || b2.V != b.V || b2.W != b.W || w2.Time != w.Time {
		t.Fatalf("round trip: %+v %+v t=%g, want %+v %+v t=%g", b2.X, b2.Q, w2.Time, b.X, b.Q, w.Time)
	}
}

// one is a valid one-body entry of cube-drop-a ("cube").
const one = `{"name": "cube", "position": [0, 0, 1], "quaternion": [1, 0, 0, 0], "velocity": [0, 0, 0], "angular_velocity": [0, 0, 0]}`

// Every broken kind of restart file of issue 13 is refused by Read with
// the file, the line and the entry.
func TestReadRefusesBrokenFiles(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"null", `null`, "s.json:1: want a JSON object"},
		{"empty", ``, "s.json: empty file"},
		{"list", `[]`, "s.json:1: want a JSON object"},
		{"no time", `{"bodies": [` + one + `]}`, `s.json: no "time"`},
		{"no bodies", `{"time": 0}`, `s.json: no "bodies"`},
		{"null bodies", "{\"time\": 0,\n \"bodies\": null}", "s.json:2: bodies is null"},
		{"empty bodies", "{\"time\": 0,\n \"bodies\": []}", "s.json:2: bodies is empty"},
		{"null entry", "{\"time\": 0, \"bodies\": [\n null]}", "s.json:2: bodies[0] is null"},
		{"negative time", `{"time": -1, "bodies": [` + one + `]}`, "s.json: time -1: want a finite time ≥ 0"},
		{"null time", `{"time": null, "bodies": [` + one + `]}`, "s.json:1: time is null"},
		{"no name", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `"name": "cube", `, "", 1) + "]}", "s.json:2: bodies[0]: no name"},
		{"no position", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `"position": [0, 0, 1], `, "", 1) + "]}", "s.json:2: bodies[0] (cube): no position"},
		{"no quaternion", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `"quaternion": [1, 0, 0, 0], `, "", 1) + "]}", "bodies[0] (cube): no quaternion"},
		{"no velocity", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `"velocity": [0, 0, 0], `, "", 1) + "]}", "bodies[0] (cube): no velocity"},
		{"no angular velocity", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `, "angular_velocity": [0, 0, 0]`, "", 1) + "]}", "bodies[0] (cube): no angular_velocity"},
		{"4-number position", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `[0, 0, 1]`, `[0, 0, 1, 2]`, 1) + "]}", "s.json:2: bodies[0] (cube): position has 4 numbers, want 3"},
		{"2-number velocity", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `"velocity": [0, 0, 0]`, `"velocity": [0, 0]`, 1) + "]}", "velocity has 2 numbers, want 3"},
		{"not unit", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `[1, 0, 0, 0]`, `[1, 0.01, 0, 0]`, 1) + "]}", "bodies[0] (cube): quaternion is not unit (|q| = 1.00005, tolerance 1e-06)"},
		{"wall", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `"cube"`, `"wall:ground"`, 1) + "]}", "s.json:2: bodies[0] (wall:ground): names a wall"},
		{"duplicate", "{\"time\": 0, \"bodies\": [\n" + one + ",\n" + one + "]}", "s.json:3: bodies[1] (cube): duplicate of bodies[0]"},
		{"string number", "{\"time\": 0, \"bodies\": [\n" + strings.Replace(one, `[0, 0, 1]`, `[0, "a", 1]`, 1) + "]}", "s.json:2: json: cannot unmarshal string"},
		{"syntax", "{\"time\": 0,\n\"bodies\": [\n" + one + ",,]}", "s.json:3: invalid character ','"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.text), "s.json")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// A quaternion within QuatTol of unit length is normalised; the file's
// other numbers are kept.
func TestReadNormalisesNearUnitQuaternion(t *testing.T) {
	text := `{"time": 0, "bodies": [` + strings.Replace(one, `[1, 0, 0, 0]`, `[1.0000005, 0, 0, 0]`, 1) + `]}`
	f, err := Parse([]byte(text), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if q := f.Bodies[0].Quaternion; q != [4]float64{1, 0, 0, 0} {
		t.Fatalf("quaternion %v, want [1 0 0 0]", q)
	}
}

// Apply checks the file against the scene: each non-wall body exactly once.
func TestApplyRefusesMismatchedBodies(t *testing.T) {
	w := build(t, "box-of-cubes", "generators.0.count=10")
	full := Capture(w)
	ok := func(f File) File { f.Bodies = append([]Body(nil), f.Bodies...); return f }
	half := ok(full)
	half.Bodies = half.Bodies[:3]
	dup := ok(full)
	dup.Bodies = append(dup.Bodies, dup.Bodies[3])
	unknown := ok(full)
	unknown.Bodies[2].Name = "nobody"
	wall := ok(full)
	wall.Bodies = append(wall.Bodies, Body{Name: "wall:bottom", Quaternion: [4]float64{1, 0, 0, 0}})
	nan := ok(full)
	nan.Bodies[1].Velocity[2] = math.NaN()
	neg := ok(full)
	neg.Time = -0.5
	names := ""
	for _, b := range full.Bodies[3:8] {
		names += b.Name + ", "
	}
	cases := []struct {
		name string
		f    File
		want string
	}{
		{"half", half, fmt.Sprintf("s.json: 7 of the 10 bodies of scene \"box-of-cubes\" are missing: %s, …", names[:len(names)-2])},
		{"duplicate", dup, fmt.Sprintf("s.json: bodies[10] (%s): duplicate of bodies[3]", full.Bodies[3].Name)},
		{"unknown", unknown, `s.json: bodies[2]: no body named "nobody" in scene "box-of-cubes"`},
		{"wall", wall, "s.json: bodies[10] (wall:bottom): names a wall"},
		{"nan", nan, "s.json: bodies[1] (" + full.Bodies[1].Name + "): velocity [0 0 NaN]: non-finite value"},
		{"negative time", neg, "s.json: time -0.5: want a finite time ≥ 0"},
		{"none", File{}, "s.json: no bodies"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := build(t, "box-of-cubes", "generators.0.count=10")
			x0 := w.Bodies()[len(w.Bodies())-1].X
			err := Apply(w, c.f, "s.json")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got %v, want %q…", err, c.want)
			}
			if w.Bodies()[len(w.Bodies())-1].X != x0 || w.Time != 0 {
				t.Fatal("the world changed on error")
			}
		})
	}
	if err := Apply(build(t, "box-of-cubes", "generators.0.count=10"), full, "s.json"); err != nil {
		t.Fatalf("the complete state: %v", err)
	}
}

// CheckTime accepts [0, end) only.
func TestCheckTime(t *testing.T) {
	for _, c := range []struct {
		t  float64
		ok bool
	}{{0, true}, {0.999, true}, {1, false}, {2, false}, {-1e-9, false}, {math.NaN(), false}} {
		err := CheckTime(File{Time: c.t}, "s.json", 1)
		if (err == nil) != c.ok {
			t.Fatalf("time %g: got %v, want ok=%v", c.t, err, c.ok)
		}
	}
}

// CheckPictureTime accepts [0, at]: a picture at the state's own time is
// the state drawn as it is; the message names the closed interval.
func TestCheckPictureTime(t *testing.T) {
	for _, c := range []struct {
		t  float64
		ok bool
	}{{0, true}, {0.999, true}, {1, true}, {1.001, false}, {-1e-9, false}, {math.NaN(), false}} {
		err := CheckPictureTime(File{Time: c.t}, "s.json", 1)
		if (err == nil) != c.ok {
			t.Fatalf("time %g: got %v, want ok=%v", c.t, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "[0, 1]") {
			t.Errorf("time %g: message %q does not name [0, 1]", c.t, err)
		}
	}
}

// A file on disk names its path; an unreadable one returns the OS error.
func TestReadPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(path, []byte("{\"time\": 0,\n\"bodies\": null}"), 0o644)
	if _, err := Read(path); err == nil || !strings.HasPrefix(err.Error(), path+":2: bodies is null") {
		t.Fatalf("got %v", err)
	}
	if _, err := Read(path + ".missing"); err == nil || !os.IsNotExist(err) {
		t.Fatalf("got %v, want a not-exist error", err)
	}
}
