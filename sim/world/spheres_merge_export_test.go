package world

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
)

// SphereMergeCheck replaces the sphere list of w (a world whose sphere path
// has built its list) by a random one, rebuilds it from random candidates
// with the path's own rebuild (rebuildParts: the merge in ranges, on the
// crew when the passes split) and checks the new list against a reference
// built by key, pair by pair (tests): the orientation (I the body of lower
// index), the class and law of the spheres' species and materials, the
// previous touch, friction history and fresh flag of a pair carried over
// (false, zero and fresh for a new one), the night owls (the new pairs,
// after the first step), the fresh pairs and the step-size classes of the
// species pairs. The old list is in merge order, or shuffled as after a
// renumbering (reordered). It returns the number of candidates and of
// pairs carried, or the first difference. w is not usable afterwards
// (its list no longer matches its contacts).
// MergeCheckN (≥ 0) trims SphereMergeCheck's candidates to that many;
// MergeCheckMode: 0 mixed, 1 no old list, 2 no candidate carried, 3 all
// carried (review r5).
var MergeCheckN, MergeCheckMode = -1, 0

// MergeCheckLong makes every 64th sphere's row (its pairs with higher
// spheres) 39 pairs long in SphereMergeCheck's lists (sortOld's long rows).
var MergeCheckLong bool

// MergeCheckNoFresh makes every old pair of SphereMergeCheck not fresh (the
// state of a build after a StableDt: spheres_fresh_none.go); else about a
// third of them are fresh.
var MergeCheckNoFresh bool

func SphereMergeCheck(w *World, seed uint64, reordered bool) (ncand, carried int, err error) {
	s := w.Spheres()
	rng := rand.New(rand.NewPCG(seed, 17))
	n := int32(len(s.idx))
	type rec struct {
		touch, fresh bool
		hist         law.FrictionState
	}
	key := func(a, b int32) uint64 { return pairKey64(min(a, b), max(a, b)) }
	orient := func(a, b int32) (int32, int32) {
		if s.idx[a] > s.idx[b] {
			return b, a
		}
		return a, b
	}
	// Pairs (lo, hi) in increasing order: each sphere with a few of the next
	// 40; old and new lists random subsets, most pairs in both.
	var oldK, cand [][2]int32
	for lo := range n {
		long := MergeCheckLong && lo%64 == 0 // rows of 39: sortOld's sort of long rows
		for hi := lo + 1; hi < min(n, lo+40); hi++ {
			if !long && rng.IntN(10) != 0 {
				continue
			}
			inOld, inNew := rng.IntN(4) != 0, rng.IntN(4) != 0
			switch MergeCheckMode {
			case 1: // no old list
				inOld = false
			case 2: // old pairs, none a candidate
				inOld = !inNew
			case 3: // every candidate carried
				inOld = inOld || inNew
			}
			if inOld {
				oldK = append(oldK, [2]int32{lo, hi})
			}
			if inNew {
				cand = append(cand, [2]int32{lo, hi})
			}
		}
	}
	if MergeCheckN >= 0 {
		if len(cand) < MergeCheckN {
			return len(cand), 0, fmt.Errorf("only %d candidates, want %d", len(cand), MergeCheckN)
		}
		cand = cand[:MergeCheckN]
	}
	if reordered {
		rng.Shuffle(len(oldK), func(i, j int) { oldK[i], oldK[j] = oldK[j], oldK[i] })
	}
	old := &s.lists[s.cur]
	s.resizeList(old, len(oldK), false)
	s.isFresh = resize(s.isFresh, len(oldK))
	ref := map[uint64]rec{}
	s.fresh, s.rb.freshFirst = s.fresh[:0], 0 // the old list's fresh pairs (as finishList lists them)
	for k, p := range oldK {
		a, b := orient(p[0], p[1])
		// What every list holds (setPair's): the species pair's class when
		// tabulated, the law of the materials.
		old.P[k] = sphere.Pair{I: a, J: b}
		if old.CI != nil {
			old.CI[k] = s.spec[a]*int32(len(s.rep)) + s.spec[b]
		}
		if old.Law != nil {
			old.Law[k] = s.lawOf[int(s.matOf(int(a)))*s.nmat+int(s.matOf(int(b)))]
		}
		r := rec{touch: rng.IntN(2) == 0, fresh: rng.IntN(3) == 0}
		if MergeCheckNoFresh {
			r.fresh = false
		}
		if r.fresh {
			s.fresh = append(s.fresh, int32(k))
		}
		if old.PrevHist != nil {
			r.hist = law.FrictionState{Gt: geom.V(rng.Float64(), rng.Float64(), rng.Float64()), Sliding: rng.IntN(2) == 0}
			old.PrevHist[k] = r.hist
		}
		old.PrevTouch[k], s.isFresh[k] = r.touch, r.fresh
		ref[key(a, b)] = r
	}
	if reordered { // updateList's sort after a renumbering, before the search
		s.sortOld(old, old)
	}
	s.rebuildParts(cand)
	l := &s.lists[s.cur]
	if len(l.P) != len(cand) {
		return len(cand), 0, fmt.Errorf("%d pairs for %d candidates", len(l.P), len(cand))
	}
	ns := int32(len(s.rep))
	var owl, fresh []int32
	for k, c := range cand {
		a, b := orient(c[0], c[1])
		r, was := ref[key(a, b)]
		if !was {
			r = rec{fresh: true}
			if w.Steps > 0 {
				owl = append(owl, int32(k))
			}
		} else {
			carried++
		}
		if r.fresh {
			fresh = append(fresh, int32(k))
		}
		p := l.P[k]
		if p.I != a || p.J != b {
			return len(cand), carried, fmt.Errorf("pair %d: (%d, %d), want (%d, %d)", k, p.I, p.J, a, b)
		}
		if s.pairCls != nil && l.ClassOf(k) != &s.pairCls[s.spec[a]*ns+s.spec[b]] {
			return len(cand), carried, fmt.Errorf("pair %d: not the class of species pair %d", k, s.spec[a]*ns+s.spec[b])
		}
		if s.pairCls == nil && *l.ClassOf(k) != sphere.NewPairClass(s.rOf(int(a)), s.rOf(int(b)), s.specs[s.spec[a]].mass, s.specs[s.spec[b]].mass,
			s.laws[s.lawOf[int(s.matOf(int(a)))*s.nmat+int(s.matOf(int(b)))]].GammaN) {
			return len(cand), carried, fmt.Errorf("pair %d: its class's constants differ", k)
		}
		if l.Law != nil && l.Law[k] != s.lawOf[int(s.matOf(int(a)))*s.nmat+int(s.matOf(int(b)))] {
			return len(cand), carried, fmt.Errorf("pair %d: law %d", k, l.Law[k])
		}
		if l.PrevTouch[k] != r.touch || s.isFresh[k] != r.fresh || l.Touch[k] {
			return len(cand), carried, fmt.Errorf("pair %d (carried %v): touch %v fresh %v, want %v %v", k, was,
				l.PrevTouch[k], s.isFresh[k], r.touch, r.fresh)
		}
		if l.PrevHist != nil && was && l.PrevHist[k] != r.hist {
			return len(cand), carried, fmt.Errorf("pair %d: friction history not carried", k)
		}
		if t := &s.dt; t.bySpec != nil {
			sa, sb := s.spec[a], s.spec[b]
			if want := t.bySpec[min(sa, sb)*ns+max(sa, sb)]; want < 0 || t.classOf(l, k) != want {
				return len(cand), carried, fmt.Errorf("pair %d: step-size class %d, want %d", k, t.classOf(l, k), want)
			}
		}
	}
	if !slices.Equal(s.owl, owl) {
		return len(cand), carried, fmt.Errorf("night owls: %d, want %d", len(s.owl), len(owl))
	}
	if got := s.freshPairs(); !slices.Equal(got, fresh) {
		return len(cand), carried, fmt.Errorf("fresh pairs: %d, want %d", len(got), len(fresh))
	}
	return len(cand), carried, nil
}

// SphereListConsistent checks what the list merge relies on to carry a
// pair's spheres, class and law from the old list (tests): every pair of
// the list in use is oriented from the body of lower index, its class is
// its species pair's (when tabulated) and its law its materials' pair's.
func SphereListConsistent(w *World) error {
	s := w.Spheres()
	if s == nil {
		return fmt.Errorf("no sphere path")
	}
	l := &s.lists[s.cur]
	ns := int32(len(s.rep))
	for k, p := range l.P {
		if s.idx[p.I] >= s.idx[p.J] {
			return fmt.Errorf("pair %d: bodies %d, %d", k, s.idx[p.I], s.idx[p.J])
		}
		if s.pairCls != nil && l.ClassOf(k) != &s.pairCls[s.spec[p.I]*ns+s.spec[p.J]] {
			return fmt.Errorf("pair %d: not the class of its species pair %d", k, s.spec[p.I]*ns+s.spec[p.J])
		}
		if li := s.lawOf[int(s.matOf(int(p.I)))*s.nmat+int(s.matOf(int(p.J)))]; l.Law != nil && l.Law[k] != li {
			return fmt.Errorf("pair %d: law %d, its materials' %d", k, l.Law[k], li)
		}
	}
	return nil
}
