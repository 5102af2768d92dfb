package integrate

import (
	"fmt"
	"math"
	"strings"

	"grainlab/sim/contact"
	"grainlab/sim/world"
)

// The attempt log of the Newmark integrator (Newmark.Trace): what limits
// the step. One line per attempt,
//
//	t=6.05362 dt=0.00308 stall: r 0.34 [+1 -1 s9] 0.14 (λ1 l3) …
//
// with the outcome (accepted, stall, max-iter, line search, predictor,
// night owls, guard ×f, energy ×f, entry ×f) and the Newton history: the
// scaled residual ‖r‖/a_ref of the predictor, then per iteration the changes
// of the active contacts since the previous iterate in brackets (+ entered,
// − left the active set, a: suppressed or restored by the hierarchy,
// s: stick↔slip switches) followed by the residual, the line search's step
// λ and the GMRES iterations. Where the full Newton step did not decrease
// the residual, "LS r{…}" describes that trial against the iterate: the
// contacts that entered and left, each with the largest normal force among
// them (N), its kind, features, gap g/ḡ and whether it is new in the step —
// a contact that appears or vanishes with a large force is a jump of the
// residual. A step whose size the crossing guard's prediction set
// (approachDt) is preceded by a "guard" line. Off (nil) by default; it costs
// a map of the contacts per iterate when on.

// nmTraceKey identifies a contact across iterates.
type nmTraceKey struct {
	a, b int
	k    contact.Key
}

// nmTraceState is what the log compares between iterates.
type nmTraceState struct {
	active, sliding bool
	gn, fn          float64
}

// nmTrace is the log's scratch: the contacts of the current and previous
// iterate and the line being written.
type nmTrace struct {
	prev, cur map[nmTraceKey]nmTraceState
	line      strings.Builder
}

// tracing reports whether the attempt log is on.
func (n *Newmark) tracing() bool { return n.Trace != nil }

// traceSnap records the contacts of the last evaluation as the current
// iterate's and, unless first, writes the changes since the previous one.
func (n *Newmark) traceSnap(w *world.World, first bool) {
	t := &n.tr
	if t.cur == nil {
		t.cur, t.prev = map[nmTraceKey]nmTraceState{}, map[nmTraceKey]nmTraceState{}
	}
	t.prev, t.cur = t.cur, t.prev
	clear(t.cur)
	w.EachTrialContact(func(a, b int, c *contact.Contact) {
		t.cur[nmTraceKey{a, b, c.Key}] = nmTraceState{c.Active(), c.Fric.Sliding, c.Gn, c.Fn}
	})
	if first {
		return
	}
	en, le, ac, sl := 0, 0, 0, 0
	for k, s := range t.cur {
		p, ok := t.prev[k]
		switch {
		case !ok:
			if s.active {
				en++
			}
		case p.active != s.active:
			ac++
		case s.active && p.sliding != s.sliding:
			sl++
		}
	}
	for k, p := range t.prev {
		if _, ok := t.cur[k]; !ok && p.active {
			le++
		}
	}
	fmt.Fprintf(&t.line, " [+%d -%d a%d s%d]", en, le, ac, sl)
}

// traceTrial writes the contacts of a rejected full Newton step (the last
// evaluation) that entered or left the current iterate's active set.
func (n *Newmark) traceTrial(w *world.World, r float64) {
	t := &n.tr
	en, le := 0, 0
	var enF, leF float64
	var enS, leS string
	seen := make(map[nmTraceKey]bool, len(t.cur))
	w.EachTrialContact(func(a, b int, c *contact.Contact) {
		k := nmTraceKey{a, b, c.Key}
		seen[k] = true
		if _, ok := t.cur[k]; ok || !c.Active() {
			return
		}
		en++
		if c.Fn >= enF {
			enF = c.Fn
			enS = traceContact(w, k, c.Gn, fmt.Sprintf(" new %v", c.New))
		}
	})
	for k, p := range t.cur {
		if !seen[k] && p.active {
			le++
			if p.fn >= leF {
				leF = p.fn
				leS = traceContact(w, k, p.gn, "")
			}
		}
	}
	fmt.Fprintf(&t.line, " LS %.2g{+%d", r, en)
	if en > 0 {
		fmt.Fprintf(&t.line, " (%.3g N %s)", enF, enS)
	}
	fmt.Fprintf(&t.line, " -%d", le)
	if le > 0 {
		fmt.Fprintf(&t.line, " (%.3g N %s)", leF, leS)
	}
	t.line.WriteString("}")
}

// traceContact names a contact for the log: bodies, kind, features and
// gap relative to the skin.
func traceContact(w *world.World, k nmTraceKey, gn float64, more string) string {
	rel := math.NaN()
	if gbar := contactSkin(w, k.a, k.b); gbar > 0 {
		rel = gn / gbar
	}
	return fmt.Sprintf("%d–%d %v %d,%d g/ḡ %.4f%s", k.a, k.b, k.k.Kind, k.k.FA, k.k.FB, rel, more)
}

// traceAttempt writes the attempt's line with its outcome.
func (n *Newmark) traceAttempt(w *world.World, dt float64, outcome string) {
	fmt.Fprintf(n.Trace, "t=%.6g dt=%.3g %s: r%s\n", w.Time, dt, outcome, n.tr.line.String())
	n.tr.line.Reset()
}

// failText names why the last solve did not converge, for the log.
func (n *Newmark) failText() string {
	switch n.fail {
	case failStall:
		return "stall"
	case failMaxIter:
		return "max-iter"
	case failLineSearch:
		return "line search"
	case failLineSearchBad:
		return "line search (penetration)"
	case failPredictor:
		return "predictor"
	}
	return "not converged"
}
