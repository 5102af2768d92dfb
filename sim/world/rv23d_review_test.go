package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// Review rv23d: a NaN/±Inf put into the accepted x or v of one sphere (no
// energies rewritten), then REAL steps (the SSE2 kick sums the energies):
// at every later guard call CheckFiniteNext must answer as CheckFinite.
func TestRV23DGuardAfterRealSteps(t *testing.T) {
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, sc := range []string{"sphere-box-soft", "sphere-piling"} {
		for c := range 6 {
			for _, v := range vals {
				for _, o := range []int{0, 7} {
					name := fmt.Sprintf("%s/o=%d/c=%d/%g", sc, o, c, v)
					w := startScene(t, sc, "")
					n, poisoned, stillAt, calls := 0, false, false, 0
					var full, next error
					_, err := integrate.AdvancePastLazy(w, 1, 1, func() bool {
						n++
						if n == 10 {
							poisoned = world.RV23DPoisonOnly(w, o, c, v)
							return false
						}
						if n < 10 {
							return false
						}
						calls++
						stillAt = world.RV23DRotStill(w)
						next = w.CheckFiniteNext()
						full = w.CheckFinite()
						return full != nil || next != nil || n > 30
					})
					if !poisoned {
						t.Fatalf("%s: not poisoned", name)
					}
					if fmt.Sprint(full) != fmt.Sprint(next) {
						t.Errorf("%s: step call %d rotStill %v: CheckFiniteNext %v, CheckFinite %v", name, calls, stillAt, next, full)
					}
					t.Logf("%s: calls %d rotStill %v full=%v stepErr=%v", name, calls, stillAt, full != nil, err)
				}
			}
		}
	}
}
