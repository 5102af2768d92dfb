package world

import (
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// Review rv1 (session 10): body.Body's fields stay exported, so a caller can
// still build one by literal; before the shared record such a body had
// mass 0 and Check refused it with a message, now its first accessor
// dereferences a nil record. Check should still name the body (a nil-record
// guard in Check/AddBody, or an unexported field that forbids literals).
func TestReviewCheckNamesABodyWithoutRecord(t *testing.T) {
	w := New("review")
	if err := w.SetParams(0, 0, ContactParams{Smooth: law.Smooth{Model: law.HertzMaterial, E: 5e6, Nu: 0.3, Restitution: 0.5, Mu: 0.5}}); err != nil {
		t.Fatal(err)
	}
	w.AddBody(&body.Body{Name: "literal", Kind: body.Sphere, R: 0.01, Q: geom.QIdent(), Wall: -1})
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Check panicked on a body built by literal: %v", r)
			}
		}()
		err = w.Check()
	}()
	if err == nil || !strings.Contains(err.Error(), "literal") {
		t.Fatalf("Check: %v, want an error naming the body", err)
	}
}
