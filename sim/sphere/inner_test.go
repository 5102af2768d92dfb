package sphere

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// innerCase is a reference configuration, its list (every pair within the
// cut-off plus the skin, as a Verlet build lists them) and the skin.
type innerCase struct {
	ref  []geom.Vec3
	r, m []float64
	l    *List
	skin float64
}

// innerSetup places n spheres of radius 0.5 (classes: one, or radii 0.4–0.6
// when mixed) at random in a box where neighbours lie at the cut-off plus a
// fraction of the skin, and lists the pairs a build with that skin lists.
func innerSetup(rng *rand.Rand, n int, mixed bool) *innerCase {
	c := &innerCase{skin: 0.3}
	side := math.Cbrt(float64(n)) * 1.15
	for range n {
		c.ref = append(c.ref, geom.Vec3{X: side * rng.Float64(), Y: side * rng.Float64(), Z: side * rng.Float64()})
		r := 0.5
		if mixed {
			r = 0.4 + 0.2*float64(rng.Intn(3))/2
		}
		c.r, c.m = append(c.r, r), append(c.m, r*r*r)
	}
	l := &List{}
	var pairs [][2]int32
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := c.ref[i].Sub(c.ref[j]).Norm()
			if d < c.r[i]+c.r[j]+c.skin {
				pairs = append(pairs, [2]int32{int32(i), int32(j)})
			}
		}
	}
	l.Resize(len(pairs), false, false, false)
	if mixed {
		l.Class = make([]PairClass, len(pairs))
	} else {
		l.Class = []PairClass{NewPairClass(0.5, 0.5, c.m[0], c.m[0], 3)}
	}
	for k, p := range pairs {
		if mixed {
			l.Class[k] = NewPairClass(c.r[p[0]], c.r[p[1]], c.m[p[0]], c.m[p[1]], 3)
		}
		l.SetPair(k, p[0], p[1], int32(k))
	}
	c.l = l
	return c
}

// innerMove returns the centres displaced from the reference by at most
// half the skin each (mostly much less, some exactly along a pair's line
// towards the other sphere: the tightest case of the bound) and the bound
// D = √D1 + √D2 of the two largest squared displacements, as Drift
// computes it.
func innerMove(rng *rand.Rand, c *innerCase, scale float64) ([]geom.Vec3, float64) {
	x := slices.Clone(c.ref)
	amp := scale * c.skin / 2
	for i := range x {
		if rng.Intn(4) == 0 {
			x[i] = x[i].Add(geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Unit().Scale(amp * rng.Float64()))
		}
	}
	// Pairs pushed head-on: each sphere moves the full amplitude towards the other.
	for range 3 {
		p := c.l.P[rng.Intn(len(c.l.P))]
		u := c.ref[p.J].Sub(c.ref[p.I]).Unit()
		x[p.I] = c.ref[p.I].Add(u.Scale(amp))
		x[p.J] = c.ref[p.J].Sub(u.Scale(amp))
	}
	var d1, d2 float64 // the two largest, as ListDisplaced keeps them
	for i := range x {
		d := x[i].Sub(c.ref[i])
		dd := d.X*d.X + d.Y*d.Y + d.Z*d.Z
		if dd > d2 {
			if dd > d1 {
				d1, d2 = dd, d1
			} else {
				d2 = dd
			}
		}
	}
	return x, math.Sqrt(d1) + math.Sqrt(d2)
}

// innerRun evaluates Hooke direct on the list with centres x (the inner
// list as it is) and returns the states, Touch, Fn, count and energy.
// sameInnerRun runs the kernels on [lo, hi) with the inner list as it is
// and fails unless the forces, the count, the energy and each pair's Touch
// and Fn are those of the whole scan (sf, tf, ff, nf, ef: innerRun with
// the inner list off).
func sameInnerRun(t *testing.T, trial, lv, lo, hi int, sf *Flat, tf []bool, ff []float64, nf int, ef float64, c *innerCase, x []geom.Vec3) {
	t.Helper()
	si, ti, fi, ni, ei := innerRun(c, x, lo, hi)
	if !sameBits(sf, si) || nf != ni || math.Float64bits(ef) != math.Float64bits(ei) {
		t.Fatalf("trial %d level %d: forces, count %d/%d or energy %v/%v differ", trial, lv, nf, ni, ef, ei)
	}
	for k := lo; k < hi; k++ {
		if tf[k] != ti[k] || tf[k] && ff[k] != fi[k] {
			t.Fatalf("trial %d level %d: pair %d Touch %v/%v Fn %v/%v", trial, lv, k, tf[k], ti[k], ff[k], fi[k])
		}
	}
}

func innerRun(c *innerCase, x []geom.Vec3, lo, hi int) (*Flat, []bool, []float64, int, float64) {
	var s Flat
	s.Resize(len(x))
	for k := range x {
		s.L[k] = Lin{X: x[k], V: geom.Vec3{X: float64(k%3) - 1, Y: 0.5, Z: float64(k%5) - 2}}
		s.R[k] = Rot{Q: geom.QIdent()}
	}
	s.SyncX()
	for k := range c.l.Touch {
		c.l.Touch[k] = k%2 == 0 // garbage the kernel must clear
	}
	n, e := c.l.Hooke(&s, lo, hi, 7, false, true)
	return &s, slices.Clone(c.l.Touch), slices.Clone(c.l.Fn), n, e
}

// TestInnerListSameAsScan: on random reference configurations (one class,
// and mixed radii: hookeRowsOne and hookeRows) and many random
// displacements up to the skin (some pairs pushed head-on by the whole
// bound: the tightest case), the inner list of the level the bound D
// needs holds every pair within its cut-off, and the kernels on it give
// the bits of the whole scan (forces, Touch, Fn of touching pairs, count,
// energy), on the whole list and on ranges of it (parts and chunks). It
// also checks that it can fail: the level below the one D needs (a
// threshold T too small) misses pairs within the cut-off in these cases.
func TestInnerListSameAsScan(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	misses, checked, reused := 0, 0, 0
	for trial := range 60 {
		c := innerSetup(rng, 150, trial%3 == 2)
		l := c.l
		l.Inner.Delta = c.skin / InnerLevels
		for range 20 {
			x, d := innerMove(rng, c, []float64{0.05, 0.2, 0.5, 1}[rng.Intn(4)])
			lv := l.Inner.Level(d)
			if lv < 0 {
				continue
			}
			lo, hi := 0, len(l.P)
			if rng.Intn(2) == 0 {
				lo = rng.Intn(len(l.P) + 1)
				hi = lo + rng.Intn(len(l.P)-lo+1)
			}
			kept := l.Inner
			l.Inner.On = false
			sf, tf, ff, nf, ef := innerRun(c, x, lo, hi)
			if kept.Holds(l, d) { // the pairs selected for an earlier D still hold
				l.Inner, l.Inner.On = kept, true
				reused++
			} else {
				l.Inner.Select(l, c.ref, lv, len(l.P))
			}
			sameInnerRun(t, trial, lv, lo, hi, sf, tf, ff, nf, ef, c, x)
			checked++
			// Every pair within its cut-off is an inner pair.
			in := map[int32]bool{}
			for _, k := range l.Inner.K {
				in[k] = true
			}
			for k, p := range l.P {
				a, b := x[p.I], x[p.J]
				if dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z) < l.ClassOf(k).Cut2 && !in[int32(k)] {
					t.Fatalf("trial %d level %d: pair %d within its cut-off, not inner", trial, lv, k)
				}
			}
			// The level below misses some (the test's own check).
			kept = l.Inner
			kept.P, kept.K = slices.Clone(kept.P), slices.Clone(kept.K)
			if lv > 0 {
				l.Inner.Select(l, c.ref, lv-1, len(l.P))
				inb := map[int32]bool{}
				for _, k := range l.Inner.K {
					inb[k] = true
				}
				for k, p := range l.P {
					a, b := x[p.I], x[p.J]
					if dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z) < l.ClassOf(k).Cut2 && !inb[int32(k)] {
						misses++
						break
					}
				}
			}
			l.Inner = kept
		}
		l.Inner.Off()
	}
	if checked < 500 {
		t.Fatalf("only %d cases checked", checked)
	}
	if misses == 0 || reused < 50 {
		t.Fatalf("the level below D's missed a pair in %d cases, a selection held for a later D in %d: the cases do not test the bound", misses, reused)
	}
	t.Logf("%d cases, %d where the level below misses a pair, %d on an earlier selection (Holds)", checked, misses, reused)
}

// TestInnerLevel: Level is the smallest t with D ≤ t·Δ, −1 beyond the
// last level or for NaN; Off forgets the selection.
func TestInnerLevel(t *testing.T) {
	in := Inner{Delta: 0.125}
	for _, c := range []struct {
		d    float64
		want int
	}{{0, 0}, {1e-300, 1}, {0.125, 1}, {0.125000001, 2}, {0.875, 7}, {0.8751, -1}, {math.NaN(), -1}, {math.Inf(1), -1}} {
		if got := in.Level(c.d); got != c.want {
			t.Errorf("Level(%v) = %d, want %d", c.d, got, c.want)
		}
	}
	in.Held, in.On, in.Dead = 3, true, true
	in.Off()
	if in.Held != 0 || in.On || in.Dead {
		t.Fatalf("Off left %+v", in)
	}
}

// TestInnerMarginTight: pairs whose reference distance is within a few
// dozen ulps of c + t·Δ, pushed head-on by D = √D1 + √D2 ≤ t·Δ (each
// sphere half of it), so that their computed distance lands on the
// cut-off to rounding: every pair the kernel finds within its cut-off is
// in level t. Without the margin (innerMargin = 0) some are not: the
// rounding of the distances, roots and sums is what the margin covers.
func TestInnerMarginTight(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	cls := NewPairClass(0.5, 0.5, 1, 1, 0)
	c := math.Sqrt(cls.Cut2)
	skin := 0.3
	within, checked := 0, 0
	for range 20000 {
		lv := 1 + rng.Intn(InnerLevels-1)
		in := Inner{Delta: skin / InnerLevels}
		dl := float64(lv) * in.Delta
		u := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Unit()
		a := geom.Vec3{X: 10 * rng.Float64(), Y: 10 * rng.Float64(), Z: 10 * rng.Float64()}
		rho := (c + dl) * (1 + float64(rng.Intn(41)-20)*0x1p-52)
		ref := []geom.Vec3{a, a.Add(u.Scale(rho))}
		h := dl / 2 * (1 - float64(rng.Intn(4))*0x1p-52)
		x := []geom.Vec3{ref[0].Add(u.Scale(h)), ref[1].Sub(u.Scale(h))}
		d0, d1 := x[0].Sub(ref[0]).Norm2(), x[1].Sub(ref[1]).Norm2()
		d := math.Sqrt(max(d0, d1)) + math.Sqrt(min(d0, d1))
		if in.Level(d) != lv {
			continue
		}
		l := &List{Class: []PairClass{cls}}
		l.Resize(1, false, false, false)
		l.SetPair(0, 0, 1, 0)
		l.Inner = in
		l.Inner.Select(l, ref, lv, 1)
		checked++
		dd := x[0].Sub(x[1])
		if dist2(dd.X, dd.Y, dd.Z) < cls.Cut2 {
			within++
			if len(l.Inner.K) != 1 {
				t.Fatalf("a pair within its cut-off (ref distance %v, c + tΔ = %v, D = %v) not in level %d", rho, c+dl, d, lv)
			}
			// Level 0 leaves it out: its gap (Out) must not let that
			// selection hold for D.
			l.Inner.Select(l, ref, 0, 1)
			if len(l.Inner.K) == 0 && l.Inner.Holds(l, d) {
				t.Fatalf("a pair within its cut-off (ref distance %v, D = %v) left out by a selection that Holds", rho, d)
			}
		}
	}
	if checked < 5000 || within < 100 {
		t.Fatalf("%d cases checked, %d within: the cases miss the boundary", checked, within)
	}
	t.Logf("%d cases, %d within the cut-off", checked, within)
}

// TestInnerSelectLimit: a level with more pairs than the limit is not
// selected (false, the inner list off) and its scan stops at the limit
// (eight pairs of slack allowed); one within it is.
func TestInnerSelectLimit(t *testing.T) {
	for _, mixed := range []bool{false, true} {
		c := innerSetup(rand.New(rand.NewSource(3)), 200, mixed)
		l := c.l
		l.Inner.Off()
		l.Inner.Delta = c.skin / InnerLevels
		if !l.Inner.Select(l, c.ref, InnerLevels-1, len(l.P)) || !l.Inner.On {
			t.Fatal("the whole list's limit refused")
		}
		all := len(l.Inner.P)
		if all < 100 {
			t.Fatalf("only %d pairs in the last level", all)
		}
		if l.Inner.Select(l, c.ref, InnerLevels-1, all/4) || l.Inner.On || l.Inner.Held != 0 || len(l.Inner.P) > all/4+8 {
			t.Fatalf("mixed %v: a level of %d pairs selected under a limit of %d (on %v, %d pairs kept)", mixed, all, all/4, l.Inner.On, len(l.Inner.P))
		}
	}
}
