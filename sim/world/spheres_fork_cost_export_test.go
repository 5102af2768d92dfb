package world

// SphereForkCosts returns, for the evaluation's parts (or its pairs
// without parts) and the list rebuild's (spheres_fork_cost.go), how many
// items have a cost measured on w's crew, and whether each claim order is
// by cost, largest first; and how many passes ran near the evaluation
// (forkNear).
func SphereForkCosts(w *World) (evalTimed, rebuildTimed int, sorted bool, near int) {
	if w.crew == nil {
		return 0, 0, true, 0
	}
	near = w.crew.nearRuns
	sorted = true
	for _, site := range []int{costEvalParts, costEvalPairs, costRebuild} {
		c := &w.crew.costs[site]
		c.sortOrder()
		for p, i := range c.order {
			if c.ns[i] > 0 {
				if site != costRebuild {
					evalTimed++
				} else {
					rebuildTimed++
				}
			}
			if p > 0 && c.ns[c.order[p-1]] < c.ns[i] {
				sorted = false
			}
		}
	}
	return evalTimed, rebuildTimed, sorted, near
}
