package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// plane returns a square open surface of side s centred at c with unit normal n.
func plane(t testing.TB, name string, c, n geom.Vec3, s float64) *shape.Polyhedron {
	u := n.AnyPerp()
	v := n.Cross(u)
	h := s / 2
	vs := []geom.Vec3{
		c.Add(u.Scale(-h)).Add(v.Scale(-h)), c.Add(u.Scale(h)).Add(v.Scale(-h)),
		c.Add(u.Scale(h)).Add(v.Scale(h)), c.Add(u.Scale(-h)).Add(v.Scale(h)),
	}
	p, err := shape.NewSurface(name, vs, [][3]int32{{0, 1, 2}, {0, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// cubeParams is the S0 example-1 law: ḡ = 1% of a 0.1 m edge.
func cubeParams(zeta, mu float64) world.ContactParams {
	return world.ContactParams{
		Normal:   law.Normal{Kind: law.Barrier, GBar: 1e-3, Eps1: 2e5, N1: 1, F: 0.5, N2: -2},
		Friction: law.Friction{MuS: mu, MuD: mu, EpsT: 1e5, CT: 20},
		Zeta:     zeta,
	}
}

// groundWorld returns a world with a 2 m ground plane at z = 0.
func groundWorld(t testing.TB, p world.ContactParams) *world.World {
	w := world.New("test")
	if err := w.SetParams(0, 0, p); err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddWall("ground", plane(t, "ground", geom.Vec3{}, geom.V(0, 0, 1), 2), 0, true); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	return w
}

// lowestAt places body b so that its lowest vertex is at height h.
func lowestAt(b *body.Body, h float64) {
	zmin := math.Inf(1)
	for _, v := range b.Poly().Verts {
		zmin = math.Min(zmin, b.Q.Rotate(v).Z)
	}
	b.X.Z = h - zmin
}

// run advances w to time t with the explicit integrator.
func run(t testing.TB, w *world.World, until float64, each func()) {
	t.Helper()
	if w.Integrator == nil {
		w.Integrator = &Explicit{}
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
	}
	for w.Time < until {
		if _, err := w.Integrator.Step(w, until-w.Time); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each()
		}
	}
}

// activeContacts returns the active contacts of the last step.
func activeContacts(w *world.World) []contact.Contact {
	var out []contact.Contact
	w.EachContact(func(_, _ int, c *contact.Contact) {
		if c.Active() {
			out = append(out, *c)
		}
	})
	return out
}

func countKinds(cs []contact.Contact) [snap.NumContactKinds]int {
	var n [snap.NumContactKinds]int
	for _, c := range cs {
		n[c.Kind]++
	}
	return n
}
