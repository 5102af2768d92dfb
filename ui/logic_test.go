package ui

import (
	"errors"
	"math"
	"strings"
	"testing"

	"grainlab/sim/law"
	"grainlab/sim/snap"
)

var testLaw = LawParams{Kind: "barrier", Eps2: 2e4, C2: 0.1, Set: law.Set{
	Normal: law.Normal{GBar: 1e-3, Eps1: 1e4, N1: 2, F: 0.5, N2: 3}, Zeta: 0.1,
	Friction: law.Friction{MuS: 0.5, MuD: 0.4, EpsT: 1e5, CT: 0.123456789012345}}}

func TestParseNumber(t *testing.T) {
	for _, c := range []struct {
		in  string
		ok  bool
		val float64
	}{{"1e-3", true, 1e-3}, {" 2.5 ", true, 2.5}, {"-7", true, -7}, {"abc", false, 0}, {"", false, 0},
		{"nan", false, 0}, {"NaN", false, 0}, {"inf", false, 0}, {"-Inf", false, 0}, {"1e999", false, 0}} {
		v, err := ParseNumber(c.in)
		if (err == nil) != c.ok || (c.ok && v != c.val) {
			t.Errorf("ParseNumber(%q) = %v, %v", c.in, v, err)
		}
	}
	for _, v := range []float64{0.1, 1e-300, 123456.789, math.Pi, -2.5e17} {
		if got, err := ParseNumber(FormatEdit(v)); err != nil || got != v {
			t.Errorf("round trip %v → %q → %v", v, FormatEdit(v), got)
		}
	}
}

func TestEditorGatesInvalidEdits(t *testing.T) {
	e := NewEditor(lawFields)
	validate := chain(ownLawCheck, func(l LawParams) error {
		if l.Normal.GBar > 0.01 {
			return errors.New("gbar too large")
		}
		return nil
	})
	e.Sync(testLaw)
	if e.Bufs[0] != "0.001" || e.Dirty() {
		t.Fatalf("buffers %q dirty=%v", e.Bufs[0], e.Dirty())
	}
	// garbage: error next to the field, nothing to commit
	if _, ok := e.Edit(0, "abc", validate); ok {
		t.Fatal("garbage accepted")
	}
	if e.FieldError(0) != "not a number" {
		t.Fatalf("field error %q", e.FieldError(0))
	}
	if _, ok := e.Commit(validate); ok {
		t.Fatal("committed garbage")
	}
	// NaN and Inf never pass, even without an external validator
	for _, s := range []string{"NaN", "+Inf"} {
		if _, ok := e.Edit(1, s, nil); ok || e.FieldError(1) != "must be finite" {
			t.Fatalf("%s: error %q", s, e.FieldError(1))
		}
	}
	e.Edit(1, "10000", validate)
	// finite but rejected by the validator: the reason sits next to the edited field
	if _, ok := e.Edit(0, "0.5", validate); ok {
		t.Fatal("validator ignored")
	}
	if e.FieldError(0) != "gbar too large" || e.FieldError(1) != "" {
		t.Fatalf("errors %q / %q", e.FieldError(0), e.FieldError(1))
	}
	// while dirty, Sync does not clobber the buffers
	e.Sync(testLaw)
	if e.Bufs[0] != "0.5" {
		t.Fatal("Sync overwrote an edit in progress")
	}
	// a valid edit commits, with every other field bit-exact
	if _, ok := e.Edit(0, "2e-3", validate); !ok {
		t.Fatalf("valid edit rejected: %q", e.FieldError(0))
	}
	got, ok := e.Commit(validate)
	if !ok {
		t.Fatal("commit failed")
	}
	want := testLaw
	want.Normal.GBar = 2e-3
	if got != want {
		t.Fatalf("committed %+v\nwant %+v", got, want)
	}
	if e.Dirty() {
		t.Fatal("still dirty after commit")
	}
	// the app has not applied it yet: the old value must not flash back
	e.Sync(testLaw)
	if e.Bufs[0] != "2e-3" {
		t.Fatalf("buffer reverted to %q before the app applied the change", e.Bufs[0])
	}
	// the app applied it (sim re-derived eps2)
	applied := want
	applied.Eps2 = 3e4
	e.Sync(applied)
	if e.Base() != applied {
		t.Fatal("Sync did not adopt the applied value")
	}
	// own checks: negative friction
	if _, ok := e.Edit(6, "-1", validate); ok || !strings.Contains(e.FieldError(6), "friction") {
		t.Fatalf("negative mu_s: %q", e.FieldError(6))
	}
	e.Reset(applied)
	if e.Dirty() || e.FieldError(6) != "" {
		t.Fatal("Reset")
	}
	// non-text change (law kind)
	c, ok := e.Modify(func(l *LawParams) { l.Kind = "hertz" }, validate)
	if !ok || c.Kind != "hertz" || c.Normal.GBar != applied.Normal.GBar {
		t.Fatalf("Modify: %+v %v", c, ok)
	}
}

func TestMaterialEditor(t *testing.T) {
	e := NewEditor(materialFields)
	m := Material{Index: 1, Name: "sq", Kind: "superquadric", Count: 3, N1: 4, N2: 4, A: 0.1, B: 0.1, C: 0.05}
	e.Sync(m)
	v := chain(basicMaterialCheck, nil)
	for _, bad := range []struct {
		field int
		text  string
	}{{0, "0"}, {1, "-0.1"}, {2, "NaN"}, {materialExpField, "1.9"}, {materialExpField + 1, "10.5"}, {materialExpField, "inf"}} {
		if _, ok := e.Edit(bad.field, bad.text, v); ok {
			t.Errorf("%s = %q accepted", materialFields[bad.field].Label, bad.text)
		}
		e.Reset(m)
	}
	if _, ok := e.Edit(0, "0.2", v); !ok {
		t.Fatal(e.FieldError(0))
	}
	if _, ok := e.Edit(materialExpField+1, "2", v); !ok { // the range ends are allowed
		t.Fatal(e.FieldError(materialExpField + 1))
	}
	got, ok := e.Commit(v)
	if !ok || got.A != 0.2 || got.N2 != 2 || got.Name != "sq" || got.Index != 1 || got.Kind != "superquadric" {
		t.Fatalf("%+v %v", got, ok)
	}
}

func TestSmoothLawEditor(t *testing.T) {
	cur := SmoothLaw{Model: "hooke", Set: law.Set{Smooth: law.Smooth{Kn: 10, GammaN: 20, Kt: 0, GammaT: 10, Mu: 0.5, CapQ: 10}}}
	e := NewEditor(smoothFields)
	e.Sync(cur)
	v := chain(ownSmoothCheck, nil)
	if _, ok := e.Edit(0, "-1", v); ok {
		t.Fatal("negative kn accepted")
	}
	e.Edit(0, "12.5", v)
	e.Edit(7, "0.3", v)
	c, ok := e.Commit(v)
	if !ok {
		t.Fatal(e.Err)
	}
	ch := smoothChanges(nil, cur, c)
	if len(ch) != 2 || ch[0] != (ParamEdit{"kn", 12.5}) || ch[1] != (ParamEdit{"mu", 0.3}) {
		t.Fatalf("changes %+v", ch)
	}
	for i, f := range smoothFields {
		hooke, mat := smoothFieldUsed("hooke", i), smoothFieldUsed("hertz-material", i)
		switch f.Label {
		case "kn", "gamma_n", "kt", "gamma_t":
			if !hooke || mat {
				t.Errorf("%s: hooke %v material %v", f.Label, hooke, mat)
			}
		case "youngs_modulus", "poisson_ratio", "restitution":
			if hooke || !mat {
				t.Errorf("%s: hooke %v material %v", f.Label, hooke, mat)
			}
		default:
			if !hooke || !mat {
				t.Errorf("%s: hooke %v material %v", f.Label, hooke, mat)
			}
		}
	}
}

func TestRing(t *testing.T) {
	r := NewRing(4)
	if raw, off := r.Raw(); len(raw) != 0 || off != 0 || r.Last() != 0 {
		t.Fatal("empty ring")
	}
	for i := 1; i <= 3; i++ {
		r.Push(float32(i))
	}
	if got := r.Values(nil); len(got) != 3 || got[0] != 1 || got[2] != 3 || r.Last() != 3 {
		t.Fatalf("partial %v", got)
	}
	for i := 4; i <= 6; i++ {
		r.Push(float32(i))
	}
	got := r.Values(nil)
	if len(got) != 4 || got[0] != 3 || got[3] != 6 || r.Last() != 6 || r.Len() != 4 {
		t.Fatalf("wrapped %v", got)
	}
	raw, off := r.Raw()
	if raw[off] != 3 {
		t.Fatalf("offset %d points at %v", off, raw[off])
	}
	r.Push(float32(math.NaN()))
	if lo, hi := r.MinMax(); lo != 4 || hi != 6 {
		t.Fatalf("minmax %v %v", lo, hi)
	}
	buf := make([]float32, 0, 8)
	if allocs := testing.AllocsPerRun(10, func() { r.Push(1); buf = r.Values(buf) }); allocs != 0 {
		t.Fatalf("%v allocs", allocs)
	}
	r.Reset()
	if r.Len() != 0 {
		t.Fatal("reset")
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{0.00123, "N", "1.230 mN"}, {1234, "N", "1.234 kN"}, {0, "J", "0 J"}, {1e-4, "s", "100.0 µs"},
		{-2.5e-7, "m", "-250.0 nm"}, {999.96, "N", "1.000 kN"}, {math.NaN(), "N", "NaN N"}, {1, "", "1.000 "},
	} {
		if got := FormatSI(c.v, c.unit); got != c.want {
			t.Errorf("FormatSI(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
	if got := FormatCount(1234567); got != "1 234 567" {
		t.Error(got)
	}
	if got := FormatCount(-1000); got != "-1 000" {
		t.Error(got)
	}
	if got := FormatSci(1.5e-6); got != "1.500e-06" {
		t.Error(got)
	}
	if got := FormatSci(12.5); got != "12.5" {
		t.Error(got)
	}
	if got := FormatFactor(0.5); got != "0.5x" || FormatFactor(math.NaN()) != "-" {
		t.Error(got)
	}
}

func TestHistory(t *testing.T) {
	h := NewHistory(100, 0.1)
	s := &snap.Snapshot{Scene: "a"}
	now := 0.0
	for i := 0; i < 30; i++ {
		s.Stats.Step = int64(i * 10)
		s.Stats.Time = float64(i) * 0.01 // 0.1 sim s per wall s
		s.Stats.Kinetic = float64(i)
		s.Stats.Contacts = i
		s.Stats.NewtonIters, s.Stats.LinearIters = i%4, 3*i
		h.Observe(s, now)
		h.Observe(s, now+0.01) // same step: ignored
		now += 0.1
	}
	if h.Kinetic.Len() != 30 || h.Kinetic.Last() != 29 {
		t.Fatalf("samples %d last %v", h.Kinetic.Len(), h.Kinetic.Last())
	}
	if h.Newton.Len() != 30 || h.Newton.Last() != 1 || h.Linear.Last() != 87 {
		t.Fatalf("iterations: %d samples, last %v / %v", h.Newton.Len(), h.Newton.Last(), h.Linear.Last())
	}
	if math.Abs(h.RTF-0.1) > 1e-9 {
		t.Fatalf("RTF %v", h.RTF)
	}
	// too soon: not sampled
	s.Stats.Step++
	h.Observe(s, now-0.05)
	if h.Kinetic.Len() != 30 {
		t.Fatal("sampled faster than the interval")
	}
	// paused for more than a second: RTF drops to 0
	h.Observe(s, now+2)
	h.Observe(s, now+4)
	if h.RTF != 0 {
		t.Fatalf("paused RTF %v", h.RTF)
	}
	// new scene resets
	s2 := &snap.Snapshot{Scene: "b"}
	h.Observe(s2, now+5)
	if h.Kinetic.Len() != 1 {
		t.Fatalf("new scene kept %d samples", h.Kinetic.Len())
	}
}
