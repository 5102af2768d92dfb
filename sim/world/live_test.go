package world_test

import (
	"slices"
	"testing"
)

// Commit's list of the pairs with accepted contacts (read by UpdateStats
// and StableDtBelow in place of a walk over every candidate pair) must be
// exactly the pairs that the walk finds, in pair order, after every step,
// for one worker and for two (whose batches are written apart and joined
// in order): the tetrapod collapse from its packed state and a block
// sliding on a plane, explicit (contacts in most of the steps). It must be in date after every explicit step, or the
// step readers never use it.
func TestLivePairsMatchWalk(t *testing.T) {
	for _, c := range []struct {
		scene, state string
		steps        int
	}{
		{"box-of-tetrapods", "builtin:box-of-tetrapods-300-packed", 40},
		{"sliding-block-a", "", 150},
	} {
		for _, workers := range []int{1, 2} {
			w := startScene(t, c.scene, c.state)
			w.Settings.Workers = workers
			withContacts := 0
			for n := 0; n < c.steps; n++ {
				if err := w.ApplyEvents(); err != nil {
					t.Fatal(err)
				}
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				live, ok, walk := w.LivePairs()
				if !ok {
					t.Fatalf("%s, %d workers, step %d: the list is out of date after an explicit step", c.scene, workers, n)
				}
				if len(walk) > 0 {
					withContacts++
				}
				if !slices.Equal(live, walk) {
					t.Fatalf("%s, %d workers, step %d: Commit listed %d pairs with contacts, the walk %d (or a different order)",
						c.scene, workers, n, len(live), len(walk))
				}
			}
			if withContacts < c.steps/2 {
				t.Fatalf("%s, %d workers: contacts in %d of %d steps only (the test proves little)", c.scene, workers, withContacts, c.steps)
			}
		}
	}
}
