package state

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"grainlab/sim/integrate"
)

// TestHistoryArrayCounts: every list of a state file's history and
// integrator state that is read into a fixed-size array ([N]T: a pair's
// mid, spring, shift, a contact's key, pa, pb, n, ft, m, gt, a feature
// list's entries and ref_t/ref_q/ref_s, a wall's force, the Verlet
// reference centres, a ghost's shift, the statistics' ByKind and
// RejectedBy, cd's warm-start keys) or into a list of a fixed count (sep:
// 9, chord: 17) must hold exactly that many numbers: one more or one fewer
// is an error naming the file, the list's own line and the field
// ("f.json:L: history: pairs[3].mid has 4 numbers, want 3"), as a null in
// place of an array that is not optional. encoding/json alone drops extra
// numbers and reads missing ones as zeros. The files are real ones
// (Encode): a superquadric bed (periodic: ghosts; pairs with warm starts,
// certificates, Jacobians and contacts), the sphere box (spring bounds)
// and the sliding block under cd (feature lists, warm starts).
func TestHistoryArrayCounts(t *testing.T) {
	sqw, end := started(t, "sq-settling", "generators[0].count=120")
	to(t, sqw, 0.04, end)
	sqData, err := Encode(sqw)
	if err != nil {
		t.Fatal(err)
	}
	spw, end := started(t, "sphere-box")
	to(t, spw, 0.02, end)
	spData, err := Encode(spw)
	if err != nil {
		t.Fatal(err)
	}
	cdw, end := started(t, "sliding-block-a", "integrator.name=cd")
	to(t, cdw, 0.01, end)
	cdData, err := Encode(cdw)
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{sqData, spData, cdData} {
		if _, err := Parse(data, "f.json"); err != nil {
			t.Fatalf("the file as written: %v", err)
		}
	}
	for _, c := range []struct {
		data     []byte
		key      string // the list after `"key":` (inner: its first entry)
		inner    bool
		field    string // what the error names
		n        int
		optional bool // behind a pointer: null is absent
	}{
		{sqData, "mid", false, ".mid", 3, true},
		{spData, "spring", false, ".spring", 2, true},
		{sqData, "sep", false, ".sep", 9, true},
		{sqData, "chord", false, ".chord", 17, true},
		{sqData, "shift", false, ".shift", 3, false},
		{sqData, "key", false, ".key", 6, false},
		{sqData, "pa", false, ".pa", 3, false},
		{sqData, "pb", false, ".pb", 3, false},
		{sqData, "n", false, ".n", 3, false},
		{sqData, "ft", false, ".ft", 3, false},
		{sqData, "m", false, ".m", 3, false},
		{sqData, "gt", false, ".gt", 3, false},
		{sqData, "verlet_ref", true, "history: verlet_ref[0]", 3, false},
		{sqData, "ByKind", false, "history: stats.ByKind", 5, false},
		{sqData, "RejectedBy", false, "history: stats.RejectedBy", 4, false},
		{cdData, "force", false, "history: walls[0].force", 3, false},
		{cdData, "fv", true, ".cache.fv[0]", 2, false},
		{cdData, "ref_t", false, ".cache.ref_t", 3, false},
		{cdData, "ref_q", false, ".cache.ref_q", 4, false},
		{cdData, "ref_s", false, ".cache.ref_s", 3, false},
		{cdData, "warm", true, "integrator: warm[0].key", 4, false},
	} {
		at, ok := listAt(c.data, c.key, c.inner)
		if !ok {
			t.Errorf("%s: no such list in the file", c.key)
			continue
		}
		if c.key == "warm" { // the first warm start's key
			k := bytes.Index(c.data[at:], []byte(`"key":[`))
			at += k + len(`"key":`)
		}
		stop := at + bytes.IndexByte(c.data[at:], ']')
		if got := bytes.Count(c.data[at:stop], []byte(",")) + 1; got != c.n {
			t.Fatalf("%s: the file's list has %d numbers, the test expects %d", c.key, got, c.n)
		}
		line := 1 + bytes.Count(c.data[:at], []byte("\n"))
		last := bytes.LastIndexByte(c.data[at:stop], ',') + at
		for _, m := range []struct {
			what, with, want string
		}{
			{"one more", string(c.data[at:stop]) + ",0", fmt.Sprintf("has %d numbers, want %d", c.n+1, c.n)},
			{"one fewer", string(c.data[at:last]), fmt.Sprintf("has %d numbers, want %d", c.n-1, c.n)},
			{"null", "null", fmt.Sprintf("is null: want %d numbers", c.n)},
		} {
			var spoilt []byte
			if m.what == "null" {
				spoilt = append(append(append([]byte(nil), c.data[:at]...), "null"...), c.data[stop+1:]...)
			} else {
				spoilt = append(append(append([]byte(nil), c.data[:at]...), m.with+"]"...), c.data[stop+1:]...)
			}
			_, err := Parse(spoilt, "f.json")
			if m.what == "null" && c.optional {
				if err != nil {
					t.Errorf("%s null (absent): %v", c.key, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s with %s number: accepted", c.key, m.what)
				continue
			}
			prefix := fmt.Sprintf("f.json:%d: ", line)
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.field+" "+m.want) {
				t.Errorf("%s with %s: error %q, want %q… %q", c.key, m.what, err, prefix, c.field+" "+m.want)
			}
		}
	}
}

// listAt returns the offset of the list that follows the first `"key":`
// in the history or integrator state (inner: of that list's first entry).
func listAt(data []byte, key string, inner bool) (int, bool) {
	h := bytes.Index(data, []byte(`"integrator"`))
	if h < 0 {
		return 0, false
	}
	k, sep := bytes.Index(data[h:], []byte(`"`+key+`":[`)), ":"
	if k < 0 { // a member of the history's or the integrator's own object
		k, sep = bytes.Index(data[h:], []byte(`"`+key+`": [`)), ": "
	}
	if k < 0 {
		return 0, false
	}
	at := h + k + len(`"`+key+`"`+sep)
	if inner {
		at++
		for data[at] != '[' && data[at] != '{' {
			at++
		}
	}
	return at, true
}

// FuzzParse: no state file makes Parse (with its count checks) panic; a
// file it accepts, encoded again, is accepted again.
// Seeds: the sliding block's complete file under cd and the explicit one.
func FuzzParse(f *testing.F) {
	for _, sets := range [][]string{{"integrator.name=cd"}, nil} {
		w, end := started(f, "sliding-block-a", sets...)
		if _, err := integrate.AdvancePast(w, 0.005, end, nil); err != nil {
			f.Fatal(err)
		}
		data, err := Encode(w)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version":2,"time":0,"bodies":[{"name":"a","position":[0,0,0],"quaternion":[1,0,0,0],"velocity":[0,0,0],"angular_velocity":[0,0,0]}],"history":{"pairs":[{"a":0,"b":1,"mid":[1,2,3,4]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data, "f.json")
		if err != nil {
			return
		}
		again, err := EncodeFile(file)
		if err != nil {
			t.Fatalf("an accepted file does not encode: %v", err)
		}
		if _, err := Parse(again, "again.json"); err != nil {
			t.Fatalf("an accepted file, encoded again, is refused: %v", err)
		}
	})
}
