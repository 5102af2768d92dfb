package state

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// TestApplyErrorsNameLineAndField: a state file whose integrator state or
// edits the world refuses (Apply, after Parse) is an error naming the
// file, the line of the field and the field — edits by their index in
// history.edits (two edits may share a time) — and edits of more than one
// kind (a law with a value or a material, a law on a parameter's path)
// are refused with what an edit holds, not applied or misreported as an
// unknown material.
func TestApplyErrorsNameLineAndField(t *testing.T) {
	// A pile with two materials just past 0.01 s, with two edits at one time: a
	// law of the steel–default pair, then one of its parameters.
	build := func(in string) *world.World {
		w := twoMatBuild(t, "integrator.name="+in)
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
		to(t, w, 0.01, 1)
		return w
	}
	encode := func(w *world.World) string {
		data, err := Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	a := build("explicit")
	if err := a.SetLaw("contact.steel.default", world.LawEdit{Kind: "linear", Values: map[string]float64{"eps1": 1e5, "zeta": 0.3}}); err != nil {
		t.Fatal(err)
	}
	if err := a.SetParam("contact.steel.default.mu_d", 0.1); err != nil {
		t.Fatal(err)
	}
	edits := encode(a)
	ke := encode(build("newmark"))
	for _, c := range []struct {
		name, file, old, new string
		in                   string
		want                 string // the error after "s.json:LINE: "
	}{
		{"ke_max -1", ke, `"ke_max": `, `"ke_max": -1, "x_was": `, "newmark", "integrator: newmark ke_max -1"},
		{"unknown law kind", edits, `"kind":"linear"`, `"kind":"linear2"`, "explicit", `history.edits[0].law.kind (at 0.01 s): contact.steel.default: unknown normal law "linear2"`},
		{"unknown law key", edits, `"eps1":`, `"eps9":`, "explicit", `history.edits[0].law.values.eps9 (at 0.01 s): contact.steel.default.eps9: unknown contact parameter "eps9"`},
		{"eps1 -1", edits, `"eps1":100000`, `"eps1":-1`, "explicit", "history.edits[0].law (at 0.01 s): contact.steel.default: "},
		{"second edit at one time", edits, `"value":0.1`, `"value":-0.1`, "explicit", "history.edits[1] (at 0.01 s): contact.steel.default.mu_d: "},
		{"law with a value", edits, `"path":"contact.steel.default","law"`, `"path":"contact.steel.default","value":2,"law"`, "explicit", "history.edits[0].value (at 0.01 s): a law edit (path, law) with a value"},
		{"law with a parameter's path", edits, `"path":"contact.steel.default","law"`, `"path":"contact.default.mu_d","law"`, "explicit", "history.edits[0].path (at 0.01 s): contact.default.mu_d names the parameter mu_d: a law edit's path is a material pair"},
		{"law with a material", edits, `"path":"contact.steel.default","law"`, `"path":"contact.steel.default","material":"steel","law"`, "explicit", "history.edits[0].material (at 0.01 s): a law edit (path, law) with a material"},
		{"parameter with a material", edits, `"path":"contact.steel.default.mu_d"`, `"material":"steel","path":"contact.steel.default.mu_d"`, "explicit", "history.edits[1].material (at 0.01 s): a parameter edit (path, value) with a material"},
	} {
		if !strings.Contains(c.file, c.old) {
			t.Fatalf("%s: %q not in the file", c.name, c.old)
		}
		src := strings.Replace(c.file, c.old, c.new, 1)
		line := 1 + strings.Count(src[:strings.Index(src, c.new)], "\n")
		f, err := Parse([]byte(src), "s.json")
		if err != nil {
			t.Fatalf("%s: Parse: %v", c.name, err)
		}
		w := twoMatBuild(t, "integrator.name="+c.in)
		err = Apply(w, f, "s.json")
		want := fmt.Sprintf("s.json:%d: %s", line, strings.Replace(c.want, "(at 0.01 s)", fmt.Sprintf("(at %g s)", a.Time), 1))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v\nwant it to start %q", c.name, err, want)
		}
	}
	// The edits as written apply (the changed files above differ from it only where said).
	f, err := Parse([]byte(edits), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(twoMatBuild(t), f, "s.json"); err != nil {
		t.Errorf("the unchanged file: %v", err)
	}
	if !bytes.Contains([]byte(edits), fmt.Appendf(nil, `{"time":%v,"path":"contact.steel.default.mu_d"`, a.Time)) {
		t.Errorf("the second edit is not at the first's time: the test would not tell them apart")
	}
}
