package validation

import (
	"math"
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// load builds a built-in scene with overrides and evaluates its initial state.
func load(t testing.TB, name string, sets ...string) *world.World {
	t.Helper()
	s, err := scene.LoadBuiltin(name, sets...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

func advance(t testing.TB, w *world.World, until float64, each func() bool) {
	t.Helper()
	if _, err := integrate.Advance(w, until, each); err != nil {
		t.Fatal(err)
	}
}

// bodyContacts returns the active contacts of body i with a wall, and the
// force each exerts on body i.
func wallContacts(w *world.World, i int) (cs []contact.Contact, f []geom.Vec3) {
	w.EachContact(func(a, b int, c *contact.Contact) {
		if !c.Active() {
			return
		}
		fa := c.N.Scale(c.Fn).Add(c.Ft)
		switch i {
		case a:
			cs, f = append(cs, *c), append(f, fa)
		case b:
			cs, f = append(cs, *c), append(f, fa.Neg())
		}
	})
	return cs, f
}

func movableMass(w *world.World) float64 {
	m := 0.0
	for _, b := range w.Bodies() {
		if !b.Fixed {
			m += b.Mass()
		}
	}
	return m
}

// S0 example 2: ten blocks fall and settle into a pile; at rest the ground
// reaction F_z equals the total weight (±1%, S0 Fig. 18).
func TestS0Ex2PileGroundReaction(t *testing.T) {
	w := load(t, "pile-of-blocks")
	advance(t, w, 3.0, nil)
	W := movableMass(w) * 9.81
	g := w.Walls[w.WallByName("ground")].Force
	t.Logf("ground reaction %v N, weight %.5g N, kinetic %.3g J, %d contacts", g, W, w.Stats.Kinetic, w.Stats.Contacts)
	if math.Abs(g.Z-W) > 0.01*W {
		t.Errorf("ground reaction F_z = %.5g N, want total weight %.5g N (±1%%)", g.Z, W)
	}
}

// S0 example 3, case a: a force ramped from 0 to 16 N at the bottom face
// centroid. The total friction force equals the applied force while the block
// sticks (|R_x| = F ± 2% of μ_s·W, for F up to 95% of μ_s·W), the block
// starts sliding once F exceeds μ_s·W, and while it slides during the ramp
// (0–0.8 s, the span of S0 Fig. 20) the friction is μ_d·W (±2%). After the
// ramp the block accelerates at (16 N − μ_d·W)/m ≈ 10 m/s², whose inertial
// moment m·a·a/2 exceeds m·g·a/2: it starts to tip forward, which is physics
// and not compared.
func TestS0Ex3aFrictionLimits(t *testing.T) {
	checkS0Ex3a(t, load(t, "sliding-block-a"))
}

// checkS0Ex3a runs the sliding-block-a world w (with any integrator) to 1 s
// and checks S0 example 3a's Coulomb limits (see TestS0Ex3aFrictionLimits).
func checkS0Ex3a(t *testing.T, w *world.World) {
	t.Helper()
	bi := w.BodyByName("block")
	if bi < 0 {
		bi = len(w.Bodies()) - 1
	}
	p := w.Params(w.Bodies()[bi].Material, 0)
	W := w.Bodies()[bi].Mass() * 9.81
	muS, muD := p.Friction.MuS, p.Friction.MuD
	var stickChecked, slideChecked int
	var worstStick, worstSlide float64
	x0 := w.Bodies()[bi].X.X
	advance(t, w, 1.0, func() bool {
		F := w.LoadValues[0].F.X
		R := w.Walls[w.WallByName("ground")].Force.X
		moved := w.Bodies()[bi].X.X - x0
		switch {
		case F > 0.05*muS*W && F < 0.95*muS*W:
			e := math.Abs(-R-F) / (muS * W)
			worstStick = math.Max(worstStick, e)
			stickChecked++
			if moved > 1e-3 {
				t.Fatalf("t=%.4f: block slid %.3g m at F = %.3g N < μ_s·W = %.3g N", w.Time, moved, F, muS*W)
			}
		case F > 1.1*muS*W && moved > 0.01 && w.Time <= 0.8:
			e := math.Abs(-R-muD*W) / (muD * W)
			worstSlide = math.Max(worstSlide, e)
			slideChecked++
		}
		return false
	})
	t.Logf("stick: %d samples, worst |R+F|/(μs W) = %.3g; slide: %d samples, worst |R+μd W|/(μd W) = %.3g",
		stickChecked, worstStick, slideChecked, worstSlide)
	if stickChecked < 10 || slideChecked < 10 {
		t.Fatalf("too few samples: %d sticking, %d sliding", stickChecked, slideChecked)
	}
	if worstStick > 0.02 {
		t.Errorf("sticking friction differs from the applied force by %.3g of μ_s·W (> 2%%)", worstStick)
	}
	if worstSlide > 0.02 {
		t.Errorf("sliding friction differs from μ_d·W by %.3g (> 2%%)", worstSlide)
	}
}

// S0 example 3, case c: the force at the top face centroid topples the block
// while it still sticks (S0 Fig. 19d: no contact force left at the trailing
// edge). Statics about the leading edge: W·a/2 = F·a + N_trail·a, so the
// trailing edge unloads at F = W/2, below the sliding limit μ_s·W = 0.8·W.
// The trailing normal forces vanish (< 1% of W) at F within [0.48, 0.55]·W,
// and by 10° of rotation the leading edge has slid less than 1 mm.
func TestS0Ex3cToppleWhileSticking(t *testing.T) {
	checkS0Ex3c(t, load(t, "sliding-block-c"))
}

// checkS0Ex3c runs the sliding-block-c world w (with any integrator) until
// the block has turned 10° and checks S0 example 3c: the trailing edge
// unloads at F ∈ [0.48, 0.55]·W (statics: W/2) and the leading edge slips
// less than 1 mm before the block topples.
func checkS0Ex3c(t *testing.T, w *world.World) {
	t.Helper()
	bi := len(w.Bodies()) - 1
	b := w.Bodies()[bi]
	q0 := b.Q
	W := b.Mass() * 9.81
	lead := geom.V(0.05, 0, -0.05) // leading bottom edge (+x side), body frame
	lead0 := b.ToWorld(lead)
	unload, toppled, slip := -1.0, -1.0, 0.0
	advance(t, w, 1.0, func() bool {
		F := w.LoadValues[0].F.X
		if unload < 0 && F > 0.1*W {
			cs, f := wallContacts(w, bi)
			trail := 0.0
			for i, c := range cs {
				if c.Point().X < b.X.X {
					trail += f[i].Z
				}
			}
			if trail < 0.01*W {
				unload = F
			}
		}
		if q0.AngleTo(b.Q) > 10*math.Pi/180 {
			toppled = F
			p := b.ToWorld(lead)
			slip = math.Hypot(p.X-lead0.X, p.Y-lead0.Y)
			return true
		}
		return false
	})
	if unload < 0 || toppled < 0 {
		t.Fatalf("trailing edge unloaded at F = %.3g N, 10° rotation at F = %.3g N: the block did not topple", unload, toppled)
	}
	t.Logf("trailing edge unloads at F = %.3g W (statics: 0.5 W); 10° rotation at F = %.3g W; leading edge slid %.3g m", unload/W, toppled/W, slip)
	if unload < 0.48*W || unload > 0.55*W {
		t.Errorf("trailing edge unloaded at F = %.3g W; statics says W/2", unload/W)
	}
	if slip > 1e-3 {
		t.Errorf("leading edge slid %.3g m before the block toppled 10°: it should still stick", slip)
	}
}

// S0 example 4: the tetrapod rests on three tips with equal normal forces
// (±2%); the friction moment about the vertical axis balances the applied
// moment (±3% of μ·W·r) until the Coulomb limit μ·W·r, where r is the
// in-plane distance of the contacts from the axis, and then stays there (±3%).
func TestS0Ex4TetrapodTwist(t *testing.T) {
	checkS0Ex4(t, load(t, "tetrapod-twist"))
}

// checkS0Ex4 runs the tetrapod-twist world w (with any integrator) to 2 s
// and checks S0 example 4: W/3 per tip (±2%); the friction moment tracks the
// applied moment below μ·W·r and stays at μ·W·r beyond it (±3% of μ·W·r).
func checkS0Ex4(t *testing.T, w *world.World) {
	t.Helper()
	bi := w.BodyByName("tetrapod")
	b := w.Bodies()[bi]
	p := w.Params(b.Material, 0)
	mu := p.Friction.MuD
	W := b.Mass() * 9.81
	advance(t, w, 0.05, nil)
	cs, f := wallContacts(w, bi)
	if len(cs) != 3 {
		t.Fatalf("%d ground contacts, want 3 (tips)", len(cs))
	}
	r := 0.0
	for i, c := range cs {
		d := c.Point().Sub(b.X)
		r += math.Hypot(d.X, d.Y) / 3
		if math.Abs(f[i].Z-W/3) > 0.02*W/3 {
			t.Errorf("tip %d carries %.5g N, want W/3 = %.5g N (±2%%)", i, f[i].Z, W/3)
		}
	}
	limit := mu * W * r
	var worstTrack, worstLimit float64
	var nTrack, nLimit int
	advance(t, w, 2.0, func() bool {
		M := w.LoadValues[0].M.Z
		cs, f := wallContacts(w, bi)
		Mf := 0.0
		for i, c := range cs {
			d := c.Point().Sub(b.X)
			Mf += d.X*f[i].Y - d.Y*f[i].X
		}
		switch {
		case M < 0.95*limit:
			worstTrack = math.Max(worstTrack, math.Abs(Mf+M)/limit)
			nTrack++
		case M > 1.1*limit:
			worstLimit = math.Max(worstLimit, math.Abs(math.Abs(Mf)-limit)/limit)
			nLimit++
		}
		return false
	})
	t.Logf("r = %.4g m, μWr = %.4g N·m (reached at t = %.3g s of the 0–750 N·m ramp); tracking worst %.3g (%d samples), at limit worst %.3g (%d samples)",
		r, limit, 2*limit/750, worstTrack, nTrack, worstLimit, nLimit)
	if nTrack < 10 || nLimit < 10 {
		t.Fatalf("too few samples: %d below and %d above the limit", nTrack, nLimit)
	}
	if worstTrack > 0.03 {
		t.Errorf("friction moment differs from the applied moment by %.3g of μWr (> 3%%)", worstTrack)
	}
	if worstLimit > 0.03 {
		t.Errorf("friction moment beyond the limit differs from μWr by %.3g (> 3%%)", worstLimit)
	}
}
