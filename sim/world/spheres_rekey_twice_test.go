package world_test

import (
	"bytes"
	"fmt"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// rekeyGroup is live edits made before one step: each edit but the first
// after a call that reaches the sphere path (World.Spheres, as a step
// or VerletSkin after a law edit does), so that every
// one changes its key before an Accept; leave: the path then left before
// the step (EachContact: the hand-over of what the changes left).
type rekeyGroup struct {
	edits []rekeyEdit
	leave bool
}

// rekeyGroups are the groups for a world whose default law has k_n = kn
// and γ_n = gn: two law edits; friction on, rolling resistance and
// gravity (three changes); the safety factor and γ_n, then a hand-over;
// friction off and on again (the accepted friction history is the note's,
// not the list's, which lost it at the first change); a material and k_n.
func rekeyGroups(kn, gn float64) []rekeyGroup {
	return []rekeyGroup{
		{edits: []rekeyEdit{{"gamma_n", setParam("contact.default.gamma_n", 0.75*gn)}, {"kn", setParam("contact.default.kn", 1.2*kn)}}},
		{edits: []rekeyEdit{{"mu on", setParam("contact.default.mu", 0.4)}, {"mu_roll", setParam("contact.default.mu_roll", 0.05)},
			{"gravity", func(w *world.World) error { w.Gravity = geom.V(0.3, -0.2, -9.5); return nil }}}},
		{edits: []rekeyEdit{{"safety", func(w *world.World) error { w.Settings.Safety = 0.15; return nil }},
			{"gamma_n again", setParam("contact.default.gamma_n", 1.25*gn)}}, leave: true},
		{edits: []rekeyEdit{{"mu off", setParam("contact.default.mu", 0)}, {"mu on again", setParam("contact.default.mu", 0.3)}}},
		{edits: []rekeyEdit{{"material", func(w *world.World) error { w.Material("extra"); return nil }},
			{"kn again", setParam("contact.default.kn", 0.9*kn)}}},
	}
}

// rekeyTwiceRun runs mk's world pre steps, then each group followed by
// steps steps: the digests of every step after the first group, the final
// state file, the key changes made in place and the materializations.
func rekeyTwiceRun(t *testing.T, mk func() *world.World, groups []rekeyGroup, pre float64, steps int) ([]uint64, []byte, int64, int) {
	w := mk()
	if _, err := integrate.Advance(w, pre, nil); err != nil {
		t.Fatal(err)
	}
	m0, n0 := world.Materializations(), w.SphereRekeys()
	var ds []uint64
	for _, g := range groups {
		for i, e := range g.edits {
			if i > 0 {
				w.Spheres() // the path reached: the key changed once already
			}
			if err := e.do(w); err != nil {
				t.Fatalf("%s: %v", e.name, err)
			}
		}
		w.Spheres() // the last change, before the step
		if g.leave {
			ds = append(ds, stepDigest(w))
		}
		for range steps {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, stepDigest(w))
		}
	}
	return ds, finalBytes(t, w), w.SphereRekeys() - n0, world.Materializations() - m0
}

// Live edits that change the sphere path's key two or three times before
// an Accept (session 26 review r1 F2) are made in place too
// (rekeyPending): a world of sphere blocks is not materialized (the round
// trip of the second change: once), and every step after them, the
// hand-over in between and the final state file are the bits of the
// round trip (rekeyOff: every change; rekeyPendOff: the second and later
// ones) — on the frictionless box, the friction pile (turning spheres),
// the 5 000-sphere box in spatial order, and the two-law lattice with
// friction; 1 and 2 workers. It fails when the list is made from the list
// rather than the note (friction off and on: the history), and when the
// fresh flags are the first change's.
func TestSphereRekeyTwiceBeforeAccept(t *testing.T) {
	big := []string{"generators[0].count=5000", "generators[0].region.max=[0.03,0.03,0.12]", "walls[0].max=[0.03,0.03,0.12]"}
	cases := []struct {
		name    string
		scene   string
		sets    []string
		kn, gn  float64
		pre     float64
		steps   int
		records bool
	}{
		{"box", "sphere-box-soft", nil, 10.02, 20, 0.05, 10, false},
		{"piling", "sphere-piling", nil, 0, 0, 0.1, 10, false},
		{"box5000", "sphere-box-soft", big, 10.02, 20, 0.05, 6, false},
		{"lattice", "", nil, 0, 0, 0.01, 8, true},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2} {
			if testing.Short() && (workers == 2 || c.name == "box5000") {
				continue
			}
			t.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(t *testing.T) {
				mk := func() *world.World { return rekeyWorld(t, c.scene, c.sets, c.records, workers) }
				if c.scene == "" {
					mk = func() *world.World { return partsWorld(t, 1500, []float64{0.001, 0.0008}, workers, 0.3) }
				}
				kn, gn := c.kn, c.gn
				if kn == 0 {
					p := mk().Params(0, 0)
					kn, gn = p.Smooth.Kn, p.Smooth.GammaN
				}
				groups := rekeyGroups(kn, gn)
				changes := 0
				for _, g := range groups {
					changes += len(g.edits)
				}
				type res struct {
					d    []uint64
					f    []byte
					n    int64
					mats int
				}
				run := func(off, pendOff bool) res {
					world.SetRekeyOff(off)
					world.SetRekeyPendOff(pendOff)
					defer world.SetRekeyOff(false)
					defer world.SetRekeyPendOff(false)
					var r res
					r.d, r.f, r.n, r.mats = rekeyTwiceRun(t, mk, groups, c.pre, c.steps)
					return r
				}
				ref, first, on := run(true, false), run(false, true), run(false, false)
				t.Logf("key changes in place: %d of %d (first ones only: %d); materializations %d (round trip %d, first ones only %d)",
					on.n, changes, first.n, on.mats, ref.mats, first.mats)
				if on.n != int64(changes) || first.n != int64(len(groups)) || ref.n != 0 {
					t.Fatalf("key changes in place: %d, %d with rekeyPendOff, %d with rekeyOff; want %d, %d, 0", on.n, first.n, ref.n, changes, len(groups))
				}
				if !c.records && (on.mats != 0 || first.mats == 0) {
					t.Errorf("materializations: %d in place (want 0), %d when the second change takes the round trip (want > 0)", on.mats, first.mats)
				}
				for _, o := range []struct {
					name string
					r    res
				}{{"second changes by the round trip", first}, {"in place", on}} {
					if len(o.r.d) != len(ref.d) {
						t.Fatalf("%s: %d digests, round trip %d", o.name, len(o.r.d), len(ref.d))
					}
					for k := range ref.d {
						if o.r.d[k] != ref.d[k] {
							t.Fatalf("%s: digest %d differs from the round trip's", o.name, k)
						}
					}
					if !bytes.Equal(o.r.f, ref.f) {
						t.Fatalf("%s: final state file differs from the round trip's", o.name)
					}
				}
			})
		}
	}
}
