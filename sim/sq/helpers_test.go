package sq

import (
	"math"
	"math/rand"

	"grainlab/sim/geom"
)

// randQuat returns a uniformly random unit quaternion.
func randQuat(rng *rand.Rand) geom.Quat {
	return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
}

// randDir returns a uniformly random unit vector.
func randDir(rng *rand.Rand) geom.Vec3 {
	return geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Unit()
}

// randShape returns a shape with half-lengths in [0.5, 1.5] and blockiness in
// [2, nmax], exactly 2 or an integer now and then.
func randShape(rng *rand.Rand, nmax float64) Shape {
	n := func() float64 {
		switch rng.Intn(4) {
		case 0:
			return 2
		case 1:
			return float64(2 + rng.Intn(int(nmax)-1))
		}
		return 2 + rng.Float64()*(nmax-2)
	}
	return Shape{0.5 + rng.Float64(), 0.5 + rng.Float64(), 0.5 + rng.Float64(), n(), n()}
}

// fibSphere returns m roughly uniform unit vectors.
func fibSphere(m int) []geom.Vec3 {
	out := make([]geom.Vec3, m)
	ga := math.Pi * (3 - math.Sqrt(5))
	for i := range out {
		z := 1 - (2*float64(i)+1)/float64(m)
		r := math.Sqrt(1 - z*z)
		s, c := math.Sincos(ga * float64(i))
		out[i] = geom.Vec3{X: r * c, Y: r * s, Z: z}
	}
	return out
}

// sepFunc is the brute-force separation along u (pointing from A to B):
// min_B u·y − max_A u·x = −h_A(u) − h_B(−u), from the analytic support points.
func sepFunc(a Shape, pa Pose, b Shape, pb Pose, u geom.Vec3) float64 {
	_, ha := a.SupportWorld(pa, u)
	_, hb := b.SupportWorld(pb, u.Neg())
	return -ha - hb
}

// bruteGap returns the signed distance between A and B (separation when
// positive, minus the penetration depth = minimum translation distance when
// negative) as max over unit u of sepFunc, by dense sampling plus pattern
// search refinement from the best few samples, and the maximising u.
func bruteGap(a Shape, pa Pose, b Shape, pb Pose, dirs []geom.Vec3) (float64, geom.Vec3) {
	type cand struct {
		v float64
		u geom.Vec3
	}
	var best [4]cand
	for i := range best {
		best[i].v = math.Inf(-1)
	}
	for _, u := range dirs {
		v := sepFunc(a, pa, b, pb, u)
		if v > best[3].v {
			best[3] = cand{v, u}
			for k := 3; k > 0 && best[k].v > best[k-1].v; k-- {
				best[k], best[k-1] = best[k-1], best[k]
			}
		}
	}
	g, gu := math.Inf(-1), geom.Vec3{}
	for _, c := range best {
		u, v := zoomMax(func(u geom.Vec3) float64 { return sepFunc(a, pa, b, pb, u) }, c.u, c.v, 0.06)
		if v > g {
			g, gu = v, u
		}
	}
	return g, gu
}

// zoomMax maximises fn on the unit sphere near u0 (value v0) by a tangent-plane
// grid of half-width w that is recentred on its best point and shrunk by 3
// per level: robust on the sharp creases of blocky support functions.
func zoomMax(fn func(geom.Vec3) float64, u0 geom.Vec3, v0, w float64) (geom.Vec3, float64) {
	const k = 8
	for w > 1e-8 {
		e1 := u0.AnyPerp()
		e2 := u0.Cross(e1)
		bu, bv := u0, v0
		for i := -k; i <= k; i++ {
			for j := -k; j <= k; j++ {
				if i == 0 && j == 0 {
					continue
				}
				u := u0.AddScaled(w*float64(i)/k, e1).AddScaled(w*float64(j)/k, e2).Unit()
				if v := fn(u); v > bv {
					bu, bv = u, v
				}
			}
		}
		u0, v0 = bu, bv
		w /= 3
	}
	return u0, v0
}

// touchDist returns roughly the centre distance along d at which B (centred
// at t·d) touches A (centred at the origin): min over u·d > 0 of h_K(u)/(u·d)
// for K = A − B₀.
func touchDist(a Shape, qa geom.Quat, b Shape, qb geom.Quat, d geom.Vec3, dirs []geom.Vec3) float64 {
	pa, pb := Pose{Q: qa}, Pose{Q: qb}
	t := math.Inf(1)
	for _, u := range dirs {
		ud := u.Dot(d)
		if ud < 0.05 {
			continue
		}
		_, ha := a.SupportWorld(pa, u)
		_, hb := b.SupportWorld(pb, u.Neg())
		if v := (ha + hb) / ud; v < t {
			t = v
		}
	}
	return t
}
