package world

import (
	"math"
	"sync"
	"sync/atomic"

	"grainlab/sim/contact"
)

// pairEntry is a candidate body pair (A < B) with its contacts of the current
// trial evaluation (cur) and of the last accepted step (prev).
type pairEntry struct {
	A, B      int32
	cur, prev []contact.Contact
	cache     contact.Cache // second-level list of feature pairs (S0 §2.5)
	stale     bool          // the cache must be rebuilt this evaluation
	dtMax     float64       // this pair's bound on the next step (StableDt)
	gen       uint64        // the evaluation that last listed this pair
	nightOwl  bool          // the pair joined the candidates during the step
}

// stageDetect is solver stage 1 (S0 §2.5, §2.4.2–2.4.4): place every body,
// update the candidate pairs (Verlet list over inflated bounding spheres plus
// body–wall pairs) and run the narrow phase on every candidate pair in
// parallel. It reports the number of night-owl contacts: active contacts in
// pairs that were not candidates when the step started.
func (w *World) stageDetect() (nightOwls int) {
	n := len(w.Bodies)
	if len(w.posed) != n {
		w.posed = make([]contact.Posed, n)
		w.wallPair = nil
		w.verlet.Invalidate()
	}
	w.parallel(n, func(_, i int) {
		b := w.Bodies[i]
		w.posed[i].Update(b.Poly, b.X, b.Q, b.Fixed)
	})
	gmax := w.MaxGap()
	if w.skin == 0 {
		w.skin = w.chooseSkin(gmax)
	}

	// Body–body candidates from the Verlet list over movable bodies.
	w.centers, w.radii, w.movable = w.centers[:0], w.radii[:0], w.movable[:0]
	for i, b := range w.Bodies {
		if b.Wall >= 0 {
			continue
		}
		w.centers = append(w.centers, b.X)
		w.radii = append(w.radii, b.Radius()+gmax/2)
		w.movable = append(w.movable, i)
	}
	rebuilt, cand := w.verlet.Update(w.centers, w.radii, w.skin)
	if rebuilt {
		old := make(map[[2]int32]*pairEntry, len(w.bbPairs))
		for _, e := range w.bbPairs {
			old[[2]int32{e.A, e.B}] = e
		}
		w.bbPairs = w.bbPairs[:0]
		for _, c := range cand {
			a, b := int32(w.movable[c[0]]), int32(w.movable[c[1]])
			if a > b {
				a, b = b, a
			}
			if w.Bodies[a].Fixed && w.Bodies[b].Fixed {
				continue
			}
			e := old[[2]int32{a, b}]
			if e == nil {
				e = &pairEntry{A: a, B: b, nightOwl: w.Steps > 0}
			}
			w.bbPairs = append(w.bbPairs, e)
		}
	}
	w.pairs = append(w.pairs[:0], w.bbPairs...)
	w.gen++

	// Body–wall candidates: inflated AABB overlap, every step (walls are few).
	if len(w.wallPair) != len(w.Walls) {
		w.wallPair = make([][]*pairEntry, len(w.Walls))
	}
	for wi := range w.Walls {
		wl := &w.Walls[wi]
		if len(w.wallPair[wi]) != n {
			w.wallPair[wi] = make([]*pairEntry, n)
		}
		if !wl.Enabled {
			continue
		}
		wb := wl.Body
		wbox := w.posed[wb].Box.Inflate(gmax + w.skin)
		for i, b := range w.Bodies {
			if b.Fixed || !w.posed[i].Box.Overlaps(wbox) {
				if e := w.wallPair[wi][i]; e != nil {
					e.prev = e.prev[:0]
				}
				continue
			}
			e := w.wallPair[wi][i]
			if e == nil {
				a, bb := int32(i), int32(wb)
				if a > bb {
					a, bb = bb, a
				}
				e = &pairEntry{A: a, B: bb, nightOwl: w.Steps > 0}
				w.wallPair[wi][i] = e
			}
			e.gen = w.gen
			w.pairs = append(w.pairs, e)
		}
	}

	// Second level: pairs whose feature cache went stale need the feature
	// boxes of both bodies; compute those once per body, then rebuild.
	if cap(w.needBoxes) < n {
		w.needBoxes = make([]bool, n)
	}
	w.needBoxes = w.needBoxes[:n]
	clear(w.needBoxes)
	w.parallel(len(w.pairs), func(_, i int) {
		e := w.pairs[i]
		g := w.Params(w.Bodies[e.A].Material, w.Bodies[e.B].Material).Normal.GBar
		e.stale = e.cache.Stale(&w.posed[e.A], &w.posed[e.B], g)
	})
	for _, e := range w.pairs {
		if e.stale {
			w.needBoxes[e.A], w.needBoxes[e.B] = true, true
		}
	}
	w.parallel(n, func(_, i int) {
		if w.needBoxes[i] {
			w.posed[i].UpdateBoxes()
		}
	})

	// Narrow phase in parallel; each pair writes only its own slice, so the
	// result does not depend on the number of workers.
	w.parallel(len(w.pairs), func(worker, i int) {
		e := w.pairs[i]
		pa, pb := &w.posed[e.A], &w.posed[e.B]
		g := w.Params(w.Bodies[e.A].Material, w.Bodies[e.B].Material).Normal.GBar
		if e.stale {
			e.cache.Build(pa, pb, g, w.featureSkin(g), &w.scratch[worker].Scratch)
		}
		e.cur = contact.Detect(pa, pb, g, &e.cache, e.prev, e.cur[:0])
	})
	for _, e := range w.pairs {
		if e.nightOwl {
			for i := range e.cur {
				if e.cur[i].Active() {
					nightOwls++
				}
			}
			e.nightOwl = false // it is a candidate from now on
		}
	}
	return nightOwls
}

// chooseSkin picks the Verlet skin: large enough that lists are rebuilt
// rarely, small enough that few far pairs are tested.
func (w *World) chooseSkin(gmax float64) float64 {
	rmin := math.Inf(1)
	for _, b := range w.Bodies {
		if b.Wall < 0 && b.Radius() < rmin {
			rmin = b.Radius()
		}
	}
	if math.IsInf(rmin, 1) {
		rmin = 1
	}
	return math.Max(4*gmax, 0.2*rmin)
}

// featureSkin is the margin of the second-level (feature-pair) lists: a
// pair's list is rebuilt when one body has moved this far relative to the other.
func (w *World) featureSkin(gbar float64) float64 { return 2 * gbar }

// wallPairsOf returns the pair entries of wall i.
func (w *World) wallPairsOf(i int) []*pairEntry {
	if i >= len(w.wallPair) {
		return nil
	}
	var out []*pairEntry
	for _, e := range w.wallPair[i] {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// parallel runs f(worker, i) for i in [0, n) on Settings.Workers goroutines
// (the caller's among them). Work is handed out in small batches from an
// atomic counter, so costly items (pairs whose lists are rebuilt) do not pile
// up on one worker. Results must not depend on which worker ran an item.
func (w *World) parallel(n int, f func(worker, i int)) {
	nw := w.Settings.Workers
	if nw < 1 {
		nw = 1
	}
	if len(w.scratch) < nw {
		w.scratch = make([]paddedScratch, nw)
	}
	if nw == 1 || n < 64 {
		for i := 0; i < n; i++ {
			f(0, i)
		}
		return
	}
	batch := max(8, n/(16*nw))
	var next atomic.Int64
	run := func(k int) {
		for {
			lo := int(next.Add(int64(batch))) - batch
			if lo >= n {
				return
			}
			for i := lo; i < min(lo+batch, n); i++ {
				f(k, i)
			}
		}
	}
	var wg sync.WaitGroup
	for k := 1; k < nw; k++ {
		wg.Add(1)
		go func(k int) { defer wg.Done(); run(k) }(k)
	}
	run(0)
	wg.Wait()
}

// paddedScratch keeps each worker's buffers on their own cache lines.
type paddedScratch struct {
	contact.Scratch
	_ [64]byte
}
