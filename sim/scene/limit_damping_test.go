package scene

import (
	"strings"
	"testing"
)

// limit_damping (LAMMPS' keyword for the no-tension clamp of the smooth
// laws) is off by default, on where given (default block, --set), per
// material pair like the other law keys, and anything but a boolean is
// refused naming file, line and key.
func TestLimitDamping(t *testing.T) {
	for _, c := range []struct {
		sets []string
		want bool
	}{
		{nil, false},
		{[]string{"contact.default.limit_damping=true"}, true},
		{[]string{"contact.default.limit_damping=false"}, false},
	} {
		s, err := LoadBuiltin("sphere-box", c.sets...)
		if err != nil {
			t.Fatal(err)
		}
		w, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.DefaultParams().Smooth.LimitDamping; got != c.want {
			t.Errorf("%v: LimitDamping %v, want %v", c.sets, got, c.want)
		}
	}

	const scene = `name: t
time: 0.1
integrator: {name: explicit, dt: 1.0e-5}
contact:
  default: {model: hooke, kn: 1.0e4, gamma_n: 20}
  pairs:
    - between: [a, b]
      limit_damping: true
shapes:
  ball: {type: sphere, radius: 0.001}
bodies:
  - {name: p, shape: ball, material: a, density: 2500, position: [0, 0, 0.01]}
  - {name: q, shape: ball, material: b, density: 2500, position: [0, 0, 0.02]}
`
	s, err := Parse([]byte(scene), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	a, b := w.Bodies()[0].Material, w.Bodies()[1].Material
	if !w.Params(a, b).Smooth.LimitDamping || w.Params(a, a).Smooth.LimitDamping {
		t.Errorf("pair [a, b]: %v, [a, a]: %v; want true, false",
			w.Params(a, b).Smooth.LimitDamping, w.Params(a, a).Smooth.LimitDamping)
	}
	bad := strings.Replace(scene, "limit_damping: true", "limit_damping: 1", 1)
	_, err = Parse([]byte(bad), "t.yaml")
	if err == nil || !strings.Contains(err.Error(), "t.yaml:8") || !strings.Contains(err.Error(), "limit_damping") {
		t.Errorf("limit_damping: 1 gives %v, want an error at t.yaml:8 naming the key", err)
	}
}
