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
