package state

import "testing"

// TestExactRestartSQCollapse: the exact-restart check of TestExactRestart on
// the superquadric bed while it collapses (grains in contact and apart, so
// pairs hold separation certificates, sq.SepCert): a run restarted from the
// state file at t1 ends at t2 with the same bits as the uninterrupted run.
// It fails when the state file leaves the certificates out (found in review:
// the uncertified path moves a pair's warm start).
func TestExactRestartSQCollapse(t *testing.T) {
	for _, tt := range [][2]float64{{0.1, 0.12}, {0.08, 0.16}} {
		t1, t2 := tt[0], tt[1]
		ref, end := started(t, "sq-settling")
		to(t, ref, t1, end)
		to(t, ref, t2, end)
		b, notes := restarted(t, "sq-settling", nil, t1, false)
		if len(notes) > 0 {
			t.Fatalf("notes: %v", notes)
		}
		to(t, b, t2, end)
		if d := diffBodies(ref, b); d != "" {
			t.Fatalf("restart at %g s differs at %g s: %s", t1, t2, d)
		}
		t.Logf("restart at %g s, %d steps to %g s: identical", t1, b.Steps, t2)
	}
}
