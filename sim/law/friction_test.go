package law_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

var ez = geom.V(0, 0, 1)

// (i) Ramp: linear in ε_t until μ_s f_n, then μ_d f_n while sliding.
// (ii) Reversing the motion re-sticks and unloads along ε_t.
func TestFrictionRampAndReverse(t *testing.T) {
	f := law.Friction{MuS: 0.5, MuD: 0.3, EpsT: 1000}
	const fn, step = 10.0, 1.3e-4
	var st law.FrictionState
	dgt := geom.V(step, 0, 0.7) // the normal component must be projected out
	k := 0
	for ; k < 38; k++ { // 0.13·38 = 4.94 < μ_s f_n = 5
		ft := f.Update(&st, ez, dgt, geom.Vec3{}, fn)
		want := geom.V(-f.EpsT*step*float64(k+1), 0, 0) // on A, against A's +x motion
		if st.Sliding || ft.Dist(want) > 1e-9*want.Norm() {
			t.Fatalf("stick step %d: ft=%v want %v sliding=%v", k, ft, want, st.Sliding)
		}
		if e := f.Potential(&st); rel(e, want.Norm2()/(2*f.EpsT)) > 1e-9 {
			t.Fatalf("potential %g", e)
		}
	}
	for ; k < 60; k++ {
		ft := f.Update(&st, ez, dgt, geom.Vec3{}, fn)
		want := geom.V(-f.MuD*fn, 0, 0)
		if !st.Sliding || ft.Dist(want) > 1e-9*want.Norm() {
			t.Fatalf("slide step %d: ft=%v want %v sliding=%v", k, ft, want, st.Sliding)
		}
		if st.Gt.Dist(geom.V(f.MuD*fn/f.EpsT, 0, 0)) > 1e-15 { // S0 eq. (58)
			t.Fatalf("recoverable gap %v", st.Gt)
		}
	}
	// Reverse: sticks at once; the force unloads with slope ε_t, changes sign,
	// and slips again at μ_s f_n the other way.
	back := dgt.Scale(-1)
	for j := 1; ; j++ {
		ft := f.Update(&st, ez, back, geom.Vec3{}, fn)
		want := geom.V(-(f.MuD*fn - f.EpsT*step*float64(j)), 0, 0)
		if math.Abs(want.X) <= f.MuS*fn {
			if st.Sliding || ft.Dist(want) > 1e-9*f.MuS*fn {
				t.Fatalf("reverse step %d: ft=%v want %v sliding=%v", j, ft, want, st.Sliding)
			}
			continue
		}
		if !st.Sliding || ft.Dist(geom.V(f.MuD*fn, 0, 0)) > 1e-9 {
			t.Fatalf("reverse slip step %d: ft=%v sliding=%v", j, ft, st.Sliding)
		}
		break
	}
}

// Sliding direction follows the trial force including its viscous part (S0 eq. 55–56).
func TestFrictionViscous(t *testing.T) {
	f := law.Friction{MuS: 0.4, MuD: 0.4, EpsT: 100, CT: 5}
	var st law.FrictionState
	ft := f.Update(&st, ez, geom.V(0.01, 0, 0), geom.V(0, 0.1, 3), 100)
	if want := geom.V(-1, -0.5, 0); st.Sliding || ft.Dist(want) > 1e-12 {
		t.Fatalf("ft=%v want %v", ft, want)
	}
	ft = f.Update(&st, ez, geom.V(0, 0, 0), geom.V(0, 20, 0), 1)
	if want := geom.V(-1, -100, 0).Unit().Scale(0.4); !st.Sliding || ft.Dist(want) > 1e-12 {
		t.Fatalf("ft=%v want %v", ft, want)
	}
	// |f_e| = 1 > μ f_n = 0.4: the elastic gap is reset along f_e (S0 eq. 57–58).
	if st.Gt.Dist(geom.V(0.4/100, 0, 0)) > 1e-15 {
		t.Fatalf("g_t = %v", st.Gt)
	}
}

// (iii) A 90° turn of the normal about a tangent axis carries g_t rigidly.
func TestFrictionNormalRotation(t *testing.T) {
	f := law.Friction{MuS: 1, MuD: 1, EpsT: 1}
	st := law.FrictionState{Gt: geom.V(0.3, -0.4, 0), N: ez}
	q := geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/2)
	n := q.Rotate(ez) // (0, −1, 0)
	f.Update(&st, n, geom.Vec3{}, geom.Vec3{}, 1e9)
	if st.Gt.Dist(geom.V(0.3, 0, -0.4)) > 1e-15 || math.Abs(st.Gt.Dot(n)) > 1e-15 || st.N != n {
		t.Fatalf("g_t = %v after turning the normal to %v", st.Gt, n)
	}
	r := rand.New(rand.NewSource(31))
	for i := 0; i < 1000; i++ {
		n0 := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Unit()
		g0 := n0.AnyPerp().Scale(r.Float64())
		g0 = q.Rotate(g0).AddScaled(-q.Rotate(g0).Dot(n0), n0) // random tangent vector
		axis := n0.AnyPerp()
		axis = geom.QAxisAngle(n0, 6*r.Float64()).Rotate(axis) // random tangent axis
		qr := geom.QAxisAngle(axis, 3*r.Float64())
		st := law.FrictionState{Gt: g0, N: n0}
		n1 := qr.Rotate(n0)
		f.Update(&st, n1, geom.Vec3{}, geom.Vec3{}, 1e9)
		if d := st.Gt.Dist(qr.Rotate(g0)); d > 1e-12 {
			t.Fatalf("rotated g_t off by %g", d)
		}
		if math.Abs(st.Gt.Dot(n1)) > 1e-12 || math.Abs(st.Gt.Dot(axis)-g0.Dot(axis)) > 1e-12 {
			t.Fatalf("g_t not tangent or axis component changed")
		}
	}
}

// (iv) |f_t| ≤ μ_s f_n and f_t ⊥ n over random histories.
func TestFrictionBoundProperty(t *testing.T) {
	r := rand.New(rand.NewSource(32))
	for s := 0; s < 200; s++ {
		mus := 2 * r.Float64()
		f := law.Friction{MuS: mus, MuD: mus * r.Float64(), EpsT: math.Pow(10, 6*r.Float64()), CT: 10 * r.Float64()}
		if s%10 == 0 {
			f.CT = 0
		}
		var st law.FrictionState
		n := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Unit()
		for i := 0; i < 500; i++ {
			if r.Float64() < 0.3 { // turn the normal a little (or, rarely, a lot)
				ang := 0.05 * r.NormFloat64()
				if r.Float64() < 0.02 {
					ang = 3.1
				}
				n = geom.QAxisAngle(n.AnyPerp(), ang).Rotate(n)
			}
			fn := 10 * r.Float64()
			if r.Float64() < 0.05 {
				fn = 0
			}
			dgt := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(1e-3 * r.Float64())
			v := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.1 * r.Float64())
			ft := f.Update(&st, n, dgt, v, fn)
			if m := ft.Norm(); m > f.MuS*fn*(1+1e-12) || math.IsNaN(m) {
				t.Fatalf("set %d step %d: |ft|=%g > μ_s f_n=%g", s, i, m, f.MuS*fn)
			}
			if math.Abs(ft.Dot(n)) > 1e-12*(1+ft.Norm()) || math.Abs(st.Gt.Dot(n)) > 1e-12*(1+st.Gt.Norm()) {
				t.Fatalf("force or gap not tangent")
			}
			if st.Sliding && math.Abs(ft.Norm()-f.MuD*fn) > 1e-9*(1+f.MuD*fn) {
				t.Fatalf("sliding force %g ≠ μ_d f_n %g", ft.Norm(), f.MuD*fn)
			}
		}
	}
	// Infinite normal force (barrier at contact) and frictionless contacts stay finite.
	var st law.FrictionState
	if ft := (law.Friction{}).Update(&st, ez, geom.V(1, 0, 0), geom.V(1, 0, 0), math.Inf(1)); ft != (geom.Vec3{}) {
		t.Fatalf("frictionless ft = %v", ft)
	}
}

func TestFrictionValidate(t *testing.T) {
	if err := (law.Friction{MuS: 0.5, MuD: 0.5, EpsT: 1, CT: 0}).Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    law.Friction
		want string
	}{
		{law.Friction{MuS: math.NaN()}, "mu_s must be finite"},
		{law.Friction{MuS: 1, MuD: math.Inf(1)}, "mu_d must be finite"},
		{law.Friction{MuS: 1, EpsT: -1}, "eps_t must be >= 0 (got -1)"},
		{law.Friction{MuS: 1, CT: -2}, "c_t must be >= 0"},
		{law.Friction{MuS: 0.3, MuD: 0.4}, "mu_d must be <= mu_s"},
	} {
		if err := c.f.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: want %q, got %v", c.f, c.want, err)
		}
	}
}

var sinkF float64

func BenchmarkFrictionUpdate(b *testing.B) {
	f := law.Friction{MuS: 0.5, MuD: 0.4, EpsT: 1e4, CT: 1}
	var st law.FrictionState
	n := geom.V(0, 0.6, 0.8)
	for b.Loop() {
		sinkF += f.Update(&st, n, geom.V(1e-5, 2e-5, 0), geom.V(0.1, 0, 0), 10).X
	}
}

// UpdateStick decides the stick→slip switch against μ_d·fn + (μ_s − μ_d)·fnStick
// (S0 §2.4.9 with the static excess at the start-of-step normal force) and
// slides at μ_d·fn (eq. 56): with fn = 10 N, fnStick = 12 N the limit is
// 8.4 N instead of Update's 8 N; a trial force between them sticks (Update
// would slide), one beyond slides at μ_d·fn, and a sliding contact keeps its
// test against μ_d·fn. With μ_s = μ_d, UpdateStick is Update for any fnStick.
func TestFrictionUpdateStick(t *testing.T) {
	f := law.Friction{MuS: 0.8, MuD: 0.6, EpsT: 1e5}
	const fn, fnStick = 10.0, 12.0
	for _, c := range []struct {
		ftr       float64 // elastic trial force of a fresh contact (N)
		slideWant bool
	}{
		{7.5, false},
		{8.2, false}, // beyond μ_s·fn = 8, below 8.4
		{8.6, true},
	} {
		var st law.FrictionState
		gt := c.ftr / f.EpsT
		ft := f.UpdateStick(&st, ez, geom.V(gt, 0, 0), geom.Vec3{}, fn, fnStick)
		want := -c.ftr
		if c.slideWant {
			want = -f.MuD * fn
		}
		if st.Sliding != c.slideWant || math.Abs(ft.X-want) > 1e-9*math.Abs(want) {
			t.Errorf("f_tr %.3g N: ft %v sliding %v, want %.6g sliding %v", c.ftr, ft, st.Sliding, want, c.slideWant)
		}
		// Update is UpdateStick with fnStick = fn.
		fu := f.Update(&law.FrictionState{}, ez, geom.V(gt, 0, 0), geom.Vec3{}, fn)
		fs := f.UpdateStick(&law.FrictionState{}, ez, geom.V(gt, 0, 0), geom.Vec3{}, fn, fn)
		if fu != fs {
			t.Errorf("f_tr %.3g N: Update %v ≠ UpdateStick(fn, fn) %v", c.ftr, fu, fs)
		}
		// μ_s = μ_d: fnStick plays no part.
		eq := law.Friction{MuS: 0.6, MuD: 0.6, EpsT: 1e5}
		if a, b := eq.Update(&law.FrictionState{}, ez, geom.V(gt, 0, 0), geom.Vec3{}, fn),
			eq.UpdateStick(&law.FrictionState{}, ez, geom.V(gt, 0, 0), geom.Vec3{}, fn, 3*fnStick); a != b {
			t.Errorf("μ_s = μ_d, f_tr %.3g N: Update %v ≠ UpdateStick %v", c.ftr, a, b)
		}
	}
	// Sliding: a trial force of 7 N > μ_d·fn = 6 N slides at μ_d·fn, even
	// though it is below μ_d·fnStick = 7.2 N.
	st := law.FrictionState{Sliding: true, N: ez}
	ft := f.UpdateStick(&st, ez, geom.V(7/f.EpsT, 0, 0), geom.Vec3{}, fn, fnStick)
	if !st.Sliding || math.Abs(ft.X+f.MuD*fn) > 1e-9 {
		t.Errorf("sliding: ft %v sliding %v, want %.3g sliding", ft, st.Sliding, -f.MuD*fn)
	}
}

// The return mapping of UpdateStick never grows the recoverable gap (S0
// eq. 57–58; a growth would store ½ε_t|g_t|² from nothing): random states,
// normal forces fn and fnStick, and tangential velocities whose viscous part
// may cancel the elastic force, with no displacement increment.
func TestFrictionUpdateStickNoGrowth(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		muD := rng.Float64()
		f := law.Friction{MuS: muD + rng.Float64(), MuD: muD, EpsT: 1e5, CT: 20}
		gt0 := geom.V(rng.NormFloat64(), rng.NormFloat64(), 0).Scale(1e-4)
		st := law.FrictionState{Gt: gt0, N: ez, Sliding: rng.Intn(2) == 0}
		v := geom.V(rng.NormFloat64(), rng.NormFloat64(), 0).Scale(0.5)
		fn, fnStick := 100*rng.Float64(), 100*rng.Float64()
		f.UpdateStick(&st, ez, geom.Vec3{}, v, fn, fnStick)
		if g, g0 := st.Gt.Norm(), gt0.Norm(); g > g0*(1+1e-12) {
			t.Fatalf("case %d: |g_t| grew from %.3g to %.3g m (μ_s %.3g, μ_d %.3g, fn %.3g, fnStick %.3g)", i, g0, g, f.MuS, f.MuD, fn, fnStick)
		}
	}
}

// Projector gives the bits of geom.Identity().Sub(geom.Outer(n, n)) (the
// tangents' projection written out), signed zeros included, for random
// unit vectors and the axes.
func TestProjectorSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	ns := []geom.Vec3{geom.V(1, 0, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(-1, 0, 0)}
	for i := 0; i < 10000; i++ {
		ns = append(ns, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit())
	}
	for _, n := range ns {
		got, want := law.Projector(n), geom.Identity().Sub(geom.Outer(n, n))
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				if math.Float64bits(got[i][j]) != math.Float64bits(want[i][j]) {
					t.Fatalf("n %v: P[%d][%d] = %v, want %v (bit for bit)", n, i, j, got[i][j], want[i][j])
				}
			}
		}
	}
}
