package state

import (
	"testing"
)

// TestHandOverKeepsRim: a checkpoint written with the hand-over (Encode:
// the sphere path gives its history to the generic pair entries and takes
// it back at the next step) leaves the run as it was: sphere-piling's 700
// spheres at 0.1 s, when p104 touches funnel_front's lower edge (a wall
// slot's rim contact, held in the slot's generic entry), end at 0.101 s
// with the bits of the run that wrote no checkpoint.
func TestHandOverKeepsRim(t *testing.T) {
	const t1, t2 = 0.1, 0.101
	sets := []string{"integrator.name=explicit"}
	a, end := started(t, "sphere-piling", sets...)
	b, _ := started(t, "sphere-piling", sets...)
	to(t, a, t1, end)
	to(t, b, t1, end)
	if _, err := Encode(a); err != nil { // the hand-over
		t.Fatal(err)
	}
	if d := firstSplit(t, a, b, t2, end); d != "" {
		t.Fatalf("the run that handed its history over at %g s differs: %s", t1, d)
	}
}
