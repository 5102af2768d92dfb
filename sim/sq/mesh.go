package sq

import (
	"math"

	"grainlab/sim/geom"
)

// Mesh returns a closed, outward-oriented triangulation of the surface for
// rendering: nu vertices around each ring (rounded up to a multiple of 4, at
// least 8) and nv intervals from pole to pole (rounded up to even, at least 4).
// The surface is the spherical product of two superellipses (S1 eq. 1 in
// parametric form); along each, samples are spread half by arc length and half
// by turning of the normal, so blocky shapes (n ≥ 8) keep crisp edges.
func (s Shape) Mesh(nu, nv int) ([]geom.Vec3, [][3]int32) {
	if nu < 8 {
		nu = 8
	}
	nu = (nu + 3) / 4 * 4
	if nv < 4 {
		nv = 4
	}
	nv = (nv + 1) / 2 * 2
	k2, k1 := nu/4, nv/2
	qa := quarterCurve(s.A, s.B, s.N2, k2)           // xy cross-section, exponent n2
	qp := quarterCurve(max(s.A, s.B), s.C, s.N1, k1) // profile along z, exponent n1
	ring := make([][2]float64, 0, nu)
	for j := 0; j < k2; j++ {
		ring = append(ring, qa[j])
	}
	for j := 0; j < k2; j++ {
		p := qa[k2-j]
		ring = append(ring, [2]float64{-p[0], p[1]})
	}
	for j := 0; j < k2; j++ {
		p := qa[j]
		ring = append(ring, [2]float64{-p[0], -p[1]})
	}
	for j := 0; j < k2; j++ {
		p := qa[k2-j]
		ring = append(ring, [2]float64{p[0], -p[1]})
	}
	nr := 2*k1 - 1 // rings between the poles
	verts := make([]geom.Vec3, 0, 2+nr*nu)
	verts = append(verts, geom.Vec3{Z: -s.C})
	for r := 0; r < nr; r++ {
		i := r - (k1 - 1) // −(k1−1) … k1−1
		p := qp[iabs(i)]
		rr, z := p[0], p[1]
		if i < 0 {
			z = -z
		}
		for _, q := range ring {
			verts = append(verts, geom.Vec3{X: s.A * rr * q[0], Y: s.B * rr * q[1], Z: s.C * z})
		}
	}
	verts = append(verts, geom.Vec3{Z: s.C})
	top := int32(len(verts) - 1)
	id := func(r, j int) int32 { return int32(1 + r*nu + (j % nu)) }
	tris := make([][3]int32, 0, 2*nu*nr)
	for j := 0; j < nu; j++ {
		tris = append(tris, [3]int32{0, id(0, j+1), id(0, j)})
		tris = append(tris, [3]int32{top, id(nr-1, j), id(nr-1, j+1)})
	}
	for r := 0; r+1 < nr; r++ {
		for j := 0; j < nu; j++ {
			tris = append(tris, [3]int32{id(r, j), id(r, j+1), id(r+1, j+1)}, [3]int32{id(r, j), id(r+1, j+1), id(r+1, j)})
		}
	}
	return verts, tris
}

func iabs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// quarterCurve returns k+1 points (X, Y) of the unit superellipse
// |X|^n + |Y|^n = 1 from (1, 0) to (0, 1), spaced evenly in the sum of the
// normalised arc length and normalised normal turning of the curve scaled by (a, b).
func quarterCurve(a, b, n float64, k int) [][2]float64 {
	const m = 4096
	// point at polar angle θ of the scaled curve, in unit coordinates
	at := func(th float64) (float64, float64) {
		s, c := math.Sincos(th)
		u, v := c/a, s/b
		r := math.Pow(math.Pow(math.Abs(u), n)+math.Pow(math.Abs(v), n), -1/n)
		return max(0, r*u), max(0, r*v)
	}
	th := make([]float64, m+1)
	w := make([]float64, m+1)
	arc := make([]float64, m+1)
	turn := make([]float64, m+1)
	px, py := at(0)
	phi := 0.0
	for i := 1; i <= m; i++ {
		th[i] = math.Pi / 2 * float64(i) / m
		x, y := at(th[i])
		arc[i] = arc[i-1] + math.Hypot(a*(x-px), b*(y-py))
		ph := math.Atan2(math.Pow(y, n-1)/b, math.Pow(x, n-1)/a) // normal direction of the scaled curve
		turn[i] = turn[i-1] + math.Abs(ph-phi)
		px, py, phi = x, y, ph
	}
	for i := range w {
		w[i] = arc[i]/arc[m] + turn[i]/turn[m]
	}
	out := make([][2]float64, k+1)
	out[0], out[k] = [2]float64{1, 0}, [2]float64{0, 1}
	i := 0
	for j := 1; j < k; j++ {
		target := 2 * float64(j) / float64(k)
		for i < m && w[i+1] < target {
			i++
		}
		f := (target - w[i]) / (w[i+1] - w[i])
		x, y := at(th[i] + f*(th[i+1]-th[i]))
		out[j] = [2]float64{x, y}
	}
	return out
}
