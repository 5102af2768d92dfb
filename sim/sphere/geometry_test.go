package sphere

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

func randVec(rng *rand.Rand, s float64) geom.Vec3 {
	return geom.V(s*(2*rng.Float64()-1), s*(2*rng.Float64()-1), s*(2*rng.Float64()-1))
}

// TestSphereSphereRandom checks δ, n and the mid-plane point against direct
// computation from the deepest surface points, tolerance 1e-12 (lengths ~1).
func TestSphereSphereRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const tol = 1e-12
	contacts := 0
	for i := 0; i < 2000; i++ {
		xa, xb := randVec(rng, 1), randVec(rng, 1)
		ra, rb := 0.1+rng.Float64(), 0.1+rng.Float64()
		delta, n, p, ok := SphereSphere(xa, xb, ra, rb)
		dist := math.Sqrt((xa.X-xb.X)*(xa.X-xb.X) + (xa.Y-xb.Y)*(xa.Y-xb.Y) + (xa.Z-xb.Z)*(xa.Z-xb.Z))
		u := geom.V((xa.X-xb.X)/dist, (xa.Y-xb.Y)/dist, (xa.Z-xb.Z)/dist)
		pa := geom.V(xa.X-ra*u.X, xa.Y-ra*u.Y, xa.Z-ra*u.Z) // A's deepest point
		pb := geom.V(xb.X+rb*u.X, xb.Y+rb*u.Y, xb.Z+rb*u.Z) // B's deepest point
		mid := geom.V((pa.X+pb.X)/2, (pa.Y+pb.Y)/2, (pa.Z+pb.Z)/2)
		if ok != (dist < ra+rb) || math.Abs(delta-(ra+rb-dist)) > tol {
			t.Fatalf("case %d: δ=%g ok=%v, want %g", i, delta, ok, ra+rb-dist)
		}
		if n.Sub(u).Norm() > tol || math.Abs(n.Norm()-1) > tol || p.Sub(mid).Norm() > tol {
			t.Fatalf("case %d: n=%v p=%v, want %v %v", i, n, p, u, mid)
		}
		if ok {
			contacts++
			// mid-plane: equidistant (signed, along n) from both surfaces; inside
			// both spheres unless one nearly swallows the other.
			inside := dist < math.Abs(ra-rb) || (p.Dist(xa) <= ra+tol && p.Dist(xb) <= rb+tol)
			if math.Abs(p.Sub(pa).Dot(n)-delta/2) > tol || !inside {
				t.Fatalf("case %d: point %v not on the overlap's mid-plane", i, p)
			}
		}
		d2, n2, p2, ok2 := SphereSphere(xb, xa, rb, ra) // swapping A and B flips n only
		if ok2 != ok || math.Abs(d2-delta) > tol || n2.Add(n).Norm() > tol || p2.Sub(p).Norm() > tol {
			t.Fatalf("case %d: not symmetric under A↔B", i)
		}
	}
	if contacts < 200 || contacts > 1800 {
		t.Errorf("poor mix: %d contacts of 2000", contacts)
	}
}

// TestSphereSphereEdges covers separated, touching and concentric spheres.
func TestSphereSphereEdges(t *testing.T) {
	if d, _, _, ok := SphereSphere(geom.V(3, 0, 0), geom.V(0, 0, 0), 1, 1.5); ok || math.Abs(d+0.5) > 1e-15 {
		t.Errorf("separated: δ=%g ok=%v, want −0.5 false", d, ok)
	}
	if _, _, _, ok := SphereSphere(geom.V(0, 2.5, 0), geom.V(0, 0, 0), 1, 1.5); ok {
		t.Error("touching counts as contact")
	}
	d, n, p, ok := SphereSphere(geom.V(1, 1, 1), geom.V(1, 1, 1), 1, 2)
	if !ok || d != 3 || n != geom.V(0, 0, 1) || p.Sub(geom.V(1, 1, 1.5)).Norm() > 1e-15 {
		t.Errorf("concentric: δ=%g n=%v p=%v ok=%v", d, n, p, ok)
	}
}

// TestSpherePlaneRandom builds a centre at known height s over a random plane
// and checks δ = r − s, n̂ and the mid-plane point, tolerance 1e-12.
func TestSpherePlaneRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const tol = 1e-12
	for i := 0; i < 2000; i++ {
		nHat := randVec(rng, 1).Unit()
		u := nHat.AnyPerp()
		w := nHat.Cross(u)
		p := randVec(rng, 2)
		r := 0.1 + rng.Float64()
		s := 2*rng.Float64() - 0.5 // centre height over the plane
		a, b := 3*rng.Float64(), 3*rng.Float64()
		x := p.AddScaled(a, u).AddScaled(b, w).AddScaled(s, nHat)
		delta, n, pt, ok := SpherePlane(x, r, p, nHat.Scale(0.1+5*rng.Float64()))
		if ok != (s < r) || math.Abs(delta-(r-s)) > tol || n.Sub(nHat).Norm() > tol {
			t.Fatalf("case %d: δ=%g ok=%v n=%v, want %g %v %v", i, delta, ok, n, r-s, s < r, nHat)
		}
		want := p.AddScaled(a, u).AddScaled(b, w).AddScaled((s-r)/2, nHat) // halfway between plane and sphere bottom
		if pt.Sub(want).Norm() > tol {
			t.Fatalf("case %d: point %v, want %v", i, pt, want)
		}
	}
	if d, _, _, ok := SpherePlane(geom.V(0, 0, 1), 1, geom.V(0, 0, 0), geom.V(0, 0, 0)); ok || !math.IsNaN(d) {
		t.Errorf("zero normal: δ=%g ok=%v", d, ok)
	}
}

// TestEffectiveRadius checks R_eff for spheres and a plane.
func TestEffectiveRadius(t *testing.T) {
	inf := math.Inf(1)
	if EffectiveRadius(1, 1) != 0.5 || EffectiveRadius(2, inf) != 2 || EffectiveRadius(inf, 3) != 3 || !math.IsInf(EffectiveRadius(inf, inf), 1) {
		t.Error("EffectiveRadius")
	}
}
