package world

import (
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
)

// wrapWorld is one n = 4 superquadric resting on a ground plane (z = 0) at
// x, moving along +x at 0.01 m/s, in a world periodic in x over [0, 0.1) m
// when periodic; the contact accepted (Evaluate, Commit) and the carried
// point switched on (SetPointLag) as an implicit step does at its start.
func wrapWorld(t *testing.T, x float64, periodic bool) (*World, *body.Body) {
	t.Helper()
	w := New("wrap")
	w.Settings.Workers = 1
	if err := w.SetParams(0, 0, ContactParams{Smooth: law.Smooth{Model: law.HertzLAMMPS, Kn: 1e7, GammaN: 1e3, Kt: 1e6, Mu: 0.5, Radius: "mean"}}); err != nil {
		t.Fatal(err)
	}
	const h = 1.0 // the ground's half size
	g, err := shape.NewSurface("ground", []geom.Vec3{geom.V(0.05-h, -h, 0), geom.V(0.05+h, -h, 0), geom.V(0.05+h, h, 0), geom.V(0.05-h, h, 0)}, [][3]int32{{0, 1, 2}, {0, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddWall("ground", g, 0, true); err != nil {
		t.Fatal(err)
	}
	s := sq.Shape{A: 0.004, B: 0.003, C: 0.0025, N1: 4, N2: 4}
	b := body.NewSuperquadric("q", s, 2500, geom.V(x, 0.001, s.C-2e-6), geom.QAxisAngle(geom.V(0.3, 1, 0.2).Unit(), 1e-3))
	b.V = geom.V(0.01, 0, 0)
	w.AddBody(b)
	if periodic {
		w.Periodic = Periodic{X: true, Lo: geom.V(0, -1, -1), Hi: geom.V(0.1, 1, 1)}
	}
	if w.Evaluate(0, 0, Eval{}).Bad {
		t.Fatal("bad start")
	}
	w.Commit(Commit{Stats: true})
	w.SetPointLag(true)
	return w, b
}

// TestPointLagPeriodicWrap (review r7 F3): a superquadric on a wall that
// crosses the periodic seam within a step — the Newton iterate moves it
// from 1e-7 m inside the box's +x face to 1e-7 m beyond it, and the
// placement wraps it to the −x face — keeps its contact's carried point
// (pointLagAt: ok), the same point relative to the body, to 1e-12 of the
// body's size, as the same move away from the seam (x = 0.05 m, no wrap), where a
// periodic world carries it with carry's own bits.
// Before, the point was carried from the pose before the wrap, a period
// (0.1 m) away, failed the sanity bound and fell back to the midway point.
func TestPointLagPeriodicWrap(t *testing.T) {
	const dt = 1e-5
	move := geom.V(2e-7, 1e-8, -1e-9)
	type got struct {
		ok     bool
		pa, pb geom.Vec3 // relative to the body's centre
		x      geom.Vec3
	}
	carried := func(x float64, periodic bool) got {
		w, b := wrapWorld(t, x, periodic)
		b.X = b.X.Add(move)
		b.Q = geom.QAxisAngle(geom.V(0.3, 1, 0.2).Unit(), 1e-3+1e-6)
		w.Evaluate(dt, dt, Eval{})
		bi := len(w.Bodies()) - 1
		e := w.wallPair[0][bi]
		if e == nil || len(e.cur) != 1 || len(e.prev) != 1 {
			t.Fatalf("x %g: want one accepted and one current contact with the ground", x)
		}
		A, B := w.Bodies()[e.A], w.Bodies()[e.B]
		pa, pb, ok := w.pointLagAt(e, A, B, &e.cur[0])
		if periodic && b.X.X > 0.01 { // no wrap: carry's own bits
			l := &w.ptLag
			if ca, cb := carry(e.prev[0].PA, l.x[e.A], l.q[e.A], A.X, A.Q), carry(e.prev[0].PB, l.x[e.B], l.q[e.B], B.X, B.Q); ca != pa || cb != pb {
				t.Fatalf("away from the seam: %v %v, carry's %v %v", pa, pb, ca, cb)
			}
		}
		return got{ok, pa.Sub(b.X), pb.Sub(b.X), b.X}
	}
	ref := carried(0.05, false)
	if !ref.ok {
		t.Fatal("away from the seam: the contact's point is not carried (gate?)")
	}
	seam := carried(0.1-1e-7, true)
	if !(seam.x.X < 0.05) {
		t.Fatalf("the body was not wrapped: x %.17g", seam.x.X)
	}
	if !seam.ok {
		t.Fatal("across the seam: the carried point fell back to the midway point")
	}
	if d := max(seam.pa.Sub(ref.pa).Norm(), seam.pb.Sub(ref.pb).Norm()); !(d <= 1e-12*0.004) {
		t.Fatalf("across the seam the carried points differ by %.3g m from those away from it", d)
	}
	// A periodic world away from the seam: carry's bits (checked in carried).
	if p := carried(0.05, true); !p.ok {
		t.Fatal("a periodic world away from the seam: not carried")
	}
}
