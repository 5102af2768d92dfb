package integrate

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// allocElsewhere lists the files whose allocations in the explicit step
// TestExplicitStepAllocations leaves to their owners (docs/performance.md,
// "Session 9: fused passes, no allocation"): the broad phase's grid
// buffers (grown when the pile's extent needs more cells than before) and
// sim/contact's feature lists (grown while they find more features than
// ever before), and the entry of a pair that joins the candidates
// (World.newCandidate). The rest of sim/world/detect.go allocates nothing:
// its pass bodies are made once and its Verlet list rebuilds reuse their
// maps (detectPass).
var allocElsewhere = []string{"/sim/broad/", "/sim/contact/", "(grainlab/sim/world.(*World).newCandidate)"}

// TestExplicitStepAllocations: the steady-state explicit step of a small
// polyhedral scene (96 cubes settled on the ground, 1 and 2 workers)
// allocates nothing in the integrator, the laws, the accumulation, the
// commit, the statistics, the step bound and the crew: every allocation a
// step makes (heap profile at rate 1 over 40 steps) comes from a file of
// allocElsewhere. An allocation per step lets the garbage collector run
// while stepping, whose write barriers then cost the step (a callgrind run
// of the collapse counted 1.0 G instructions of them). It reports
// testing.AllocsPerRun of a step as well.
func TestExplicitStepAllocations(t *testing.T) {
	rate := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = rate }()
	for _, workers := range []int{1, 2} {
		w := groundWorld(t, cubeParams(0.5, 0.4))
		w.Settings.Workers = workers
		for i := 0; i < 96; i++ {
			q := geom.QAxisAngle(geom.V(1, 0.3*float64(i%5), 0.2), 0.37*float64(i))
			b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(-0.7+0.16*float64(i%8), -0.45+0.16*float64((i/8)%6), 0), q)
			lowestAt(b, 0.0005+0.15*float64(i/48))
			w.AddBody(b)
		}
		run(t, w, 0.3, nil) // settled: the lists and buffers have grown
		step := func() {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 20; i++ {
			step()
		}
		before := allocSites()
		const steps = 40
		for i := 0; i < steps; i++ {
			step()
		}
		after := allocSites()
		var mine, theirs []string
		for site, n := range after {
			if d := n - before[site]; d > 0 {
				line := fmt.Sprintf("%s: %d", site, d)
				if elsewhere(site) {
					theirs = append(theirs, line)
				} else {
					mine = append(mine, line)
				}
			}
		}
		sort.Strings(mine)
		sort.Strings(theirs)
		per := testing.AllocsPerRun(steps, step)
		t.Logf("workers %d: %d contacts, %.1f allocations per step; left to their owners over %d steps: %v",
			workers, w.Stats.Contacts, per, steps, theirs)
		if w.Stats.Contacts == 0 {
			t.Fatalf("workers %d: no contacts: the scene does not exercise the contact stages", workers)
		}
		if len(mine) > 0 {
			t.Errorf("workers %d: the explicit step allocates (site: objects over %d steps):\n%s", workers, steps, strings.Join(mine, "\n"))
		}
	}
}

// allocSites returns the objects allocated so far by site (the innermost
// frame of this module's code, file:line), as the heap profile has them
// after a garbage collection.
func allocSites() map[string]int64 {
	runtime.GC()
	runtime.GC() // the profile holds what the last completed cycle saw
	var recs []runtime.MemProfileRecord
	n, _ := runtime.MemProfile(nil, true)
	for {
		recs = make([]runtime.MemProfileRecord, n+50)
		var ok bool
		if n, ok = runtime.MemProfile(recs, true); ok {
			recs = recs[:n]
			break
		}
	}
	sites := map[string]int64{}
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		site := ""
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, "grainlab/") && !strings.Contains(f.File, "_test.go") {
				site = fmt.Sprintf("%s:%d (%s)", f.File, f.Line, f.Function)
				break
			}
			if !more {
				break
			}
		}
		if site != "" && !runtimeOwn(r.Stack()) && !crewRestart(site) {
			sites[site] += r.AllocObjects
		}
	}
	return sites
}

// runtimeOwn reports an allocation the Go runtime makes for its own caches
// when the crew's goroutines block or park (how often depends on the
// machine's load, not on the step): a processor's timer heap grown or a
// GODEBUG setting looked up for a helper's idle timer, a waiting record
// (sudog) for a channel operation, a goroutine's descriptor and stack.
func runtimeOwn(stack []uintptr) bool {
	frames := runtime.CallersFrames(stack)
	for {
		f, more := frames.Next()
		for _, p := range []string{"runtime.(*timers)", "internal/godebug.", "runtime.acquireSudog", "runtime.malg", "runtime.newproc"} {
			if strings.HasPrefix(f.Function, p) {
				return true
			}
		}
		if !more {
			return false
		}
	}
}

// crewRestart reports an allocation of a crew helper's start: a helper
// parked longer than crewIdle exits and the next job starts it again (its
// goroutine, its timer, the read of its goroutine id). That happens when
// the machine is so busy that the caller is off its processor for that
// long between two jobs — a matter of the load, not of the step (seen at
// load averages of 10–15 on two cores). Allocations inside a job's body
// have that body's function as their innermost frame, so they still count.
func crewRestart(site string) bool {
	for _, f := range []string{"(grainlab/sim/world.(*crew).helper)", "(grainlab/sim/world.(*crew).wakeAll)", "(grainlab/sim/world.goid)"} {
		if strings.HasSuffix(site, f) {
			return true
		}
	}
	return false
}

// elsewhere reports whether an allocation site is in a file of allocElsewhere.
func elsewhere(site string) bool {
	for _, f := range allocElsewhere {
		if strings.Contains(site, f) {
			return true
		}
	}
	return false
}
