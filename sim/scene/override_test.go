package scene

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"grainlab/sim/geom"
)

// Overrides reach their value: scalars, list entries by name and by index,
// keys the file omits but the schema allows, vectors, whole sub-trees.
func TestOverrides(t *testing.T) {
	data, err := os.ReadFile("testdata/good/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set   []string
		check func(s *Spec) bool
	}{
		{[]string{"time=3"}, func(s *Spec) bool { return s.Time == 3 }},
		{[]string{"contact.default.mu_s=0.55"}, func(s *Spec) bool { return s.Contact.Default.Set.Friction.MuS == 0.55 }},
		// A pair inherits default values it does not set itself.
		{[]string{"contact.default.zeta=0.3"}, func(s *Spec) bool {
			return s.Contact.Pairs[0].Law.Set.Zeta == 0.3 && s.Contact.Pairs[1].Law.Set.Zeta == 0.7
		}},
		{[]string{"integrator.dt=2e-5"}, func(s *Spec) bool { return s.Integrator.Dt == 2e-5 }},
		{nil, func(s *Spec) bool { return s.Integrator.DampLag && s.Integrator.DampLagEntry }}, // the defaults
		{[]string{"integrator.damp_lag=false"}, func(s *Spec) bool { return !s.Integrator.DampLag }},
		{[]string{"integrator.damp_lag_entry=false"}, func(s *Spec) bool {
			return s.Integrator.DampLag && !s.Integrator.DampLagEntry
		}},
		{[]string{"generators.fill.count=1005"}, func(s *Spec) bool { return s.Generators[0].Count == 1005 }},
		{[]string{"generators.0.count=7"}, func(s *Spec) bool { return s.Generators[0].Count == 7 }},
		{[]string{"generators[0].count=8"}, func(s *Spec) bool { return s.Generators[0].Count == 8 }},
		{[]string{"bodies.q.position=[0, 0, 1]"}, func(s *Spec) bool { return s.Bodies[0].Position == geom.Vec3{Z: 1} }},
		{[]string{"bodies.2.velocity=[1,2,3]"}, func(s *Spec) bool { return s.Bodies[2].Velocity == geom.Vec3{X: 1, Y: 2, Z: 3} }},
		{[]string{"bodies.aa.orientation={euler_deg: [0, 0, 90]}"}, func(s *Spec) bool {
			return s.Bodies[1].Orientation.Rotate(geom.Vec3{X: 1}).Sub(geom.Vec3{Y: 1}).Norm() < 1e-12
		}},
		{[]string{"bodies.rot.orientation.rotations.1.deg=0"}, func(s *Spec) bool {
			return s.Bodies[3].Orientation.AngleTo(geom.QAxisAngle(geom.Vec3{X: 1}, 1.5707963267948966)) < 1e-12
		}},
		{[]string{"walls.bin.names.front=port"}, func(s *Spec) bool { return s.Walls[3].Name == "port" }},
		{[]string{"walls.ground.size=[8, 8]"}, func(s *Spec) bool { return s.Walls[0].Size == [2]float64{8, 8} }},
		{[]string{"contact.pairs.1.between=[a, b]"}, func(s *Spec) bool { return s.Contact.Pairs[1].Between == [2]string{"a", "b"} }},
		{[]string{"shapes.cube.size=[1,1,1]"}, func(s *Spec) bool { return s.Shapes["cube"].Size == geom.Vec3{X: 1, Y: 1, Z: 1} }},
		{[]string{"params.rho=1000"}, func(s *Spec) bool { return s.Bodies[0].Density == 1000 }},
		{[]string{"output.contacts=final"}, func(s *Spec) bool { return s.Output.Contacts == "final" }},
		{[]string{"events.0=at 0.5 s enable walls west"}, func(s *Spec) bool {
			return s.Events[0].At == 0.5 && reflect.DeepEqual(s.Events[0].EnableWalls, []string{"west"})
		}},
		{[]string{"loads.push.force.t1=0.5"}, func(s *Spec) bool { return s.Loads[0].Force.T1 == 0.5 }},
		{[]string{"time=3", "time=4"}, func(s *Spec) bool { return s.Time == 4 }}, // last wins
		// Spaces around "=" and in the value are fine.
		{[]string{" integrator.safety = 0.1 "}, func(s *Spec) bool { return s.Integrator.Safety == 0.1 }},
	} {
		s, err := ParseWithOverrides(data, "full.yaml", c.set)
		if err != nil {
			t.Errorf("%q: %v", c.set, err)
			continue
		}
		if !c.check(s) {
			t.Errorf("%q did not reach its value", c.set)
		}
	}
}

// Keys absent from the file but valid in the schema can be set, including
// whole sections the file omits.
func TestOverrideAbsentKeys(t *testing.T) {
	data := []byte(`time: 1
integrator: {dt: 1.0e-4}
contact:
  default: {gbar: 0.001, eps1: 2.0e5}
shapes:
  cube: {type: box, size: [0.1, 0.1, 0.1]}
bodies:
  - {name: cube, shape: cube, density: 1000}
`)
	s, err := ParseWithOverrides(data, "min.yaml", []string{
		"contact.default.zeta=0.25",
		"integrator.beta=0.3",
		"output.every=0.5",
		"bodies.cube.angular_velocity=[0, 0, 2]",
		"bodies.cube.orientation.axis_angle={axis: [0, 0, 1], deg: 90}",
		"description=set from the command line",
		"walls=[{name: floor, type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]",
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Contact.Default.Set.Zeta != 0.25 || s.Integrator.Beta == nil || *s.Integrator.Beta != 0.3 || s.Output.Every != 0.5 ||
		s.Bodies[0].AngularVelocity.Z != 2 || s.Description != "set from the command line" || s.Walls[0].Name != "floor" ||
		s.Bodies[0].Orientation.Rotate(geom.Vec3{X: 1}).Sub(geom.Vec3{Y: 1}).Norm() > 1e-12 {
		t.Errorf("absent keys not set: %+v", s)
	}
	if src := s.Src["contact.default.zeta"]; src.Set != "--set contact.default.zeta" || src.Line != 0 {
		t.Errorf("source of an overridden value: %+v", src)
	}
	if got := s.Errorf("contact.default.zeta", "too big").Error(); got != "--set contact.default.zeta: too big" {
		t.Errorf("Errorf on an override: %s", got)
	}
	// An override into an empty file builds the scene.
	if _, err := ParseWithOverrides(nil, "empty.yaml", []string{"time=1"}); err == nil ||
		err.Error() != `empty.yaml:1: missing required key "integrator"` {
		t.Errorf("override on an empty file: %v", err)
	}
}

// Bad overrides are errors that name the override and the key.
func TestOverrideErrors(t *testing.T) {
	data, _ := os.ReadFile("testdata/good/full.yaml")
	for _, c := range []struct{ set, want string }{
		{"contact.default.mu_x=0.5", `--set contact.default.mu_x: unknown key "mu_x" in contact.default (did you mean "mu_s"?)`},
		{"contact.defualt.mu_s=0.5", `--set contact.defualt.mu_s: unknown key "defualt" in contact (did you mean "default"?)`},
		{"tme=3", `--set tme: unknown key "tme" at the top level (did you mean "time"?)`},
		{"integrator.dt=abc", `--set integrator.dt: expected a number, got "abc"`},
		{"integrator.dt=.nan", `--set integrator.dt: must be a finite number, got .nan`},
		{"integrator.dt=-1", `--set integrator.dt: must be > 0, got -1`},
		{"integrator.damp_lag=1", `--set integrator.damp_lag: expected true or false, got "1"`},
		{"bodies.q.position=[0, 1]", `--set bodies.q.position: bodies[0].position: expected 3 numbers [x, y, z], got 2`},
		{"bodies.nobody.mass=1", `--set bodies.nobody.mass: no entry named "nobody" in bodies (names: q, aa, eu, rot); address entries by name or index`},
		{"bodies.9.mass=1", `--set bodies.9.mass: index 9 out of range: bodies has 4 entries`},
		{"bodies.q.density.x=1", `--set bodies.q.density.x: bodies.q.density is a single value; it has no key "x"`},
		{"bodies.q.mass=1", `--set bodies.q.mass: bodies[0].mass: give only one of "density" or "mass" (also got "density")`},
		{"time", `--set time: expected key.path=value`},
		{"a..b=1", `--set a..b: bad key path "a..b" (use names separated by dots, e.g. contact.default.mu_s)`},
		{"time=[1", `--set time: cannot read value "[1": did not find expected ',' or ']'`},
		{"shapes.cube.type=ball", `--set shapes.cube.type: must be one of box | tetrapod | stl | sphere | superquadric, got "ball"`},
		{"contact.default.damp_band=1.5", `--set contact.default.damp_band: must be in [0, 1], got 1.5`},
	} {
		_, err := ParseWithOverrides(data, "full.yaml", []string{c.set})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.set, err, c.want)
		}
		var e *Error
		if err != nil && (!errors.As(err, &e) || !strings.HasPrefix(e.Set, "--set ")) {
			t.Errorf("%s: not an override *Error: %#v", c.set, err)
		}
	}
	// The entry fraction needs the lag.
	if _, err := ParseWithOverrides(data, "full.yaml", []string{"integrator.damp_lag=false", "integrator.damp_lag_entry=true"}); err == nil ||
		err.Error() != "--set integrator.damp_lag_entry: needs damp_lag: true" {
		t.Errorf("damp_lag_entry without damp_lag: %v", err)
	}
	// Lists absent from the file cannot be addressed.
	_, err := ParseWithOverrides([]byte("time: 1\n"), "t.yaml", []string{"generators.fill.count=3"})
	if err == nil || err.Error() != "--set generators.fill.count: generators has no entries to address" {
		t.Errorf("absent list: %v", err)
	}
}

// Overriding through a YAML alias changes only that use, not the anchor.
func TestOverrideAliasCopyOnWrite(t *testing.T) {
	data := []byte(`time: 1
integrator: {dt: 1.0e-4}
contact:
  default: &law {gbar: 0.001, eps1: 2.0e5, mu_s: 0.1}
  pairs:
    - {between: [a, b], <<: *law}
shapes:
  cube: {type: box, size: &s [0.1, 0.1, 0.1]}
  big: {type: box, size: *s}
`)
	s, err := ParseWithOverrides(data, "alias.yaml", []string{"shapes.big.size.0=1", "contact.default.mu_s=0.9"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Shapes["big"].Size.X != 1 || s.Shapes["cube"].Size.X != 0.1 {
		t.Errorf("alias copy on write: cube %v big %v", s.Shapes["cube"].Size, s.Shapes["big"].Size)
	}
	// Overriding the anchored value itself edits it where it is written, so
	// the pair that merges it sees the change too.
	if s.Contact.Default.Set.Friction.MuS != 0.9 || s.Contact.Pairs[0].Law.Set.Friction.MuS != 0.9 {
		t.Errorf("mu_s default %v pair %v", s.Contact.Default.Set.Friction.MuS, s.Contact.Pairs[0].Law.Set.Friction.MuS)
	}
}

// The paper-size tetrapod box is one override away.
func TestLoadBuiltinOverride(t *testing.T) {
	s := mustBuiltin(t, "box-of-tetrapods", "generators.fill.count=1005")
	if s.Generators[0].Count != 1005 {
		t.Errorf("count %d", s.Generators[0].Count)
	}
	_, err := LoadBuiltin("cube-drop-a", "contact.default.gbar=0")
	if err == nil || err.Error() != "--set contact.default.gbar: must be > 0, got 0" {
		t.Errorf("builtin override error: %v", err)
	}
}

// Spec.With re-applies the scene with an event's assignments.
func TestSpecWith(t *testing.T) {
	s := mustBuiltin(t, "cube-drop-a", "contact.default.zeta=0.1")
	ev, msg := parseEventString("at 1 s set contact.default.mu_s = 0.5; set contact.default.mu_d = 0.25")
	if msg != "" {
		t.Fatal(msg)
	}
	s2, err := s.With(ev.Set...)
	if err != nil {
		t.Fatal(err)
	}
	if l := s2.Contact.Default; l.Set.Friction.MuS != 0.5 || l.Set.Friction.MuD != 0.25 || l.Set.Zeta != 0.1 || s.Contact.Default.Set.Friction.MuS != 0 {
		t.Errorf("With: %+v", l)
	}
	if s2.fsys == nil || s2.File != s.File {
		t.Error("With lost the built-in file system")
	}
	if _, err := s.With(Assignment{"contact.default.mu_x", "1"}); err == nil ||
		err.Error() != `--set contact.default.mu_x: unknown key "mu_x" in contact.default (did you mean "mu_s"?)` {
		t.Errorf("With bad path: %v", err)
	}
}
