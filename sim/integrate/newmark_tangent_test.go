package integrate

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/krylov"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// vertexOnGround is a cube standing on one vertex at gap g above the ground
// (one vertex–face contact), with the lagged dashpot and Coulomb test that
// newmark uses, evaluated once and committed (the contact has a history;
// fresh: the cube was out of reach then, the contact is new) and then
// evaluated at velocity v (the cube's, ω = 0) with step dt.
func vertexOnGround(t *testing.T, mu, g float64, v geom.Vec3, dt float64, fresh bool) (*world.World, *body.Body) {
	t.Helper()
	w := groundWorld(t, cubeParams(0.3, mu))
	q := geom.QAxisAngle(geom.V(1, 0, 0), 0.3).Mul(geom.QAxisAngle(geom.V(0, 1, 0), 0.2))
	b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, q)
	w.AddBody(b)
	lowestAt(b, g*1.01)
	if fresh {
		lowestAt(b, 0.01)
	}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	w.SetDampLag(true, true)
	w.SetStickLag(true)
	b.V = v
	w.Evaluate(0, dt, world.Eval{})
	w.Commit(world.Commit{})
	lowestAt(b, g)
	w.Evaluate(dt, dt, world.Eval{})
	return w, b
}

// cubeForce returns the contact force on the cube of the one active contact
// and its normal (from the ground to the cube).
func cubeForce(w *world.World, cube int) (f, n geom.Vec3) {
	w.EachTrialContact(func(a, b int, c *contact.Contact) {
		if !c.Active() {
			return
		}
		fa := c.N.Scale(c.Fn).Add(c.Ft)
		if a == cube {
			f, n = fa, c.N
		} else {
			f, n = fa.Neg(), c.N.Neg()
		}
	})
	return f, n
}

// The law tangent of world.ContactTangents (S0 eq. 49–57) against central
// differences of the evaluated contact force, at fixed geometry: velocity
// changes of the cube (the gap is fixed) and translations along the contact
// normal (which change the gap only; a vertex–face contact's normal and
// levers do not change under a translation). In the barrier (g < ḡḡ) and
// penalty (ḡḡ < g < ḡ) parts of eq. (49), sticking and sliding, with a
// history (the lagged dashpot coefficient) and new (eq. 52's coefficient at
// the current gap, with and without the entry fraction; and a closing
// contact at the skin's edge, whose lagged coefficient takes the entry
// fraction, World.DashpotAt): relative error
// ≤ 1e-5 in ∂f/∂g and ∂f/∂v.
func TestContactLawTangent(t *testing.T) {
	const gbar, dt = 1e-3, 1e-3
	cases := []struct {
		name  string
		mu, g float64
		v     geom.Vec3
		slide bool
		fresh bool // a contact new in the step (eq. 52's coefficient at its gap, the entry fraction)
	}{
		{"barrier, sticking", 0.8, 0.3 * gbar, geom.V(1e-4, -2e-5, -1e-3), false, false},
		{"barrier, sliding", 0.1, 0.3 * gbar, geom.V(0.5, 0.2, -1e-3), true, false},
		{"penalty, sticking", 0.8, 0.8 * gbar, geom.V(-2e-5, 1e-5, -1e-3), false, false},
		{"penalty, sliding", 0.1, 0.8 * gbar, geom.V(-0.3, 0.4, 2e-3), true, false},
		{"barrier, new contact", 0.8, 0.3 * gbar, geom.V(1e-4, -2e-5, -1e-3), false, true},
		{"barrier, new contact, entry fraction", 0.1, 0.3 * gbar, geom.V(0.5, 0.2, -1), true, true},
		{"penalty, new contact, entry fraction", 0.8, 0.8 * gbar, geom.V(1e-4, 0, -0.5), false, true},
		{"penalty, closing at the skin's edge, lagged with entry fraction", 0.8, 0.95 * gbar, geom.V(1e-4, 0, -0.5), false, false},
	}
	for _, tc := range cases {
		w, b := vertexOnGround(t, tc.mu, tc.g, tc.v, dt, tc.fresh)
		cube := 1
		if w.Bodies()[cube] != b {
			t.Fatal("cube is not body 1")
		}
		var dg geom.Vec3
		var dv geom.Mat3
		var sliding bool
		nc := 0
		w.ContactTangents(dt, func(a, bb int, c *contact.Contact, g geom.Vec3, v geom.Mat3) {
			nc++
			dg, dv, sliding = g, v, c.Fric.Sliding
			if bb == cube { // the cube is B: its force is −f_A, its relative velocity −v
				dg = dg.Neg()
			}
		})
		if nc != 1 || sliding != tc.slide {
			t.Fatalf("%s: %d contacts, sliding %v: want 1, %v", tc.name, nc, sliding, tc.slide)
		}
		_, n := cubeForce(w, cube)
		x0, v0 := b.X, b.V
		// ∂f/∂g: translate along n by ±h.
		h := 1e-4 * tc.g
		b.X = x0.AddScaled(h, n)
		w.Evaluate(dt, dt, world.Eval{Fixed: true})
		fp, _ := cubeForce(w, cube)
		b.X = x0.AddScaled(-h, n)
		w.Evaluate(dt, dt, world.Eval{Fixed: true})
		fm, _ := cubeForce(w, cube)
		b.X = x0
		fdg := fp.Sub(fm).Scale(1 / (2 * h))
		eg := fdg.Sub(dg).Norm() / fdg.Norm()
		if e := eg; !(e <= 1e-5) {
			t.Errorf("%s: ∂f/∂g = %v, differences give %v (relative error %.2g > 1e-5)", tc.name, dg, fdg, e)
		}
		// ∂f/∂v: the cube's velocity (its contact point's) by ±h e_j.
		var fdv geom.Mat3
		hv := 1e-6 * math.Max(tc.v.Norm(), 1e-3)
		for j := 0; j < 3; j++ {
			e := geom.Vec3{}
			switch j {
			case 0:
				e.X = hv
			case 1:
				e.Y = hv
			default:
				e.Z = hv
			}
			b.V = v0.Add(e)
			w.Evaluate(dt, dt, world.Eval{Fixed: true})
			fp, _ := cubeForce(w, cube)
			b.V = v0.Sub(e)
			w.Evaluate(dt, dt, world.Eval{Fixed: true})
			fm, _ := cubeForce(w, cube)
			d := fp.Sub(fm).Scale(1 / (2 * hv))
			fdv[0][j], fdv[1][j], fdv[2][j] = d.X, d.Y, d.Z
		}
		b.V = v0
		// The cube as A: f_A(v_A); as B the force and the relative velocity
		// both change sign, so ∂f/∂v is the same.
		ev := frob(fdv.Sub(dv)) / frob(fdv)
		if e := ev; !(e <= 1e-5) {
			t.Errorf("%s: ∂f/∂v = %v, differences give %v (relative error %.2g > 1e-5)", tc.name, dv, fdv, e)
		}
		t.Logf("%s: |∂f/∂g| %.4g N/m (relative error %.2g), |∂f/∂v| %.4g N·s/m (%.2g)", tc.name, dg.Norm(), eg, frob(dv), ev)
	}
}

func frob(m geom.Mat3) float64 {
	s := 0.0
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			s += m[i][j] * m[i][j]
		}
	}
	return math.Sqrt(s)
}

// The assembled tangent (newmark_tangent.go) against newmark's
// finite-difference products of the whole world (Newmark.jv) on a pile of
// four cubes on the ground (sticking and sliding vertex–face and edge–edge
// contacts, after 0.15 s of explicit settling), at the predictor of a step
// of 2 ms: ‖J v − J_fd v‖ ≤ 0.5% of ‖J_fd v‖ for random v (measured 5.2e-4). Not closer: the
// rotation of the normals and the sliding of the contact points along their
// features are left out of the tangent (about g/L relative, g/L ≈ 1e-3 here)
// and the FD products carry their own error; the law part
// alone is checked to 1e-5 by TestContactLawTangent.
func TestNewmarkTangentProducts(t *testing.T) {
	w := groundWorld(t, cubeParams(0.3, 0.4))
	for i := 0; i < 4; i++ {
		q := geom.QAxisAngle(geom.V(1, 0.3*float64(i), 0.2), 0.15*float64(i))
		b := body.New("c", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0.03*float64(i%2), 0.02*float64(i), 0), q)
		w.AddBody(b)
		lowestAt(b, 0.0005+0.11*float64(i))
		b.V = geom.V(0.05*float64(i), -0.02, 0)
	}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	run(t, w, 0.15, nil)
	nm := NewNewmark()
	w.SetDampLag(true, true)
	w.SetStickLag(true)
	nm.prepare(w)
	nm.t = w.Time
	nm.constants(2e-3)
	for k := range nm.nb {
		bd := &nm.nb[k]
		bd.up = bd.v0.Scale(nm.dt).AddScaled(0.5*nm.dt*nm.dt, bd.a0)
		bd.ap = bd.w0.Scale(nm.dt).AddScaled(0.5*nm.dt*nm.dt, bd.wd0)
	}
	clear(nm.y)
	if nm.residual(w, nm.y, nm.r) {
		t.Fatal("predictor penetrates")
	}
	nc := 0
	w.EachTrialContact(func(a, b int, c *contact.Contact) {
		if c.Active() {
			nc++
		}
	})
	if !nm.buildTangent(w) {
		t.Fatal("no tangent")
	}
	rng := rand.New(rand.NewSource(1))
	v := make([]float64, len(nm.y))
	ja, jf := make([]float64, len(v)), make([]float64, len(v))
	worst := 0.0
	for trial := 0; trial < 5; trial++ {
		for i := range v {
			v[i] = rng.NormFloat64() * 1e-6
		}
		nm.tanMul(v, ja)
		nm.jv(w)(v, jf)
		d := 0.0
		for i := range ja {
			d += (ja[i] - jf[i]) * (ja[i] - jf[i])
		}
		worst = math.Max(worst, math.Sqrt(d)/krylov.Norm(jf))
	}
	t.Logf("%d active contacts, %d off-diagonal blocks: largest relative difference %.3g", nc, 2*coupled(&nm.tan), worst)
	if nc < 6 || coupled(&nm.tan) == 0 {
		t.Fatalf("the pile has %d active contacts and %d body–body blocks: not a test of the coupling", nc, 2*coupled(&nm.tan))
	}
	if !(worst <= 5e-3) {
		t.Errorf("‖J v − J_fd v‖/‖J_fd v‖ = %.3g > 5e-3", worst)
	}
}

// The LU factors of a 6×6 block (mat6.lu, the analytic tangent's
// preconditioner) solve B x = v as the Gauss–Jordan inverse does, for
// random blocks whose pivots need row exchanges (a zero leading entry), and
// report a singular block.
func TestMat6LUSolve(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	worst := 0.0
	for trial := 0; trial < 200; trial++ {
		var B mat6
		for i := range B {
			for j := range B[i] {
				B[i][j] = rng.NormFloat64()
			}
		}
		B[0][0] = 0 // forces a row exchange
		var v, x, y [6]float64
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		inv, F := B, B
		var piv [6]uint8
		if !inv.invert() || !F.lu(&piv) {
			t.Fatalf("trial %d: a random block reported singular", trial)
		}
		F.luSolve(&piv, &v, &x)
		mulAdd6(&inv, &v, &y)
		for i := range x {
			// B x = v, residual relative to |B||x|
			r := -v[i]
			s := 0.0
			for j := range x {
				r += B[i][j] * x[j]
				s += math.Abs(B[i][j] * x[j])
			}
			worst = math.Max(worst, math.Abs(r)/s)
			if d := math.Abs(x[i] - y[i]); d > 1e-8*(1+math.Abs(y[i])) {
				t.Fatalf("trial %d: LU solve %v, inverse %v", trial, x, y)
			}
		}
	}
	t.Logf("largest relative residual of the LU solves: %.3g", worst)
	if worst > 1e-12 {
		t.Errorf("LU solve residual %.3g > 1e-12", worst)
	}
	var S mat6
	S[0][0], S[1][1] = 1, 1 // rank 2
	var piv [6]uint8
	if S.lu(&piv) {
		t.Error("a singular block was factored")
	}
}

// rodriguesMat and rodriguesXi, written out for the tangent, agree with
// geom's (S0 eq. 6, 9) to round-off.
func TestRodriguesWrittenOut(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	worst := 0.0
	for i := 0; i < 100; i++ {
		a := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(math.Pow(10, -3*rng.Float64()))
		worst = math.Max(worst, rodriguesMat(a).MaxAbsDiff(geom.RodriguesMat(a)))
		worst = math.Max(worst, rodriguesXi(a).MaxAbsDiff(geom.RodriguesXi(a)))
	}
	t.Logf("largest difference %.3g", worst)
	if worst > 1e-14 {
		t.Errorf("largest difference %.3g > 1e-14", worst)
	}
}

// kTheta, the contact force's derivative by a body's rotation written with
// cross products, against its definition by 3×3 products: −(dg⊗n)[r]× +
// dv·(−α4 [r]× Q^Δ Ξ⁻¹ + [r]×[ω]× − [ω]×[r]×) (S0 eq. 9, 22), random
// vectors and matrices.
func TestKThetaMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	rv := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	rm := func() geom.Mat3 { return geom.Rows(rv(), rv(), rv()) }
	n := NewNewmark()
	n.constants(2e-3)
	n.qxi = []geom.Mat3{rm()}
	worst := 0.0
	for i := 0; i < 100; i++ {
		dg, nv, r, om := rv(), rv(), rv(), rv().Scale(30)
		dv := rm()
		R, W := geom.Skew(r), geom.Skew(om)
		V := R.Mul(n.qxi[0]).Scale(-n.a4).Add(R.Mul(W)).Sub(W.Mul(R))
		want := geom.Outer(dg, nv).Mul(R).Scale(-1).Add(dv.Mul(V))
		got := n.kTheta(0, dg, nv, &dv, r, om)
		scale := 0.0
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				scale = math.Max(scale, math.Abs(want[a][b]))
			}
		}
		worst = math.Max(worst, got.MaxAbsDiff(want)/scale)
	}
	t.Logf("largest relative difference %.3g", worst)
	if worst > 1e-12 {
		t.Errorf("kTheta differs from its definition by %.3g (relative) > 1e-12", worst)
	}
}

// addBlk and geoBlk, written with cross products, against their
// definitions s·[I; [r]×]·[K, Kθ] and s·[f]×[r]× by 3×3 products.
func TestBlocksMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	rv := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	rm := func() geom.Mat3 { return geom.Rows(rv(), rv(), rv()) }
	worst := 0.0
	for i := 0; i < 100; i++ {
		K, Kt, r, f := rm(), rm(), rv(), rv()
		s := []float64{-1, 1}[i%2]
		var got, want mat6
		xK, xKt := crossCols(r, &K), crossCols(r, &Kt)
		addBlk(&got, &K, &Kt, &xK, &xKt, s)
		geoBlk(&got, f, r, s)
		R := geom.Skew(r)
		RK, RKt, G := R.Mul(K), R.Mul(Kt), geom.Skew(f).Mul(R)
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				want[a][b] = s * K[a][b]
				want[a][3+b] = s * Kt[a][b]
				want[3+a][b] = s * RK[a][b]
				want[3+a][3+b] = s*RKt[a][b] + s*G[a][b]
			}
		}
		for a := 0; a < 6; a++ {
			for b := 0; b < 6; b++ {
				worst = math.Max(worst, math.Abs(got[a][b]-want[a][b])/(1+math.Abs(want[a][b])))
			}
		}
	}
	t.Logf("largest relative difference %.3g", worst)
	if worst > 1e-13 {
		t.Errorf("blocks differ from their definitions by %.3g > 1e-13", worst)
	}
}

// rotResidual is Ξᵀ(ω×Jω + Jω̇ − m_e) of body b at the trial rotation
// increment al, as setTrial and residualForces compute it (S0 eq. 5, 6, 9,
// 15, 19, 22), m_e the moment of the last evaluation; R0 is the rotation
// matrix of the start-of-step orientation Q^i, so Q^Δ R0 is the trial one.
func (n *Newmark) rotResidual(b *body.Body, bd *nmBody, R0 *geom.Mat3, al geom.Vec3) geom.Vec3 {
	da := al.Sub(bd.ap)
	Qd := rodriguesMat(al)                                                            // S0 eq. (6)
	R := Qd.Mul(*R0)                                                                  // Q^Δ Q^i, S0 eq. (5)
	jmul := func(v geom.Vec3) geom.Vec3 { return R.MulV(b.IBody().MulV(R.TMulV(v))) } // S0 eq. (15)
	W := Qd.MulV(bd.w0.AddScaled(n.dt, bd.wd0).AddScaled(n.a4, da))                   // S0 eq. (22)
	wd := Qd.MulV(bd.wd0.AddScaled(n.a1, da))                                         // S0 eq. (22)
	mt := W.Cross(jmul(W)).Add(jmul(wd))                                              // S0 eq. (19)
	return rodriguesXi(al).TMulV(mt.Sub(b.T))                                         // S0 eq. (17), (62)
}

// rotJacobian's closed form (ΞᵀQ = Ξ, S0 eq. 6, 9) against central
// differences of rotResidual (the rotational residual as setTrial and
// residualForces compute it, S0 eq. 19, 22) for random bodies, rotation
// increments up to 1 rad, spins and moments, at Δt 1e-4 to 1e-2 s:
// relative error ≤ 1e-6 (the differences' own error, h = 1e-5·|α|).
func TestRotJacobian(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	rv := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	worst := 0.0
	for trial := 0; trial < 60; trial++ {
		q := geom.QAxisAngle(rv(1).Unit(), 3*rng.Float64())
		b := body.New("t", shape.Box(0.1+0.2*rng.Float64(), 0.1, 0.05+0.1*rng.Float64()), 1000, geom.Vec3{}, q)
		b.T = rv(5 * rng.Float64())
		nm := NewNewmark()
		nm.constants(math.Pow(10, -4+2*rng.Float64()))
		bd := &nmBody{q0: q, w0: rv(10), wd0: rv(100), ap: rv(0.1), alpha: rv(math.Pow(10, -3*rng.Float64())), j0: b.InertiaWorld()}
		D := nm.rotJacobian(b, bd)
		R0 := q.Mat()
		h := 1e-5 * math.Max(1e-3, bd.alpha.Norm())
		var F geom.Mat3
		for j := 0; j < 3; j++ {
			var e geom.Vec3
			switch j {
			case 0:
				e.X = h
			case 1:
				e.Y = h
			default:
				e.Z = h
			}
			d := nm.rotResidual(b, bd, &R0, bd.alpha.Add(e)).Sub(nm.rotResidual(b, bd, &R0, bd.alpha.Sub(e))).Scale(0.5 / h)
			F[0][j], F[1][j], F[2][j] = d.X, d.Y, d.Z
		}
		worst = math.Max(worst, D.MaxAbsDiff(F)/F.MaxAbsDiff(geom.Mat3{}))
	}
	t.Logf("largest relative difference from central differences: %.3g", worst)
	if !(worst <= 1e-6) {
		t.Errorf("rotJacobian differs from central differences by %.3g (relative) > 1e-6", worst)
	}
}

// coupled counts the tangent's pairs of two movable bodies (two coupling
// blocks each).
func coupled(T *nmTangent) int {
	return len(T.cpl) / 2
}
