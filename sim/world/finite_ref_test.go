package world_test

import (
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// SaveRef keeps the last good state as a reference into the sphere path's
// double buffer: turned into a copy after the next step (what a run that
// fails at that step restores), it must be exactly Save's copy taken when
// SaveRef ran — through list rebuilds, renumberings, the rotational skip
// and its shared array (the frictionless box) and turning spheres (the
// pile with friction).
func TestSaveRefSameAsSave(t *testing.T) {
	for _, c := range []struct {
		scene string
		end   float64
	}{{"sphere-box-soft", 0.03}, {"sphere-piling", 0.03}} {
		w := startScene(t, c.scene, "")
		var eager, lazy world.BodyStates
		steps, refs := 0, 0
		each := func() bool {
			if steps > 0 {
				if lazy.Materialize(w) {
					refs++
				}
				if !lazy.Valid || lazy.Time != eager.Time || lazy.Steps != eager.Steps || len(lazy.X) != len(eager.X) {
					t.Fatalf("%s step %d: kept %v t %v/%v steps %d/%d n %d/%d", c.scene, steps, lazy.Valid, lazy.Time, eager.Time,
						lazy.Steps, eager.Steps, len(lazy.X), len(eager.X))
				}
				body := func(s *world.BodyStates, i int) int {
					if len(s.Body) == 0 {
						return i
					}
					return int(s.Body[i])
				}
				got := make(map[int]int, len(lazy.X))
				for i := range lazy.X {
					got[body(&lazy, i)] = i
				}
				for i := range eager.X {
					j, ok := got[body(&eager, i)]
					if !ok || lazy.X[j] != eager.X[i] || lazy.V[j] != eager.V[i] || lazy.W[j] != eager.W[i] || lazy.Q[j] != eager.Q[i] {
						t.Fatalf("%s step %d: body %d: x %v/%v v %v/%v ω %v/%v q %v/%v", c.scene, steps, body(&eager, i),
							lazy.X[j], eager.X[i], lazy.V[j], eager.V[i], lazy.W[j], eager.W[i], lazy.Q[j], eager.Q[i])
					}
				}
			}
			eager.Save(w)
			lazy.SaveRef(w)
			steps++
			return false
		}
		if _, err := integrate.AdvancePastLazy(w, c.end, c.end, each); err != nil {
			t.Fatal(err)
		}
		if refs < steps/2 {
			t.Fatalf("%s: %d of %d states kept by reference", c.scene, refs, steps)
		}
		t.Logf("%s: %d steps, %d by reference", c.scene, steps, refs)
	}
}
