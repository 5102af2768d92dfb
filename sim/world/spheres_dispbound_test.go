package world

import (
	"testing"

	"grainlab/sim/geom"
)

// TestDispBoundBuilds exercises dispBound's list-build checks directly (the
// integration test never reaches them: a rejection clears rotStill, and a
// kept list is not rebuilt before Accept): a bound is used only for the
// reference (Verlet.Builds) it was measured against.
func TestDispBoundBuilds(t *testing.T) {
	s := &Spheres{w: &World{skin: 1e-3}, vmax2: []SphereMax{{V2: 1e-6, F2: 0}}, kin: []SphereKin{{InvM: 1}}}
	ref := []geom.Vec3{{X: 1}}
	var d dispBound
	if _, ok := d.step(s, 1e-4, ref, 0); ok {
		t.Fatal("a bound before any anchor")
	}
	d.tried(false, true, 0, 1e-8, 3) // a test measured √d1 = 1e-4 against build 3, kept
	d.accepted(3)
	if b, ok := d.step(s, 1e-4, ref, 3); !ok || !(b >= 1e-4+1e-7) {
		t.Fatalf("build 3: bound %g %v, want ≥ 1.001e-4 and used", b, ok)
	}
	if _, ok := d.step(s, 1e-4, ref, 4); ok {
		t.Fatal("the bound used after a rebuild (Builds 3 → 4) between Accept and Drift")
	}
	// A trial kept at build 3 whose attempt rebuilt before Accept (build 4).
	d.tried(false, true, 0, 1e-8, 3)
	d.accepted(4)
	if _, ok := d.step(s, 1e-4, ref, 4); ok {
		t.Fatal("the bound of build 3 accepted at build 4 and used")
	}
	// A test that failed (list rebuilt): no bound.
	d.tried(false, false, 0, 1, 4)
	d.accepted(4)
	if _, ok := d.step(s, 1e-4, ref, 4); ok {
		t.Fatal("a bound after a failed test")
	}
	// xmax is cached per build: a new reference with larger coordinates
	// must be measured again.
	d.tried(false, true, 0, 1e-8, 5)
	d.accepted(5)
	b5, _ := d.step(s, 1e-4, ref, 5)
	d.tried(false, true, 0, 1e-8, 6)
	d.accepted(6)
	b6, _ := d.step(s, 1e-4, []geom.Vec3{{X: 1e9}}, 6)
	if !(b6 > b5) {
		t.Fatalf("xmax not remeasured for a new build: %g ≤ %g", b6, b5)
	}
}
