package app

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// startProfile starts CPU profiling into path and returns the function that stops it.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// memProfileRate is runtime.MemProfileRate under `bench --memprofile`: one
// sample per 4 KiB allocated, fine enough for arrays of a few bytes a sphere.
const memProfileRate = 4096

// writeHeapProfile collects the garbage and writes the heap profile (the
// live objects' allocation sites) to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// DefaultScene is what `grainlab` opens and `grainlab bench` measures.
const DefaultScene = "box-of-tetrapods"

// DefaultPacked is the shipped packed state of the default scene
// (assets/states/NAME.json): the fill done, just before the side walls go.
const DefaultPacked = "box-of-tetrapods-300-packed"

// BenchResult holds the figures of one benchmark run.
type BenchResult struct {
	Scene          string
	Bodies         int
	SimTime        float64 // simulated seconds
	Wall           time.Duration
	Steps          int64
	ContactSteps   int64 // Σ over steps of active contacts
	MaxContacts    int
	Workers        int
	StepsPerSecond float64
	USPerContact   float64 // µs of wall time per active contact per step
	USPerParticle  float64 // µs of wall time per movable body per step (LAMMPS' "particle-step")
	WallPerSimSec  float64 // s of wall time per simulated second
	// Profile is the wall time of each stage over the measured steps
	// (world.Profile; empty on the sphere path).
	Profile world.Profile
	// Skin is the Verlet skin at the end of the run (World.VerletSkin), m,
	// and SkinRadii the same over the smallest body's radius.
	Skin, SkinRadii float64
	// VerletBuilds is how many times the world's Verlet list (of the
	// bounding spheres, the sphere path's pair list) was rebuilt over the
	// measured steps (World.VerletBuilds).
	VerletBuilds int
}

// bench runs a scene headless and measures its speed, stopped early (after
// a complete step) when stop is set: the figures are those of the steps
// taken, with an *Interrupted error.
//
// With heap != "", the heap profile after the run (a garbage collection
// first, the world still live) is written to that file.
func bench(o Options, stop *stopFlag, heap string) (*BenchResult, error) {
	defer setGC(SetupGCPercent)()
	s, err := Load(o)
	if err != nil {
		return nil, err
	}
	setGC(steppingGCPercent()) // the deferred call puts back the setting before bench
	w := s.World
	r := &BenchResult{Scene: s.Spec.Name, Workers: w.Settings.Workers}
	for i := range w.NumBodies() {
		if w.BodyRec(i).Wall < 0 {
			r.Bodies++
		}
	}
	t0 := w.Time
	steps0 := w.Steps
	end := s.End
	if o.Duration > 0 {
		end = t0 + o.Duration
	}
	prof0 := w.Stats.Profile
	builds0 := w.VerletBuilds()
	start := time.Now()
	_, err = integrate.AdvanceStats(w, end, func() bool { // reads only w.Stats: the bodies may lag (world.SetLazyBodies)
		r.ContactSteps += int64(w.Stats.Contacts)
		r.MaxContacts = max(r.MaxContacts, w.Stats.Contacts)
		return stop.stopped() != nil
	})
	if err != nil {
		return nil, fmt.Errorf("simulation failed at t=%.6g s: %w", w.Time, err)
	}
	if sig := stop.stopped(); sig != nil {
		err = &Interrupted{sig}
	}
	r.Wall = time.Since(start)
	r.VerletBuilds = w.VerletBuilds() - builds0
	r.Skin = w.VerletSkin()
	if rmin := w.MinBodyRadius(); rmin > 0 {
		r.SkinRadii = r.Skin / rmin
	}
	if heap != "" {
		if err := writeHeapProfile(heap); err != nil {
			return nil, err
		}
		runtime.KeepAlive(s)
	}
	r.Profile = w.Stats.Profile.Sub(prof0)
	r.Steps = w.Steps - steps0
	r.SimTime = w.Time - t0
	secs := r.Wall.Seconds()
	if secs > 0 {
		r.StepsPerSecond = float64(r.Steps) / secs
	}
	if r.ContactSteps > 0 {
		r.USPerContact = secs * 1e6 / float64(r.ContactSteps)
	}
	if r.Steps > 0 && r.Bodies > 0 {
		r.USPerParticle = secs * 1e6 / float64(r.Steps) / float64(r.Bodies)
	}
	if r.SimTime > 0 {
		r.WallPerSimSec = secs / r.SimTime
	}
	return r, err
}

func cmdBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	var sets SetFlags
	fs.StringVar(&o.Scene, "scene", DefaultScene, "scene to measure")
	dur := fs.Float64("time", 0, "simulated seconds to run from the start state (default: to the scene's end time)")
	fs.IntVar(&o.Workers, "workers", 0, "worker goroutines (default: all cores)")
	fs.StringVar(&o.Integrator, "integrator", "", "integrator name")
	fs.StringVar(&o.Restart, "restart", "auto", `start from the body states of a final.json ("builtin:NAME" for a shipped state; "auto": the shipped packed box for the default scene unless a --set changes its bodies, else none)`)
	fs.Var(&sets, "set", "override a scene value (repeatable)")
	prof := fs.String("cpuprofile", "", "write a CPU profile to this file")
	heap := fs.String("memprofile", "", "write the heap profile after the run to this file (live objects, sampled every 4 KiB)")
	if err := fs.Parse(args); err != nil {
		return ExitInput
	}
	o.Sets = sets
	if note := AutoRestart(&o); note != "" { // the default scene: time the collapse, not the fill
		fmt.Fprintln(stderr, "grainlab bench:", note)
	}
	if *dur > 0 {
		o.Duration = *dur
	}
	if *heap != "" {
		runtime.MemProfileRate = memProfileRate
	}
	if *prof != "" {
		stop, err := startProfile(*prof)
		if err != nil {
			fmt.Fprintln(stderr, "grainlab bench:", err)
			return ExitInput
		}
		defer stop()
	}
	if err := checkFlags(o, map[string]float64{"--time": *dur}); err != nil {
		fmt.Fprintln(stderr, "grainlab bench:", err)
		return ExitInput
	}
	stop, release := catchSignals(stderr, "stopping the benchmark")
	defer release()
	r, err := bench(o, stop, *heap)
	if err != nil && r == nil {
		fmt.Fprintln(stderr, "grainlab bench:", err)
		return ExitFor(err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "grainlab bench: %v after %.6g s simulated; the figures below are of the steps taken\n", err, r.SimTime)
	}
	fmt.Fprintf(stdout, "scene            %s (%d bodies, %d workers)\n", r.Scene, r.Bodies, r.Workers)
	fmt.Fprintf(stdout, "simulated        %.4g s in %d steps\n", r.SimTime, r.Steps)
	fmt.Fprintf(stdout, "wall time        %.3f s\n", r.Wall.Seconds())
	fmt.Fprintf(stdout, "steps/s          %.1f\n", r.StepsPerSecond)
	fmt.Fprintf(stdout, "contacts         %.1f mean, %d max active per step\n", float64(r.ContactSteps)/float64(max(r.Steps, 1)), r.MaxContacts)
	fmt.Fprintf(stdout, "µs/contact/step  %.3f\n", r.USPerContact)
	fmt.Fprintf(stdout, "µs/particle/step %.4f\n", r.USPerParticle)
	fmt.Fprintf(stdout, "wall s / sim s   %.2f\n", r.WallPerSimSec)
	fmt.Fprintf(stdout, "Verlet list      skin %.4g m (%.3g r_min), %d rebuilds in %d steps\n", r.Skin, r.SkinRadii, r.VerletBuilds, r.Steps)
	printProfile(stdout, r)
	printCrew(stdout, r)
	return ExitFor(err)
}

// printProfile prints the stage times of a benchmark (world.Profile): wall
// time, share of the measured wall time and µs per step of each stage.
func printProfile(out io.Writer, r *BenchResult) {
	p := r.Profile
	if p.Total() <= 0 || r.Steps == 0 || r.Wall <= 0 {
		return
	}
	fmt.Fprintf(out, "stages           wall s   share  µs/step  (%d evaluations, %.1f pairs and %.2f feature-list rebuilds per evaluation)\n",
		p.Evaluations, float64(p.Pairs)/float64(max(p.Evaluations, 1)), float64(p.Rebuilds)/float64(max(p.Evaluations, 1)))
	row := func(name string, d time.Duration) {
		fmt.Fprintf(out, "  %-14s %7.3f  %5.1f%%  %7.1f\n", name, d.Seconds(), 100*d.Seconds()/r.Wall.Seconds(), d.Seconds()*1e6/float64(r.Steps))
	}
	row("place", p.Place)
	row("broad", p.Broad)
	row("cache", p.Cache)
	row("narrow", p.Narrow)
	row("laws", p.Laws)
	row("accumulate", p.Accumulate)
	row("step bound", p.StepBound)
	row("integrate", p.Integrate)
	row("other", r.Wall-p.Total())
}

// CrewFigures are the parallel figures of a benchmark, from the counters of
// world.Profile (the World's crew, sim/world/crew.go), per measured step.
type CrewFigures struct {
	ForkJoinsPerStep float64 // parallel passes run on two or more workers (0 with one worker)
	BatchesPerStep   float64 // their batches
	HelpedShare      float64 // share of those batches the helpers ran, in [0, 1] (0 without any)
	JoinWaitPerStep  time.Duration
	// SerialShare is 1 − Profile.Parallel / wall time of the measured loop,
	// in [0, 1]: the share of the loop outside the passes that split over
	// the workers, which more workers cannot shorten (Amdahl). With one
	// worker it bounds the speed-up of n workers by 1/(s + (1−s)/n).
	SerialShare float64
}

// Crew returns the parallel figures of the benchmark; ok is false when no
// step was measured.
func (r *BenchResult) Crew() (c CrewFigures, ok bool) {
	if r.Steps <= 0 || r.Wall <= 0 {
		return c, false
	}
	p := r.Profile
	n := float64(r.Steps)
	c.ForkJoinsPerStep = float64(p.ForkJoins) / n
	c.BatchesPerStep = float64(p.Batches) / n
	if p.Batches > 0 {
		c.HelpedShare = min(max(float64(p.Helped)/float64(p.Batches), 0), 1)
	}
	c.JoinWaitPerStep = p.JoinWait / time.Duration(r.Steps)
	c.SerialShare = min(max(1-p.Parallel.Seconds()/r.Wall.Seconds(), 0), 1)
	return c, true
}

// printCrew prints, under the stage table, how the step used the workers
// (BenchResult.Crew): fork–joins per step, the helpers' share of their
// batches, the caller's wait at the joins and the serial share.
func printCrew(out io.Writer, r *BenchResult) {
	c, ok := r.Crew()
	if !ok {
		return
	}
	fmt.Fprintf(out, "fork–joins/step  %.2f (%.1f batches per step)\n", c.ForkJoinsPerStep, c.BatchesPerStep)
	if r.Profile.Batches > 0 {
		fmt.Fprintf(out, "helpers' share   %.1f%% of the batches (the caller ran the rest)\n", 100*c.HelpedShare)
	} else {
		fmt.Fprintf(out, "helpers' share   %.1f%% of the batches (no fork–joins: one worker, or passes under 64 items)\n", 100*c.HelpedShare)
	}
	fmt.Fprintf(out, "join wait        %.1f µs/step (the caller waiting at joins for helpers inside a batch)\n", c.JoinWaitPerStep.Seconds()*1e6)
	if r.Profile.Parallel > 0 {
		fmt.Fprintf(out, "serial share     %.1f%% of the wall time (outside the passes that split over the workers)\n", 100*c.SerialShare)
	} else { // the sphere path runs its passes unsplit and untimed on one worker
		fmt.Fprintf(out, "serial share     not measured (no pass was split or timed: the sphere path on one worker)\n")
	}
}
