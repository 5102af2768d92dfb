package scene

import (
	"strings"
	"testing"
)

// contact.skin: auto (the default: the world chooses, Settings.Skin 0) or
// a skin in metres from a hundredth of the smallest body's radius to its
// diameter; bad values are
// errors naming file, line and key (a file) or the override (--set).
func TestContactSkin(t *testing.T) {
	src := `name: skin
time: 1
integrator: {name: explicit, dt: 1.0e-4}
contact:
  default: {model: hooke, kn: 100, gamma_n: 20}
  skin: SKIN
shapes:
  ball: {type: sphere, radius: 0.001}
bodies:
  - {name: a, shape: ball, density: 1000, position: [0, 0, 1]}
`
	for _, c := range []struct {
		skin string
		want float64 // Settings.Skin; −1: want the error
		err  string
	}{
		{"auto", 0, ""},
		{"0.0005", 0.0005, ""},
		{"0.002", 0.002, ""}, // the diameter: the bound is allowed
		{"0", -1, "skin.yaml:6: contact.skin: must be auto or a skin > 0 in metres, got 0"},
		{"-1e-4", -1, "skin.yaml:6: contact.skin: must be auto or a skin > 0 in metres, got -0.0001"},
		{".nan", -1, "skin.yaml:6: contact.skin: must be a finite number"},
		{".inf", -1, "skin.yaml:6: contact.skin: must be a finite number"},
		{"automatic", -1, "skin.yaml:6: contact.skin"},
		{"1e-5", 1e-5, ""}, // a hundredth of the radius: the lower bound is allowed
		{"9.9e-6", -1, "skin.yaml:6: contact.skin: must be at least a hundredth of the smallest body's radius (1e-05 m)"},
		{"5e-324", -1, "skin.yaml:6: contact.skin: must be at least a hundredth"},
		{"0.0021", -1, "skin.yaml:6: contact.skin: must be at most the smallest body's diameter (0.002 m), got 0.0021"},
	} {
		t.Run(c.skin, func(t *testing.T) {
			s, err := Parse([]byte(strings.Replace(src, "SKIN", c.skin, 1)), "skin.yaml")
			if err == nil {
				w, berr := Build(s)
				if berr == nil {
					if c.want < 0 {
						t.Fatalf("skin %s: built with Settings.Skin %g, want an error %q", c.skin, w.Settings.Skin, c.err)
					}
					if w.Settings.Skin != c.want {
						t.Fatalf("skin %s: Settings.Skin %g, want %g", c.skin, w.Settings.Skin, c.want)
					}
					return
				}
				err = berr
			}
			if c.want >= 0 || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("skin %s: got %v, want an error containing %q", c.skin, err, c.err)
			}
		})
	}
	// An override is named as such.
	s, err := LoadBuiltin("sphere-box-soft", "contact.skin=-1")
	if err == nil {
		_, err = Build(s)
	}
	if err == nil || !strings.HasPrefix(err.Error(), "--set contact.skin: ") {
		t.Fatalf("got %v, want an error starting with %q", err, "--set contact.skin: ")
	}
}
