package world_test

import (
	"testing"

	"grainlab/sim/contact"

	"grainlab/sim/world"
)

// After every step, no wall pair outside the step's candidates keeps
// accepted contacts (the history a pair that comes back would match
// against), whether Commit's walk over the wall pairs ran or detection's
// wallPairs had already emptied them: across a wall turned off and on, a
// panel-style lift of bodies off a wall, and a restore of an
// earlier history, on the 300-tetrapod collapse.
func TestDroppedWallPairsLoseHistory(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	w := startScene(t, "box-of-tetrapods", packed)
	var h *world.History
	for step := 0; step < 90; step++ {
		switch step {
		case 20:
			if err := w.SetWallEnabled("left", false); err != nil {
				t.Fatal(err)
			}
		case 45:
			if err := w.SetWallEnabled("left", true); err != nil {
				t.Fatal(err)
			}
		case 55: // a panel edit: bodies touching a wall lifted 1 m, out of its candidates
			walls := map[int]bool{}
			for _, wl := range w.Walls {
				walls[wl.Body] = true
			}
			lifted := map[int]bool{}
			w.EachContact(func(a, b int, _ *contact.Contact) {
				if walls[a] && !w.Bodies()[b].Fixed && len(lifted) < 3 {
					lifted[b] = true
				} else if walls[b] && !w.Bodies()[a].Fixed && len(lifted) < 3 {
					lifted[a] = true
				}
			})
			if len(lifted) == 0 {
				t.Fatal("no body touches a wall")
			}
			for i := range lifted {
				w.Bodies()[i].X.Z++
			}
		case 70:
			if err := w.RestoreHistory(h); err != nil {
				t.Fatal(err)
			}
		}
		if step == 30 {
			h = w.TakeHistory()
		}
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		if n := world.DroppedWallHistories(w); n != 0 {
			t.Fatalf("step %d: %d wall pairs outside the candidates keep accepted contacts", step, n)
		}
	}
}
