package world_test

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"testing"

	"grainlab/sim/scene"
)

// TestFrictionEditSphereVsGeneric: 40 spheres (material g) slide and roll
// on a floor (material w), Hertz law, μ = 0.5 for g–g and g–w. At t = 0.02 s
// the g–w friction is switched off (SetParam, as a scene event or the
// window does), at 0.035 s on again; the g–g law keeps its friction
// (Spheres.moms stays true). The sphere path must give the generic stages'
// bits (Settings.NoSpherePath) at each of the three stages: the generic
// entries keep the tangential history under the frictionless law, so the
// wall slots must too (review r3, session 16: slots whose own law was
// frictionless had no friction side and restarted the spring from zero
// when the friction came back).
func TestFrictionEditSphereVsGeneric(t *testing.T) {
	var got [2][3][32]byte
	for gi, generic := range []bool{false, true} {
		s, err := scene.Load("testdata/slide_friction_edit.yaml")
		if err != nil {
			t.Fatal(err)
		}
		w := startBuilt(t, s)
		w.Settings.NoSpherePath = generic
		run := func(until float64) {
			for w.Time < until {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
			}
		}
		dig := func() [32]byte {
			w.SyncBodies()
			h := sha256.New()
			var b [8]byte
			for _, bd := range w.Bodies() {
				for _, x := range []float64{bd.X.X, bd.X.Y, bd.X.Z, bd.V.X, bd.V.Y, bd.V.Z, bd.W.X, bd.W.Y, bd.W.Z} {
					binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
					h.Write(b[:])
				}
			}
			var d [32]byte
			copy(d[:], h.Sum(nil))
			return d
		}
		run(0.02)
		got[gi][0] = dig()
		if err := w.SetParam("contact.g.w.mu", 0); err != nil {
			t.Fatal(err)
		}
		run(0.035)
		got[gi][1] = dig()
		if err := w.SetParam("contact.g.w.mu", 0.5); err != nil {
			t.Fatal(err)
		}
		run(0.045)
		got[gi][2] = dig()
	}
	for i, tag := range []string{"before the edit", "frictionless", "friction back"} {
		if got[0][i] != got[1][i] {
			t.Errorf("%s: sphere path %x, generic stages %x", tag, got[0][i][:8], got[1][i][:8])
		}
	}
}
