package scene

import (
	"strings"
	"testing"
)

// record.every and record.keyframes: defaults (0: output.every; 1 s),
// values from the file and from --set, and a bad value naming file, line
// and key.
func TestRecordKeys(t *testing.T) {
	base := `time: 1
integrator: {dt: 1.0e-4}
contact:
  default: {gbar: 0.001, eps1: 2.0e5}
shapes:
  cube: {type: box, size: [0.1, 0.1, 0.1]}
bodies:
  - {name: cube, shape: cube, density: 1000}
`
	s, err := Parse([]byte(base), "min.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Record.Every != 0 || s.Record.Keyframes != 1 {
		t.Errorf("defaults: %+v, want every 0 (output.every), keyframes 1", s.Record)
	}
	s, err = ParseWithOverrides([]byte(base+"record: {every: 0.002}\n"), "min.yaml", []string{"record.keyframes=0.25"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Record.Every != 0.002 || s.Record.Keyframes != 0.25 {
		t.Errorf("set: %+v, want every 0.002, keyframes 0.25", s.Record)
	}
	for _, c := range []struct{ text, want string }{
		{"record: {every: -1}\n", "min.yaml:9: record.every: must be > 0, got -1"},
		{"record:\n  keyframes: 0\n", "min.yaml:10: record.keyframes: must be > 0, got 0"},
		{"record: {evry: 1}\n", "min.yaml:9"},
	} {
		_, err := Parse([]byte(base+c.text), "min.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}
