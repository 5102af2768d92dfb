package cd

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/krylov"
)

// pose is a rigid placement: centre x and rotation q.
type pose struct {
	x geom.Vec3
	q geom.Quat
}

// perturb returns the pose moved by generalised displacement component k
// (0–2 translation, 3–5 rotation about the centre, world axes) of size h.
func (p pose) perturb(k int, h float64) pose {
	var e geom.Vec3
	switch k % 3 {
	case 0:
		e.X = h
	case 1:
		e.Y = h
	default:
		e.Z = h
	}
	if k < 3 {
		return pose{p.x.Add(e), p.q}
	}
	return pose{p.x, geom.QFromRotVec(e).Mul(p.q).Normalize()}
}

// checkGradient compares B (one contact between bodies 0 and 1, or body 0
// and an obstacle) with central differences of the gap function gap(pA, pB).
func checkGradient(t *testing.T, name string, bodies []Body, c Contact, gap func(pA, pB pose) float64) {
	t.Helper()
	s, err := NewSystem(bodies, []Contact{c})
	if err != nil {
		t.Fatal(err)
	}
	B := s.GapGradient()[0]
	poses := []pose{{bodies[0].X, bodies[0].Q}}
	if len(bodies) > 1 {
		poses = append(poses, pose{bodies[1].X, bodies[1].Q})
	}
	const h = 1e-6
	for a := range poses {
		for k := range 6 {
			pp := append([]pose(nil), poses...)
			pm := append([]pose(nil), poses...)
			pp[a] = poses[a].perturb(k, h)
			pm[a] = poses[a].perturb(k, -h)
			eval := func(p []pose) float64 {
				if len(p) == 1 {
					return gap(p[0], pose{})
				}
				return gap(p[0], p[1])
			}
			fd := (eval(pp) - eval(pm)) / (2 * h)
			if d := math.Abs(fd - B[6*a+k]); d > 1e-7 {
				t.Errorf("%s: ∂Φ/∂q[%d] = %.10f, finite difference %.10f", name, 6*a+k, B[6*a+k], fd)
			}
		}
	}
}

func randQuat(r *rand.Rand) geom.Quat {
	return geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
}

func boxBody(m float64, half geom.Vec3, x geom.Vec3, q geom.Quat) Body {
	R := q.Mat()
	Ib := geom.Diag(m/3*(half.Y*half.Y+half.Z*half.Z), m/3*(half.X*half.X+half.Z*half.Z), m/3*(half.X*half.X+half.Y*half.Y))
	return Body{Mass: m, Inertia: R.Mul(Ib).Mul(R.T()), X: x, Q: q}
}

// TestGapGradientFiniteDifference checks B (S3 eq. 15) against central
// differences of exact gap functions under small rigid motions.
func TestGapGradientFiniteDifference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	half := geom.V(0.3, 0.2, 0.1)

	// A box vertex on a fixed plane z = 0 (B = −1).
	{
		q := randQuat(r)
		vb := geom.V(half.X, -half.Y, half.Z) // vertex in the body frame
		x := geom.V(0.1, -0.2, 0).Sub(q.Rotate(vb)).Add(geom.V(0, 0, 0.01))
		b := boxBody(2, half, x, q)
		P := x.Add(q.Rotate(vb))
		c := Contact{A: 0, B: -1, P: P, N: geom.V(0, 0, 1), Gap: P.Z}
		checkGradient(t, "vertex–plane", []Body{b}, c, func(pa, _ pose) float64 {
			return pa.x.Add(pa.q.Rotate(vb)).Z
		})
	}
	// Vertex of box A against a face of box B, both free and rotated.
	{
		qa, qb := randQuat(r), randQuat(r)
		xb := geom.V(0.5, 0.1, -0.3)
		nb, qf := geom.V(0, 0, 1), geom.V(0.05, -0.02, half.Z) // face normal and point, B frame
		n := qb.Rotate(nb)
		vA := geom.V(-half.X, half.Y, -half.Z)
		P := xb.Add(qb.Rotate(qf)).AddScaled(0.002, n) // vertex 2 mm above the face
		xa := P.Sub(qa.Rotate(vA))
		bodies := []Body{boxBody(1, half, xa, qa), boxBody(3, half, xb, qb)}
		c := Contact{A: 0, B: 1, P: P, N: n, Gap: 0.002}
		checkGradient(t, "vertex–face", bodies, c, func(pa, pb pose) float64 {
			Pa := pa.x.Add(pa.q.Rotate(vA))
			return pb.q.Rotate(nb).Dot(Pa.Sub(pb.x.Add(pb.q.Rotate(qf))))
		})
	}
	// Two spheres (the rotational columns vanish).
	{
		ra, rb := 0.2, 0.35
		xa, xb := geom.V(0.1, 0.2, 0.3), geom.V(0.4, -0.1, 0.05)
		n := xa.Sub(xb).Unit()
		bodies := []Body{
			{Mass: 1, Inertia: geom.Identity().Scale(0.4 * ra * ra), X: xa, Q: randQuat(r)},
			{Mass: 2, Inertia: geom.Identity().Scale(0.8 * rb * rb), X: xb, Q: randQuat(r)},
		}
		g := xa.Dist(xb) - ra - rb
		c := Contact{A: 0, B: 1, P: xb.AddScaled(rb+g/2, n), N: n, Gap: g}
		checkGradient(t, "sphere–sphere", bodies, c, func(pa, pb pose) float64 {
			return pa.x.Dist(pb.x) - ra - rb
		})
	}
}

// TestMulBTIsTranspose checks fᵀ(Bv) = (Bᵀf)ᵀv (S3 eq. 18, H = Bᵀ).
func TestMulBTIsTranspose(t *testing.T) {
	p := BuildPyramid(PyramidSpec{N: 4, Radius: 0.01, Density: 1000, Gravity: 9.81})
	s, err := NewSystem(p.Bodies, p.Contacts)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	v := make([]float64, s.NumDOF())
	f := make([]float64, len(p.Contacts))
	for i := range v {
		v[i] = r.NormFloat64()
	}
	for i := range f {
		f[i] = r.NormFloat64()
	}
	if a, b := krylov.Dot(f, s.MulB(v)), krylov.Dot(s.MulBT(f), v); math.Abs(a-b) > 1e-12*math.Abs(a) {
		t.Errorf("fᵀBv = %g, (Bᵀf)ᵀv = %g", a, b)
	}
}

func TestNewSystemRejectsBadInput(t *testing.T) {
	ok := Body{Mass: 1, Inertia: geom.Identity()}
	cases := map[string]struct {
		b []Body
		c []Contact
	}{
		"mass":    {[]Body{{Mass: 0, Inertia: geom.Identity()}}, nil},
		"inertia": {[]Body{{Mass: 1}}, nil},
		"index":   {[]Body{ok}, []Contact{{A: 0, B: 3, N: geom.V(0, 0, 1)}}},
		"self":    {[]Body{ok}, []Contact{{A: 0, B: 0, N: geom.V(0, 0, 1)}}},
		"normal":  {[]Body{ok}, []Contact{{A: 0, B: -1}}},
		"k":       {[]Body{ok}, []Contact{{A: 0, B: -1, N: geom.V(0, 0, 1), K: -1}}},
	}
	for name, c := range cases {
		if _, err := NewSystem(c.b, c.c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
