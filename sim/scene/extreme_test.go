package scene

import (
	"errors"
	"strings"
	"testing"
)

// Extreme but finite values of every shape and region kind, set on the
// built-in scenes, build or fail with an *Error naming a line or the
// override; none panics (issue 13: builders return errors for every input).
func TestBuildExtremeValuesNoPanic(t *testing.T) {
	cases := []struct {
		scene string
		sets  []string
		want  string // a part of the error; "" when building or any located error will do
	}{
		{"sq-settling", []string{"shapes.grain.a=1e-300", "generators.0.count=10"}, "--set shapes.grain.a: shapes.grain: size out of range"},
		{"sq-settling", []string{"shapes.grain.a=1e300", "generators.0.count=10"}, "--set shapes.grain.a: shapes.grain: size out of range"},
		{"sq-settling", []string{"params.n=1e300", "generators.0.count=10"}, ""},
		{"sq-settling", []string{"params.n=1e6", "generators.0.count=10"}, "shapes.grain.n1: must be in [2, 20]"},
		{"sq-settling", []string{"shapes.grain.c=1e-30", "generators.0.count=10"}, ""},
		{"sq-settling", []string{"periodic.max=[1e300,1e300,1]", "generators.0.count=10"}, ""},
		{"sq-settling", []string{"periodic.min=[0,0,0]", "periodic.max=[1e-300,1e-300,1]", "generators.0.count=10"}, ""},
		{"sphere-piling", []string{"shapes.grain.radius=1e-300", "generators.0.count=10"}, "--set shapes.grain.radius: shapes.grain: size out of range"},
		{"sphere-piling", []string{"shapes.grain.radius=1e300", "generators.0.count=10"}, "--set shapes.grain.radius: shapes.grain: size out of range"},
		{"sphere-piling", []string{"generators.0.region.max=[1e300,1e300,1e300]", "generators.0.count=10"}, ""},
		{"sphere-piling", []string{"generators.0.region.min=[-1e4,-1e4,0]", "generators.0.region.max=[1e4,1e4,1]", "generators.0.count=10"}, ""},
		{"sphere-piling", []string{"generators.0.density=1e-300", "generators.0.count=10"}, "is below integrator.dt_min"},
		{"sphere-piling", []string{"generators.0.density=1e300", "generators.0.count=10"}, "--set generators.0.density: generators[0].density: mass"},
		{"tetrapod-twist", []string{"shapes.tetrapod.leg_length=1e300", "shapes.tetrapod.base_radius=1e299", "shapes.tetrapod.root_distance=1e299"}, ""},
		{"tetrapod-twist", []string{"shapes.tetrapod.leg_length=1e-300", "shapes.tetrapod.base_radius=1e-301", "shapes.tetrapod.root_distance=1e-301"}, ""},
		{"tetrapod-twist", []string{"shapes.tetrapod.tip_radius=0.16"}, ""},
		{"tetrapod-twist", []string{"shapes.tetrapod.root_distance=0"}, ""},
		{"box-of-tetrapods", []string{"shapes.tetrapod.scale=1e300", "generators.fill.count=3"}, ""},
		{"box-of-tetrapods", []string{"shapes.tetrapod.scale=1e-300", "generators.fill.count=3"}, ""},
		{"cube-drop-a", []string{"walls.0.size=[1e300,1e300]"}, "--set walls.0.size: walls[0]: mesh \"ground\": size out of range"},
		{"cube-drop-a", []string{"walls.0.size=[1e-300,1e-300]"}, ""},
		{"cube-drop-a", []string{"walls.0.normal=[1e-300,0,1e-300]"}, ""},
		{"cube-drop-a", []string{"walls.0.point=[1e300,0,0]"}, ""},
		{"cube-drop-a", []string{"bodies.cube.mass=1e-300"}, ""},
		{"cube-drop-a", []string{"bodies.cube.position=[1e300,0,0]"}, ""},
		{"cube-drop-a", []string{"contact.default.gbar=1e-300"}, ""},
		{"cube-drop-a", []string{"contact.default.gbar=1e300"}, ""},
		{"cube-drop-a", []string{"integrator.dt_min=1e-300"}, ""},
		{"sphere-box", []string{"contact.default.kn=1e-300", "generators.0.count=10"}, ""},
	}
	for _, c := range cases {
		s, err := LoadBuiltin(c.scene, c.sets...)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s %v: parse error is not an *Error: %v", c.scene, c.sets, err)
			}
			if c.want != "" && !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %v: got %v, want %q", c.scene, c.sets, err, c.want)
			}
			continue
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s %v: panic: %v", c.scene, c.sets, r)
				}
			}()
			_, err := Build(s)
			if err == nil {
				if c.want != "" {
					t.Errorf("%s %v: builds, want %q", c.scene, c.sets, c.want)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Line <= 0 && e.Set == "" {
				t.Errorf("%s %v: error without line or override: %v", c.scene, c.sets, err)
			}
			if c.want != "" && !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %v: got %v, want %q", c.scene, c.sets, err, c.want)
			}
		}()
	}
}
