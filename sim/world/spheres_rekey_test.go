package world_test

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"slices"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// rekeyEdit is a live edit between steps (rekeyEdits).
type rekeyEdit struct {
	name string
	do   func(w *world.World) error
}

func setParam(path string, v float64) func(w *world.World) error {
	return func(w *world.World) error { return w.SetParam(path, v) }
}

// rekeyEdits are the edits that change the sphere path's key but not its
// bodies, for a world whose default law has k_n = kn and γ_n = gn: the
// laws (γ_n, k_n, friction on and off, rolling resistance, a law of its
// own for the pairs of material "other" when the world has it), a
// material added, gravity, the safety factor; and a wall switched off and
// on (not in the key: the slots follow, checkWalls).
func rekeyEdits(kn, gn float64) []rekeyEdit {
	return []rekeyEdit{
		{"gamma_n", setParam("contact.default.gamma_n", 0.75*gn)},
		{"kn", setParam("contact.default.kn", 1.2*kn)},
		{"mu on", setParam("contact.default.mu", 0.4)},
		{"own law", func(w *world.World) error {
			if slices.Contains(w.Materials, "other") {
				return w.SetParam("contact.other.other.kn", 0.9*kn)
			}
			return nil
		}},
		{"mu_roll", setParam("contact.default.mu_roll", 0.05)},
		{"material", func(w *world.World) error { w.Material("extra"); return nil }},
		{"gravity", func(w *world.World) error { w.Gravity = geom.V(0.3, -0.2, -9.5); return nil }},
		{"safety", func(w *world.World) error { w.Settings.Safety = 0.15; return nil }},
		{"wall off", func(w *world.World) error { w.Walls[len(w.Walls)-1].Enabled = false; return nil }},
		{"mu off", func(w *world.World) error {
			if err := w.SetParam("contact.default.mu_roll", 0); err != nil {
				return err
			}
			return w.SetParam("contact.default.mu", 0)
		}},
		{"wall on", func(w *world.World) error { w.Walls[len(w.Walls)-1].Enabled = true; return nil }},
		{"gamma_n again", setParam("contact.default.gamma_n", 1.25*gn)},
	}
}

// rekeyWorld builds a scene (sets: overrides) on workers, its spheres a
// world's sphere blocks with lazy bodies or, with records, body records
// (Bodies) written every step.
func rekeyWorld(t *testing.T, name string, sets []string, records bool, workers int) *world.World {
	t.Helper()
	sp, err := scene.LoadBuiltin(name, sets...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(sp)
	if err != nil {
		t.Fatal(err)
	}
	if records {
		w.Bodies()
	} else {
		w.SetLazyBodies(true) // as grainlab run and bench: the records are not written every step
	}
	w.Settings.Workers = workers
	if workers > 1 {
		w.Settings.SphereSplit = world.SplitAlways
	}
	w.Integrator = &integrate.Explicit{}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// stepDigest hashes what a step leaves: every body's state, the forces
// and moments on it, every contact (points, normal, gap, forces, moment,
// friction history, energy) and the step's statistics, to the bit.
func stepDigest(w *world.World) uint64 {
	h := fnv.New64a()
	w.EachBody(func(i int, b *body.Body) {
		fmt.Fprint(h, i, b.X, b.V, b.W, b.Q, b.F, b.T)
	})
	w.EachContact(func(a, b int, c *contact.Contact) {
		fmt.Fprint(h, a, b, *c)
	})
	fmt.Fprint(h, w.Time, w.Steps, w.Stats.Contacts, w.Stats.Kinetic, w.Stats.PotentialGravity)
	return h.Sum64()
}

// rekeyRun runs mk's world pre steps, then each edit followed by steps
// steps, with the in-place key change (rekey) or the round trip (off):
// the digest of every step after the first edit, the final state file,
// and how many key changes were made in place.
func rekeyRun(t *testing.T, mk func() *world.World, edits []rekeyEdit, pre float64, steps int, off bool) ([]uint64, []byte, int64, int) {
	world.SetRekeyOff(off)
	defer world.SetRekeyOff(false)
	w := mk()
	if _, err := integrate.Advance(w, pre, nil); err != nil {
		t.Fatal(err)
	}
	m0 := world.Materializations()
	if !off {
		t.Logf("t = %g s, %d steps: %d contacts at the first edit", w.Time, w.Steps, w.Stats.Contacts)
	}
	var ds []uint64
	for i, e := range edits {
		if err := e.do(w); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if i%2 == 1 {
			// The path rebuilt (VerletSkin asks it for its skin), then
			// left before an Accept (EachContact): the generic stages
			// take the history the key change left.
			w.VerletSkin()
			ds = append(ds, stepDigest(w))
		}
		for range steps {
			if _, err := w.Integrator.Step(w, 1); err != nil { // one step of the controller's size
				t.Fatal(err)
			}
			ds = append(ds, stepDigest(w))
		}
	}
	mats := world.Materializations() - m0
	return ds, finalBytes(t, w), w.SphereRekeys(), mats
}

// A live edit made in place (rekey) gives the bits of the generic round
// trip (export, build, importGeneric) at every step after it: states,
// forces, contacts and the final state file, for every edit of
// rekeyEdits in a row, on frictionless boxes and a friction pile, one and
// two workers, a world's sphere blocks and body records, and a world in
// spatial order (≥ 4096 spheres). A world of sphere blocks is not
// materialized by these edits made in place (Materializations).
func TestSphereRekeySameBits(t *testing.T) {
	big := []string{"generators[0].count=5000", "generators[0].region.max=[0.03,0.03,0.12]", "walls[0].max=[0.03,0.03,0.12]"}
	hertz := []string{"contact.default.model=hertz", "contact.default.kn=2e5", "contact.default.gamma_n=2e4"}
	cases := []struct {
		name    string
		scene   string
		sets    []string
		kn, gn  float64
		pre     float64
		steps   int
		records []bool
	}{
		{"box", "sphere-box-soft", nil, 10.02, 20, 0.05, 12, []bool{false, true}},
		{"hertz", "sphere-box-soft", hertz, 2e5, 2e4, 0.05, 12, []bool{false}},
		{"piling", "sphere-piling", nil, 0, 0, 0.1, 12, []bool{false, true}},
		{"lattice", "", nil, 0, 0, 0.01, 10, []bool{true}},
		{"box5000", "sphere-box-soft", big, 10.02, 20, 0.05, 8, []bool{false, true}},
	}
	for _, c := range cases {
		for _, records := range c.records {
			for _, workers := range []int{1, 2} {
				if testing.Short() && (workers == 2 || c.name == "box5000") {
					continue
				}
				name := fmt.Sprintf("%s/records=%v/workers=%d", c.name, records, workers)
				t.Run(name, func(t *testing.T) {
					mk := func() *world.World { return rekeyWorld(t, c.scene, c.sets, records, workers) }
					if c.scene == "" {
						// Two sizes, a third of the spheres of material
						// "other" with a law of its own, friction.
						mk = func() *world.World { return partsWorld(t, 1500, []float64{0.001, 0.0008}, workers, 0.3) }
					}
					kn, gn := c.kn, c.gn
					if kn == 0 {
						w := mk()
						p := w.Params(0, 0)
						kn, gn = p.Smooth.Kn, p.Smooth.GammaN
					}
					edits := rekeyEdits(kn, gn)
					dOff, fOff, nOff, matsOff := rekeyRun(t, mk, edits, c.pre, c.steps, true)
					dOn, fOn, nOn, mats := rekeyRun(t, mk, edits, c.pre, c.steps, false)
					if nOff != 0 || nOn == 0 {
						t.Fatalf("key changes in place: %d with rekeyOff, %d without (want 0 and > 0)", nOff, nOn)
					}
					t.Logf("%d key changes in place, %d materializations (%d by the round trip)", nOn, mats, matsOff)
					if !records && c.scene != "" && mats != 0 {
						t.Errorf("a world of sphere blocks materialized %d times by edits made in place", mats)
					}
					if len(dOn) != len(dOff) {
						t.Fatalf("%d digests in place, %d by the round trip", len(dOn), len(dOff))
					}
					for k := range dOff {
						if dOn[k] != dOff[k] {
							t.Fatalf("digest %d after the first edit: in place differs from the round trip", k)
						}
					}
					if !bytes.Equal(fOn, fOff) {
						t.Fatalf("final state file differs (%d vs %d bytes)", len(fOn), len(fOff))
					}
				})
			}
		}
	}
}
