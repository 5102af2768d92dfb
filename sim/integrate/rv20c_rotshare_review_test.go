package integrate

import (
	"fmt"
	"testing"

	"grainlab/sim/law"
)

// Review r3 (session 20): a trial that is evaluated and not followed by a
// Drift or an Accept — a step that fails at dt_min: stepSpheres returns
// the error, AdvancePastLazy's deferred SetLazyBodies(false) syncs the
// bodies, run writes final.json from them — must leave the accepted state
// as it was. The bodies synced after such a trial (lazy) must equal the
// eager run's bodies (the accepted state, written by Accept), and the run
// carried on from them must give the same bits. With one rotational array
// shared by acc and tr (rotShare) the trial's rim moments T are written
// into acc's array too, and syncBodies writes them to the bodies.
func TestRv20cRotShareTrialThenSync(t *testing.T) {
	lw := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50, Kt: 60, GammaT: 25}
	build := holedPlateFall(t)
	run := func(lazy bool) [][]string {
		w := startSpherePath(t, lw, 0, build, lazy)
		var recs [][]string
		for i := range 4000 {
			// A trial thrown away without a retry (the failing step's last attempt).
			s := sphereStep{w.Spheres()}
			s.Drift(w.Dt)
			s.Evaluate(w.Time+w.Dt, w.Dt)
			w.SyncBodies() // AdvancePastLazy's return
			var rec []string
			for _, bd := range w.Bodies() {
				rec = append(rec, fmt.Sprintf("step %d body %s: W %x T %x V %x", i, bd.Name, bd.W, bd.T, bd.V))
			}
			recs = append(recs, rec)
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		return recs
	}
	eager, lazy := run(false), run(true)
	for i := range eager {
		for k := range eager[i] {
			if eager[i][k] != lazy[i][k] {
				t.Fatalf("the bodies synced after a thrown-away trial differ:\nlazy  %s\neager %s", lazy[i][k], eager[i][k])
			}
		}
	}
}
