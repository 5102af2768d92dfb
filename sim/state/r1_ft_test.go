package state

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// Review r1: cd's warm-start friction force (integrator: warm[k].ft,
// integrate.CDContact.Ft, a []float64 without a count tag) of the wrong
// count is refused only later, by integrate.RestoreState, with no line
// ("f.json: integrator: cd contact 0–1 [0 1 0 0]: ft has 4 components,
// want 3"); every other list of the file names its line (common rules:
// file, line and field).
func TestR1WarmFtCountHasLine(t *testing.T) {
	w, end := started(t, "sliding-block-a", "integrator.name=cd")
	to(t, w, 0.05, end)
	data, err := Encode(w)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(`"warm"`))
	j := bytes.Index(data[i:], []byte(`"ft":[`))
	if i < 0 || j < 0 {
		t.Fatalf("no warm start with ft in the file")
	}
	at := i + j + len(`"ft":[`)
	spoilt := append(append(append([]byte(nil), data[:at]...), "0,"...), data[at:]...)
	_, err = Parse(spoilt, "f.json")
	if err == nil { // Parse accepts it; Apply refuses it
		err = Apply(w, mustParse(t, spoilt), "f.json")
	}
	line := 1 + bytes.Count(data[:at], []byte("\n"))
	if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("f.json:%d: ", line)) {
		t.Fatalf("warm[0].ft with 4 numbers: error %v, want one at f.json:%d", err, line)
	}
}

func mustParse(t *testing.T, data []byte) File {
	f, err := Parse(data, "f.json")
	if err != nil {
		t.Fatal(err)
	}
	return f
}
