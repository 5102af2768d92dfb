package broad

import (
	"math"

	"grainlab/sim/geom"
)

// Verlet caches the Grid pairs of spheres inflated by Margin + skin/2 and
// reuses them while no body can have closed the skin (S0 §2.5, "Verlet
// lists"). Guarantee: after every Update the returned list contains every
// pair of valid, active bodies with |ci−cj| ≤ ri + rj + 2·Margin for the
// centres and radii just passed, provided the set of active bodies changed
// only together with a call to Invalidate (changes of Margin, skin, body
// count, validity and radius growth are detected). The zero value is ready
// to use; a Verlet must not be used concurrently.
type Verlet struct {
	// Grid builds the lists; its Invalid field reports skipped bodies of the last build.
	Grid Grid
	// Margin is the inflation the guarantee is stated for (0 = bare spheres).
	Margin float64
	// Active, when non-nil, selects the bodies taking part (see Grid.Pairs).
	Active func(i int) bool

	refPos  []geom.Vec3
	refRad  []float64
	refOK   []bool
	pairs   [][2]int32
	skin    float64
	margin  float64
	built   bool
	maxDisp float64
	builds  int
	calls   int
}

// Invalidate forces the next Update to rebuild the list.
func (v *Verlet) Invalidate() { v.built = false }

// Builds returns how many times the list has been rebuilt.
func (v *Verlet) Builds() int { return v.builds }

// Calls returns how many times Update has been called.
func (v *Verlet) Calls() int { return v.calls }

// MaxDisplacement returns the largest displacement of a valid active body
// between the last build and the last Update (0 right after a rebuild).
func (v *Verlet) MaxDisplacement() float64 { return v.maxDisp }

// Ref returns the centres the list was last built for, or nil when the next
// Update must rebuild. While Update does not rebuild, no active body is
// farther than the skin from its entry here (the largest displacement alone
// is at most the sum of the two largest). The slice is owned by v.
func (v *Verlet) Ref() []geom.Vec3 {
	if !v.built {
		return nil
	}
	return v.refPos
}

// Pairs returns the current list (as returned by the last Update).
func (v *Verlet) Pairs() [][2]int32 { return v.pairs }

// Update returns the candidate pairs for the given centres and radii and
// whether the list was rebuilt. It rebuilds when forced (first call,
// Invalidate, a change of len(centers), skin or Margin), when a body's
// validity changed, when any radius grew since the last build, or when the
// two largest displacements since the last build sum to more than skin (so
// never while every body moved at most skin/2, the standard criterion, but
// one fast body alone may use up to the whole skin). The returned slice is
// owned by v and valid until the next Update. A NaN, negative or +Inf skin
// is treated as 0 (rebuild whenever anything moves).
func (v *Verlet) Update(centers []geom.Vec3, radii []float64, skin float64) (rebuilt bool, pairs [][2]int32) {
	v.calls++
	skin = sanitizeMargin(skin)
	margin := sanitizeMargin(v.Margin)
	n := len(centers)
	if len(radii) < n {
		panic("broad: len(radii) < len(centers)")
	}
	need := !v.built || n != len(v.refPos) || skin != v.skin || margin != v.margin
	d1, d2 := 0.0, 0.0 // two largest squared displacements
	if !need {
		refPos, refRad, refOK := v.refPos[:n], v.refRad[:n], v.refOK[:n]
		for i := 0; i < n; i++ {
			if v.Active != nil && !v.Active(i) {
				continue
			}
			c, r, p := centers[i], radii[i], refPos[i]
			dx, dy, dz := c.X-p.X, c.Y-p.Y, c.Z-p.Z
			d := dx*dx + dy*dy + dz*dz // c.Sub(p).Norm2()
			// A finite d from a valid entry means a finite centre; with a
			// radius in [0, the entry's], the body is as valid as at the
			// build and has not grown: nothing more to check.
			if !(d <= math.MaxFloat64 && r >= 0 && r <= refRad[i] && refOK[i]) {
				ok := validBody(c, r)
				if ok != refOK[i] {
					need = true
					break
				}
				if !ok {
					continue
				}
				if r > refRad[i] {
					need = true
					break
				}
			}
			if d > d2 {
				if d > d1 {
					d1, d2 = d, d1
				} else {
					d2 = d
				}
			}
		}
		if !need && math.Sqrt(d1)+math.Sqrt(d2) > skin {
			need = true
		}
	}
	if !need {
		v.maxDisp = math.Sqrt(d1)
		return false, v.pairs
	}
	v.pairs = v.Grid.Pairs(centers, radii, margin+skin/2, v.Active, v.pairs)
	v.refPos = append(v.refPos[:0], centers...)
	v.refRad = append(v.refRad[:0], radii[:n]...)
	v.refOK = grow(v.refOK, n)
	for i := range n {
		v.refOK[i] = validBody(centers[i], radii[i])
	}
	v.skin, v.margin, v.built, v.maxDisp = skin, margin, true, 0
	v.builds++
	return true, v.pairs
}
