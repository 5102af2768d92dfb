package app

import (
	"strings"
	"testing"
)

// TestSimLoopLimitDamping: the smooth law's limit_damping (a law.Params
// Flag) is switched live through SetParam with 0/1, a value other than 0 or
// 1 is refused, and a reset keeps the switch (remembered as a scene boolean).
func TestSimLoopLimitDamping(t *testing.T) {
	l := startLoop(t, smallSQ())
	st := sync1(t, l)
	if !st.Law.HasSmooth || st.Law.Smooth.LimitDamping {
		t.Fatalf("sq-settling: smooth law %+v, want one without limit_damping", st.Law.Smooth)
	}
	l.SetParam("contact.default.limit_damping", 1)
	st = sync1(t, l)
	if st.StatusErr || !st.Law.Smooth.LimitDamping {
		t.Fatalf("limit_damping = 1: status %q, LimitDamping %v", st.Status, st.Law.Smooth.LimitDamping)
	}
	l.SetParam("contact.default.limit_damping", 0.5)
	st = sync1(t, l)
	if !st.StatusErr || !strings.Contains(st.Status, "limit_damping") || !st.Law.Smooth.LimitDamping {
		t.Errorf("limit_damping = 0.5: status %q, LimitDamping %v; want a refusal naming it", st.Status, st.Law.Smooth.LimitDamping)
	}
	gen := st.Gen
	l.Reset()
	st = sync1(t, l)
	if st.Gen == gen || st.StatusErr || !st.Law.Smooth.LimitDamping {
		t.Errorf("reset: gen %d (was %d), status %q, LimitDamping %v; want the switch kept", st.Gen, gen, st.Status, st.Law.Smooth.LimitDamping)
	}
}
