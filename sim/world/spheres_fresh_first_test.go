package world_test

import (
	"testing"

	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// A list's first build lists every pair as fresh, 0 … n−1 in order, with
// no array of them (their number: spheres_fresh_first.go) that StableDt
// takes, on one worker and split on two; the start and the steps after it
// are TestSpherePath…'s.
func TestSphereFirstFreshOneArray(t *testing.T) {
	for _, workers := range []int{1, 2} {
		s, err := scene.LoadBuiltin("sphere-box-soft", "generators[0].count=3000")
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		sp := w.Spheres()
		if sp == nil {
			t.Fatal("not on the sphere path")
		}
		sp.TrialFromBodies()
		if _, bad := sp.Evaluate(w.Time, 0); bad {
			t.Fatal("bad start")
		}
		fresh, n, kept := world.SphereFirstFresh(w)
		if n < 1000 || len(fresh) != n {
			t.Fatalf("%d workers: %d fresh pairs of %d listed", workers, len(fresh), n)
		}
		for k, f := range fresh {
			if f != int32(k) {
				t.Fatalf("%d workers: fresh[%d] = %d", workers, k, f)
			}
		}
		if kept != 0 {
			t.Fatalf("%d workers: %d ranges keep a fresh list after the first build", workers, kept)
		}
		// No array of them (Session 26): their number only, until the
		// next StableDt takes them.
		if room, first := world.SphereFreshRoom(w); room != 0 || first != n {
			t.Fatalf("%d workers: fresh list's room %d, first build's fresh pairs %d of %d", workers, room, first, n)
		}
		sp.StableDt()
		if room, first := world.SphereFreshRoom(w); first != 0 || room > 1<<16 {
			t.Fatalf("%d workers: after StableDt: fresh list's room %d, first build's fresh pairs %d", workers, room, first)
		}
		if fresh, _, _ := world.SphereFirstFresh(w); len(fresh) != 0 {
			t.Fatalf("%d workers: %d fresh pairs after StableDt", workers, len(fresh))
		}
	}
}
