package world_test

import (
	"fmt"
	"strings"
	"testing"

	"grainlab/sim/world"
)

// The option combinations of the two entry points that have no meaning
// are refused with a message naming the options, before any stage runs:
// Eval.Fixed with a Move or a Then (it places no body and its evaluation
// is never committed to a step), Commit's Below with a Move or Bound or
// without Stats (the move and the bodies' terms of a fused step bound
// belong in Eval.Then).
func TestStageOptionsRejected(t *testing.T) {
	move := func(int) {}
	evals := []world.Eval{{Fixed: true, Move: move}, {Fixed: true, Then: move}}
	for _, o := range evals {
		msg := panicOf(func() { new(world.World).Evaluate(0, 0, o) })
		if !strings.Contains(msg, "Eval.Fixed") {
			t.Errorf("Evaluate(Fixed, Move %v, Then %v): panic %q, want one naming Eval.Fixed", o.Move != nil, o.Then != nil, msg)
		}
	}
	commits := []world.Commit{
		{Below: 1},
		{Below: 1, Stats: true, Move: move},
		{Below: 1, Stats: true, Bound: true},
	}
	for _, o := range commits {
		msg := panicOf(func() { new(world.World).Commit(o) })
		if !strings.Contains(msg, "Below") {
			t.Errorf("Commit(Below, Stats %v, Move %v, Bound %v): panic %q, want one naming Below", o.Stats, o.Move != nil, o.Bound, msg)
		}
	}
}

// panicOf runs f and returns the text of its panic ("" when it returns).
func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
