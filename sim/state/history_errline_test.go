package state

import (
	"strings"
	"testing"
)

// TestHistoryErrorLine (review rv5): a bad value inside "history" (here
// the new pairs[i].chord) must be reported at its own line. Parse adds no
// base to json.UnmarshalTypeError/SyntaxError offsets, which a Decoder gives
// relative to the value being decoded (type errors) or to its buffer
// (syntax errors), so the line printed is not the chord's.
func TestHistoryErrorLine(t *testing.T) {
	pad := strings.Repeat(`  "x_pad": 0,`+"\n", 30)
	head := "{\n" + `  "version": 2,` + "\n" + `  "time": 0.1,` + "\n" + pad +
		`  "bodies": [{"name":"p0","position":[0,0,0],"quaternion":[1,0,0,0],"velocity":[0,0,0],"angular_velocity":[0,0,0]}],` + "\n" +
		`  "history": {` + "\n" + `    "pairs": [` + "\n"
	want := strings.Count(head, "\n") + 1 // the line of the bad pair
	for _, bad := range []string{`"x"`, `[NaN,0]`} {
		src := head + `      {"a":0,"b":1,"chord":` + bad + `}` + "\n    ]\n  }\n}\n"
		_, err := Parse([]byte(src), "f.json")
		if err == nil {
			t.Fatalf("chord %s accepted", bad)
		}
		if !strings.HasPrefix(err.Error(), "f.json:"+itoaRV5(want)+":") {
			t.Errorf("chord %s: error %q, want it at line %d", bad, err, want)
		}
	}
}

func itoaRV5(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoaRV5(n/10) + string(rune('0'+n%10))
}
