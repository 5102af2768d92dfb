package world

// ParallelRange runs f(lo, hi) over batches covering [0, n) on the world's
// workers, as the solver stages do (Settings.Workers; all of [0, n) in one
// call below 64 items or on one worker): one call per batch, for loops
// too light for a call per item (the implicit integrators' passes over
// bodies). f must write only the data of items lo..hi−1, so the result
// does not depend on the number of workers or on the batches.
func (w *World) ParallelRange(n int, f func(lo, hi int)) {
	w.parallelRange(n, func(_, lo, hi int) { f(lo, hi) })
}

// ParallelRangeWorker is ParallelRange handing f the index of the worker
// that runs the batch too (0 ≤ worker < max(Settings.Workers, 1)), for
// per-worker scratch.
func (w *World) ParallelRangeWorker(n int, f func(worker, lo, hi int)) {
	w.parallelRange(n, f)
}

// FeaturePairs prepares the candidate pairs of the last evaluation for
// FeaturePairAt (the poses placed) and returns their number. Call it
// outside any parallel pass.
func (w *World) FeaturePairs() int {
	w.leaveSpheres()
	if w.posedOld {
		w.place()
	}
	return len(w.pairs)
}

// FeaturePairAt returns candidate pair i of FeaturePairs (in
// EachFeatureCache's order) with its feature cache, whose Rebuild uses
// worker's scratch, and false for a pair of smooth bodies (which has
// none). Different pairs may be handled concurrently, each worker with its
// own index.
func (w *World) FeaturePairAt(i, worker int) (a, b int, p FeaturePair, ok bool) {
	e := w.pairs[i]
	if e.smooth {
		return int(e.A), int(e.B), FeaturePair{}, false
	}
	return int(e.A), int(e.B), FeaturePair{w: w, e: e, k: worker}, true
}

// TrialPairs returns the number of pairs of the last evaluation, the index
// space of TrialPair (in EachTrialContact's order). Call it outside any
// parallel pass.
func (w *World) TrialPairs() int {
	w.leaveSpheres()
	return len(w.pairs)
}
