package state

import (
	"bytes"
	"testing"
)

// Review r1: encoding/json matches a key to a field by bytes.EqualFold, under
// which "ſ" (U+017F, long s) equals "s" (and "K" U+212A equals "k"); the
// count walk matches only exact or strings.ToLower keys, so a list under
// such a key is read into the field without its count checked (extra numbers
// dropped, missing ones zero) — exactly what checkCounts exists to refuse.
func TestR1CountCheckFoldedKey(t *testing.T) {
	w, end := started(t, "sliding-block-a", "integrator.name=cd")
	to(t, w, 0.01, end)
	data, err := Encode(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ key, folded string }{
		{`"shift":[`, `"ſhift":[`},
		{`"ref_s":[`, `"ref_ſ":[`},
	} {
		at := bytes.Index(data, []byte(c.key))
		if at < 0 {
			t.Fatalf("no %s in the file", c.key)
		}
		// the exact key with one more number is refused (TestHistoryArrayCounts)
		spoilt := append(append(append([]byte(nil), data[:at]...), c.key+"1e300,"...), data[at+len(c.key):]...)
		if _, err := Parse(spoilt, "f.json"); err == nil {
			t.Fatalf("%s with one more number accepted", c.key)
		}
		// the same under the folded key
		spoilt = append(append(append([]byte(nil), data[:at]...), c.folded+"1e300,"...), data[at+len(c.key):]...)
		f, err := Parse(spoilt, "f.json")
		if err == nil {
			t.Errorf("%s (encoding/json reads it as %s) with one more number accepted; the history read: %+v", c.folded, c.key, f.History.Pairs[0].Shift)
		}
	}
}
