package body

import (
	"grainlab/sim/internal/fma"
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// A box of density ρ has m = ρabc and J = m/12·diag(b²+c², a²+c², a²+b²);
// the world inertia is Q J Qᵀ (S0 eq. 15) and ½ω·Jω is frame independent.
func TestBoxMassAndWorldInertia(t *testing.T) {
	a, b, c, rho := 0.1, 0.2, 0.3, 1500.0
	q := geom.QAxisAngle(geom.V(1, 2, 3), 0.7)
	bd := New("box", shape.Box(a, b, c), rho, geom.V(1, 2, 3), q)
	m := rho * a * b * c
	if math.Abs(bd.Mass()-m) > 1e-12*m {
		t.Fatalf("mass %g want %g", bd.Mass(), m)
	}
	Jb := geom.Diag(m*(b*b+c*c)/12, m*(a*a+c*c)/12, m*(a*a+b*b)/12)
	if d := bd.IBody().MaxAbsDiff(Jb); d > 1e-12 {
		t.Fatalf("body inertia off by %g", d)
	}
	R := q.Mat()
	if d := bd.InertiaWorld().MaxAbsDiff(R.Mul(Jb).Mul(R.T())); d > 1e-12 {
		t.Fatalf("world inertia off by %g", d)
	}
	if d := bd.InertiaWorld().Mul(bd.InvInertiaWorld()).MaxAbsDiff(geom.Identity()); d > 1e-9 {
		t.Fatalf("J J⁻¹ ≠ I by %g", d)
	}
	wb := geom.V(0.3, -1, 2) // body-frame ω
	bd.W = q.Rotate(wb)
	want := 0.5 * wb.Dot(Jb.MulV(wb))
	if e := bd.KineticEnergy(); math.Abs(e-want) > 1e-12*want {
		t.Fatalf("rotational energy %g want %g", e, want)
	}
}

// A force at a point gives the force plus the moment (p − x)×f about the centre.
func TestApplyForceAt(t *testing.T) {
	bd := New("box", shape.Box(1, 1, 1), 1, geom.V(1, 0, 0), geom.QIdent())
	bd.ApplyForceAt(geom.V(0, 2, 0), geom.V(1, 0, 0.5))
	if bd.F != geom.V(0, 2, 0) {
		t.Fatalf("F = %v", bd.F)
	}
	if d := bd.T.Sub(geom.V(-1, 0, 0)).Norm(); d > 1e-15 {
		t.Fatalf("T = %v want (−1,0,0)", bd.T)
	}
}

// Linear ramps (S0 ex. 3: 0 → 16 N over 0.8 s) and body-frame follower loads.
func TestRampAndLoad(t *testing.T) {
	r := Ramp{From: geom.Vec3{}, To: geom.V(16, 0, 0), T0: 0, T1: 0.8}
	for _, c := range []struct{ t, want float64 }{{-1, 0}, {0, 0}, {0.2, 4}, {0.4, 8}, {0.8, 16}, {5, 16}} {
		if got := r.At(c.t).X; math.Abs(got-c.want) > 1e-12 {
			t.Fatalf("ramp(%g) = %g want %g", c.t, got, c.want)
		}
	}
	q := geom.QAxisAngle(geom.V(0, 0, 1), math.Pi/2)
	bd := New("box", shape.Box(1, 1, 1), 1, geom.Vec3{}, q)
	l := Load{Point: geom.V(0, 0, 0.5), Frame: BodyFrame, Force: Const(geom.V(1, 0, 0))}
	f, _ := l.Apply(bd, 0)
	if d := f.Sub(geom.V(0, 1, 0)).Norm(); d > 1e-12 {
		t.Fatalf("follower force %v want (0,1,0)", f)
	}
	// Moment of a force at height 0.5: (0,0,0.5)×(0,1,0) = (−0.5,0,0).
	if d := bd.T.Sub(geom.V(-0.5, 0, 0)).Norm(); d > 1e-12 {
		t.Fatalf("moment %v", bd.T)
	}
}

// Conjugate is q.Rotate(m.MulV(q.InvRotate(v))) written out, and
// VelocityAt, ApplyForceAt and KineticEnergy are their vector forms
// written out: the same bits for random orientations (normalised and not),
// tensors and vectors over many magnitudes, and for special values (zeros, NaN, ±Inf; a NaN may
// come out with another sign or payload — x86 keeps the first operand's,
// and the compiler may swap a product's operands — which no result keeps:
// a non-finite state is rejected and printed as NaN).
func TestConjugateSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	val := func() float64 {
		switch rng.IntN(40) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.NaN()
		case 3:
			return math.Inf(1 - 2*rng.IntN(2))
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(30)-15))
	}
	eq := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	same := func(a, b geom.Vec3) bool { return eq(a.X, b.X) && eq(a.Y, b.Y) && eq(a.Z, b.Z) }
	for n := 0; n < 200000; n++ {
		q := geom.Quat{W: val(), X: val(), Y: val(), Z: val()}
		if n%2 == 0 {
			q = q.Normalize()
		}
		var m geom.Mat3
		for i := range m {
			for j := range m[i] {
				m[i][j] = val()
			}
		}
		v := geom.V(val(), val(), val())
		want := q.Rotate(m.MulV(q.InvRotate(v)))
		if got := Conjugate(q, &m, v); !same(got, want) {
			t.Fatalf("q %v m %v v %v: Conjugate %v, want %v", q, m, v, got, want)
		}
		b := &Body{Q: geom.QIdent(), p: &props{iBody: m, iBodyInv: m}}
		if got := b.MulInvInertiaAt(q, v); !same(got, want) {
			t.Fatalf("MulInvInertiaAt %v, want %v", got, want)
		}
		b.Q = q
		if got := b.MulInertia(v); !same(got, want) {
			t.Fatalf("MulInertia %v, want %v", got, want)
		}
		if got := b.MulInvInertia(v); !same(got, want) {
			t.Fatalf("MulInvInertia %v, want %v", got, want)
		}
		b.X, b.V, b.W, b.F, b.T, b.p.mass = geom.V(val(), val(), val()), geom.V(val(), val(), val()), geom.V(val(), val(), val()),
			geom.V(val(), val(), val()), geom.V(val(), val(), val()), val()
		p, f := geom.V(val(), val(), val()), geom.V(val(), val(), val())
		if got, want := b.VelocityAt(p), b.V.Add(b.W.Cross(p.Sub(b.X))); !same(got, want) {
			t.Fatalf("VelocityAt %v, want %v", got, want)
		}
		wantF, wantT := b.F.Add(f), b.T.Add(p.Sub(b.X).Cross(f))
		if b.ApplyForceAt(f, p); !same(b.F, wantF) || !same(b.T, wantT) {
			t.Fatalf("ApplyForceAt: F %v T %v, want %v %v", b.F, b.T, wantF, wantT)
		}
		wb := b.Q.InvRotate(b.W)
		wantE := 0.5*b.Mass()*b.V.Norm2() + 0.5*wb.Dot(b.IBody().MulV(wb))
		// Where products may fuse (fma.MayFuse) the written-out sum rounds
		// differently from KineticEnergy's (random masses of either sign
		// cancel): relative 1e-9 of the larger term.
		scale := max(math.Abs(0.5*b.Mass()*b.V.Norm2()), math.Abs(0.5*wb.Dot(b.IBody().MulV(wb))))
		if got := b.KineticEnergy(); !fma.Same(got, wantE, 1e-9, scale) {
			t.Fatalf("KineticEnergy %v, want %v", got, wantE)
		}
	}
}
