package world_test

import (
	"bytes"
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// A rotational array made anew by a key change on a world of sphere blocks
// (spheres_rekey.go, virtAfter: no array before the change — a
// frictionless edit's build left none, rotNone — and friction switched on
// by the next one, before an Accept) takes each sphere's q from its
// block's template, as the records the round trip makes hold it. The
// template is turned here (a scene's spheres are unturned: any q would
// pass), so the test fails when the path takes another q (the identity,
// or the zero the new array holds): every step's bodies, contacts and
// statistics and the final state file are compared, bit for bit, with the
// round trip (rekeyOff) and with the second change by the round trip
// (rekeyPendOff); the in-place run materializes nothing.
func TestSphereRekeyTemplateQ(t *testing.T) {
	q := geom.Quat{W: 0.9, X: 0.1, Y: -0.3, Z: 0.3}.Normalize()
	run := func(off, pendOff bool) ([]uint64, []byte, int, geom.Quat) {
		world.SetRekeyOff(off)
		world.SetRekeyPendOff(pendOff)
		defer world.SetRekeyOff(false)
		defer world.SetRekeyPendOff(false)
		sp, err := scene.LoadBuiltin("sphere-box-soft")
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(sp)
		if err != nil {
			t.Fatal(err)
		}
		w.SetBlockTemplateQ(q)
		w.SetLazyBodies(true)
		w.Integrator = &integrate.Explicit{}
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
		if _, err := integrate.Advance(w, 0.05, nil); err != nil {
			t.Fatal(err)
		}
		m0 := world.Materializations()
		if err := w.SetParam("contact.default.gamma_n", 15); err != nil {
			t.Fatal(err)
		}
		w.Spheres() // the first change: no rotational array after it (rotNone)
		if err := w.SetParam("contact.default.mu", 0.4); err != nil {
			t.Fatal(err)
		}
		var ds []uint64
		for range 12 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, stepDigest(w))
		}
		mats := world.Materializations() - m0
		var q0 geom.Quat
		w.EachBody(func(i int, b *body.Body) {
			if i == w.NumBodies()-1 {
				q0 = b.Q
			}
		})
		return ds, finalBytes(t, w), mats, q0
	}
	dRef, fRef, mRef, qRef := run(true, false)
	dOn, fOn, mOn, _ := run(false, false)
	dPend, fPend, _, _ := run(false, true)
	dist := func(a, b geom.Quat) float64 {
		return math.Abs(a.W-b.W) + math.Abs(a.X-b.X) + math.Abs(a.Y-b.Y) + math.Abs(a.Z-b.Z)
	}
	t.Logf("last sphere's q after the steps %v: %.3g from the template, %.3g from the identity; materializations %d in place, %d round trip",
		qRef, dist(qRef, q), dist(qRef, geom.QIdent()), mOn, mRef)
	if dist(qRef, q) > 1e-3 {
		t.Fatalf("the round trip's spheres are not at the template's q: %v", qRef)
	}
	if mOn != 0 || mRef == 0 {
		t.Errorf("materializations %d in place (want 0), %d by the round trip (want > 0)", mOn, mRef)
	}
	for _, o := range []struct {
		name string
		d    []uint64
		f    []byte
	}{{"in place", dOn, fOn}, {"the second change by the round trip", dPend, fPend}} {
		for k := range dRef {
			if o.d[k] != dRef[k] {
				t.Fatalf("%s: step %d differs from the round trip", o.name, k)
			}
		}
		if !bytes.Equal(o.f, fRef) {
			t.Fatalf("%s: the final state file differs from the round trip's", o.name)
		}
	}
}
