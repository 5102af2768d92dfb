package cd

import (
	"math"

	"grainlab/sim/geom"
)

// PyramidSpec describes the cannonball pyramid of S3 §8.2: a square-based
// pyramid of close-packed equal spheres whose base layer is held fixed.
type PyramidSpec struct {
	N       int     // spheres along the base edge (S3: 20)
	Radius  float64 // sphere radius (S3: "2.5 mm in diameter" → 1.25e-3 m)
	Density float64 // kg/m³ (S3: 2000)
	Gravity float64 // m/s², acting along −z
	Law     Law     // contact law for the compatibility step
	K       float64 // relative stiffness of every contact (0 = 1)
}

// PaperPyramid returns the S3 §8.2 setup: 20 spheres along the base,
// diameter 2.5 mm, density 2000 kg/m³, g = 9.81 m/s², Hookean.
func PaperPyramid() PyramidSpec {
	return PyramidSpec{N: 20, Radius: 1.25e-3, Density: 2000, Gravity: 9.81, Law: Hookean, K: 1}
}

// Pyramid is the built geometry: every sphere (base layer first, then layer
// by layer upwards), the free spheres as Bodies and their contacts.
type Pyramid struct {
	Spec    PyramidSpec
	Centres []geom.Vec3 // all spheres
	Layer   []int       // layer of each sphere (0 = fixed base)
	IJ      [][2]int    // grid position of each sphere within its layer
	Body    []int       // body index of each sphere, −1 for the fixed base
	Sphere  []int       // sphere index of each body
	Bodies  []Body      // the free spheres at rest, gravity as external force
	// Contacts between touching spheres: A is the upper sphere of a
	// layer-to-layer contact (the one with larger x or y in a layer), B is
	// the other one, or −1 when it is a fixed base sphere.
	Contacts []Contact
	Pairs    [][2]int // sphere indices (A, B) of each contact
}

// BuildPyramid places the spheres of the pyramid in exact contact: layer l
// has N−l spheres per side at spacing d = 2r, shifted by d/2 in x and y from
// layer l−1 and raised by d/√2, so that every sphere above the base touches
// four spheres below, four in its layer (when present) and four above.
func BuildPyramid(spec PyramidSpec) *Pyramid {
	n, r := spec.N, spec.Radius
	d := 2 * r
	p := &Pyramid{Spec: spec}
	index := make([][][]int, n) // [layer][i][j] → sphere
	for l := range n {
		m := n - l
		index[l] = make([][]int, m)
		for i := range m {
			index[l][i] = make([]int, m)
			for j := range m {
				c := geom.V((float64(i)-float64(m-1)/2)*d, (float64(j)-float64(m-1)/2)*d, r+float64(l)*d/math.Sqrt2)
				index[l][i][j] = len(p.Centres)
				p.Centres = append(p.Centres, c)
				p.Layer = append(p.Layer, l)
				p.IJ = append(p.IJ, [2]int{i, j})
				if l == 0 {
					p.Body = append(p.Body, -1)
					continue
				}
				p.Body = append(p.Body, len(p.Bodies))
				p.Sphere = append(p.Sphere, len(p.Centres)-1)
				mass := spec.Density * 4.0 / 3 * math.Pi * r * r * r
				p.Bodies = append(p.Bodies, Body{
					Mass: mass, Inertia: geom.Identity().Scale(0.4 * mass * r * r),
					X: c, Q: geom.QIdent(), F: geom.V(0, 0, -mass*spec.Gravity),
				})
			}
		}
	}
	add := func(sa, sb int) {
		xa, xb := p.Centres[sa], p.Centres[sb]
		dist := xa.Dist(xb)
		nrm := xa.Sub(xb).Scale(1 / dist)
		p.Contacts = append(p.Contacts, Contact{
			A: p.Body[sa], B: p.Body[sb], P: xb.AddScaled(r, nrm), N: nrm,
			Gap: dist - d, K: spec.K, Law: spec.Law,
		})
		p.Pairs = append(p.Pairs, [2]int{sa, sb})
	}
	for l := 1; l < n; l++ {
		m := n - l
		for i := range m {
			for j := range m {
				s := index[l][i][j]
				for _, o := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					add(s, index[l-1][i+o[0]][j+o[1]]) // the four below
				}
				if i > 0 {
					add(s, index[l][i-1][j]) // in-layer neighbours
				}
				if j > 0 {
					add(s, index[l][i][j-1])
				}
			}
		}
	}
	return p
}

// Weight returns the total weight of the free spheres.
func (p *Pyramid) Weight() float64 {
	var w float64
	for _, b := range p.Bodies {
		w -= b.F.Z
	}
	return w
}

// SphereWeight returns the weight m g of one sphere.
func (p *Pyramid) SphereWeight() float64 {
	r := p.Spec.Radius
	return p.Spec.Density * 4.0 / 3 * math.Pi * r * r * r * p.Spec.Gravity
}

// FloorReaction returns, for contact forces f, the vertical load that the
// free spheres put on each fixed base sphere, as an N×N grid [i][j]: the
// reaction distribution beneath the pyramid (S3 §8.3), excluding the base
// spheres' own weight.
func (p *Pyramid) FloorReaction(f []float64) [][]float64 {
	n := p.Spec.N
	g := make([][]float64, n)
	for i := range g {
		g[i] = make([]float64, n)
	}
	for k, c := range p.Contacts {
		if c.B >= 0 {
			continue
		}
		ij := p.IJ[p.Pairs[k][1]]
		g[ij[0]][ij[1]] += f[k] * c.N.Z
	}
	return g
}
