package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"grainlab/sim/integrate"
	"grainlab/sim/snap"
	"grainlab/sim/vtk"
	"grainlab/sim/world"
)

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	var sets SetFlags
	var c RunConfig
	fs.StringVar(&c.Dir, "out", "out", "output directory")
	fs.BoolVar(&c.Quiet, "quiet", false, "no progress bar")
	fs.Float64Var(&o.Time, "time", 0, "end time in s (default: the scene's)")
	fs.StringVar(&o.Integrator, "integrator", "", "integrator name (default: the scene's)")
	fs.Float64Var(&o.Dt, "dt", 0, "initial/maximum time step in s (default: the scene's)")
	fs.IntVar(&o.Workers, "workers", 0, "worker goroutines (default: all cores)")
	fs.StringVar(&o.Restart, "restart", "", "start from the body states of a final.json")
	fs.Float64Var(&c.Checkpoint, "checkpoint", 0, "write final.json every EVERY s of simulated time (default: the scene's output.checkpoint; 0: only at the end)")
	fs.StringVar(&c.Record, "record", "", "write a recording of the run to FILE: frames at record.every (default output.every), keyframes at record.keyframes (docs/recording.md)")
	fs.Float64Var(&c.Audit, "audit", 0, "audit penetrations every EVERY s of simulated time, warning on each (0: only at the start)")
	fs.Var(&sets, "set", "override a scene value: --set key.path=value (repeatable)")
	fs.BoolVar(&c.VTK, "vtk", false, "also write a ParaView series DIR/vtk/ (bodies.pvd, spheres.pvd, contacts.pvd, walls.pvd) at every output row")
	fs.BoolVar(&c.VTKSphereMesh, "vtk-sphere-mesh", false, "--vtk: write spheres tessellated in bodies.pvd (≈ 23 kB a sphere a frame), not as points with a radius in spheres.pvd")
	name, err := ParseWithPositional(fs, args)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab run:", err)
		return ExitInput
	}
	o.Scene, o.Sets = name, sets
	if err := checkFlags(o, map[string]float64{"--checkpoint": c.Checkpoint, "--audit": c.Audit}); err != nil {
		fmt.Fprintln(stderr, "grainlab run:", err)
		return ExitInput
	}
	if c.VTKSphereMesh && !c.VTK { // a choice for an output not asked for: said, not ignored
		fmt.Fprintln(stderr, "grainlab run: --vtk-sphere-mesh needs --vtk (it chooses how the VTK series writes spheres)")
		return ExitInput
	}
	c.Resume = resumeCommand(o, c.Dir)
	if c.VTK {
		c.Resume += " --vtk"
	}
	if c.VTKSphereMesh {
		c.Resume += " --vtk-sphere-mesh"
	}
	return Run(o, c, stderr)
}

// checkFlags refuses flag values no run can use, naming the flag: a time,
// step or interval that is negative, infinite or NaN; negative workers.
func checkFlags(o Options, more map[string]float64) error {
	vals := map[string]float64{"--time": o.Time, "--dt": o.Dt}
	for k, v := range more {
		vals[k] = v
	}
	for _, k := range []string{"--time", "--dt", "--checkpoint", "--audit"} {
		v, ok := vals[k]
		if ok && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
			return fmt.Errorf("%s must be a finite number ≥ 0 (0: the scene's), got %v", k, v)
		}
	}
	if o.Workers < 0 {
		return fmt.Errorf("--workers must be ≥ 0 (0: all cores), got %d", o.Workers)
	}
	return nil
}

// resumeCommand is the command line that continues a run from DIR/final.json.
func resumeCommand(o Options, dir string) string {
	a := []string{"grainlab", "run", shellQuote(o.Scene)}
	if o.Time > 0 {
		a = append(a, "--time", fmt.Sprint(o.Time))
	}
	if o.Integrator != "" {
		a = append(a, "--integrator", shellQuote(o.Integrator))
	}
	if o.Dt > 0 {
		a = append(a, "--dt", fmt.Sprint(o.Dt))
	}
	for _, s := range o.Sets {
		a = append(a, "--set", shellQuote(s))
	}
	if o.Workers > 0 {
		a = append(a, "--workers", fmt.Sprint(o.Workers))
	}
	a = append(a, "--restart", shellQuote(filepath.Join(dir, FinalFile)), "--out", shellQuote(dir))
	return strings.Join(a, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ',' || r == ':' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// RunConfig is what a headless run writes and how often.
type RunConfig struct {
	Dir        string  // output directory
	Quiet      bool    // no progress bar
	Checkpoint float64 // s of simulated time between final.json checkpoints (0: the scene's output.checkpoint)
	Audit      float64 // s of simulated time between penetration audits (0: none after the start)
	Resume     string  // the command that resumes the run (printed when it is interrupted)
	Record     string  // the recording's path (--record; "": none)
	VTK        bool    // also write a ParaView series under DIR/vtk/ at every output row (sim/vtk)
	// VTKSphereMesh writes the series' spheres as meshes in bodies.pvd,
	// not as points in spheres.pvd (vtk.Options.SphereMesh).
	VTKSphereMesh bool

	stop     *stopFlag      // set by SIGINT/SIGTERM; nil: never
	recSpent *time.Duration // if set, receives the wall time spent recording (benchmarks)
}

// Run executes a headless run and writes its outputs; it returns the exit
// code. SIGINT and SIGTERM stop it after the current step with its outputs
// written (exit 130, 143).
func Run(o Options, c RunConfig, stderr io.Writer) int {
	defer setGC(SetupGCPercent)()
	s, err := Load(o)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return ExitFor(err)
	}
	setGC(steppingGCPercent()) // the deferred call puts back the setting before Run
	for _, n := range s.Notes {
		fmt.Fprintf(stderr, "grainlab: note: %s: %s\n", o.Restart, n)
	}
	for _, wn := range s.Warnings {
		fmt.Fprintln(stderr, "grainlab: warning:", wn)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return ExitInput
	}
	if c.Resume == "" {
		c.Resume = resumeCommand(o, c.Dir)
	}
	stop, release := catchSignals(stderr, "stopping")
	defer release()
	c.stop = stop
	if err := s.RunOutputs(c, stderr); err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return ExitFor(err)
	}
	return ExitOK
}

// ExitFor is the exit code for an error: ExitOK for nil, ExitInput for an
// *InputError, an *Interrupted's own code, ExitFailure otherwise.
func ExitFor(err error) int {
	if err == nil {
		return ExitOK
	}
	var ie *InputError
	if errors.As(err, &ie) {
		return ExitInput
	}
	var in *Interrupted
	if errors.As(err, &in) {
		return in.Code()
	}
	return ExitFailure
}

// nextTime returns the first multiple of every after t (by more than
// 1e-12 s), computed directly: a run restarted at a large t0 does not walk
// the O(t0/every) earlier output times.
func nextTime(t, every float64) float64 {
	if !(every > 0) {
		return math.Inf(1)
	}
	k := math.Floor(t/every) + 1
	next := k * every
	for i := 0; next <= t+1e-12 && i < 4; i++ {
		k++
		next = k * every
	}
	if next <= t+1e-12 { // t/every beyond 2⁵³: the multiples are not representable
		next = max(t+every, math.Nextafter(t, math.Inf(1)))
	}
	return next
}

// RunOutputs advances the simulation to its end time, writing series.csv
// at the first step end at or after every output time (output times never
// shorten a step, docs/outputs.md), contacts.csv (final or every row) and
// final.json, atomically. It removes the outputs of an earlier run in the
// directory first. Every step is checked for non-finite states (the run
// stops with final.json holding the last finite state); a signal stops it
// after the current step with every output written (an *Interrupted).
func (s *Sim) RunOutputs(c RunConfig, stderr io.Writer) (err error) {
	w := s.World
	dir := c.Dir
	allContacts := s.Spec.Output.Contacts == "every"
	// A resume (--restart DIR/final.json) continues DIR's rows up to the
	// restart time (resume.go); a refusal has touched nothing.
	var plan *resumePlan
	if isResume(dir, s.Restart) {
		if plan, err = planResume(dir, seriesColumns(w), w.Time, allContacts); err != nil {
			return err
		}
	}
	start := w.Time // the series' first time: the output interval's base
	if plan != nil && plan.series.rows > 0 {
		start = plan.series.first
	}
	every := s.Spec.Output.Every
	if every <= 0 {
		every = (s.End - start) / 1000
	}
	if plan != nil {
		plan.decide(every)
		if c.VTK {
			aside, err := vtkAside(dir)
			if err != nil {
				return err
			}
			if aside != "" {
				fmt.Fprintf(stderr, "grainlab: note: resuming at t=%.6g s: the earlier VTK series is now %s; %s starts at the restart time\n", w.Time, aside, filepath.Join(dir, vtk.Subdir))
			}
		}
	} else if err := removeStale(dir, s.Restart); err != nil {
		return err
	}
	rec, err := newRecorder(c.Record, s, every)
	if err != nil {
		return err
	}
	if rec != nil {
		rec.report = c.recSpent
	}
	defer rec.finish(w, false) // closes the file on every path; a no-op after the explicit finish
	var ser *Series
	if plan != nil && plan.series.exists {
		ser, err = continueSeries(dir, plan.series.keep)
	} else {
		ser, err = NewSeries(dir, w)
	}
	if err != nil {
		return err
	}
	var con *ContactsWriter
	if plan != nil && plan.allContacts && plan.contacts.exists {
		con, err = continueContacts(dir, plan.contacts.keep)
	} else {
		con, err = NewContacts(dir)
	}
	if err != nil {
		ser.Close()
		return err
	}
	defer func() { // every close error counts, the first one is reported
		e1, e2 := ser.Close(), con.Close()
		if err == nil || isInterrupt(err) {
			if e1 != nil {
				err = e1
			} else if e2 != nil {
				err = e2
			}
		}
	}()
	checkpoint := c.Checkpoint
	if checkpoint == 0 {
		checkpoint = s.Spec.Output.Checkpoint
	}
	var bar *Progress
	if !c.Quiet {
		bar = NewProgress(stderr, w.Time, s.End)
		bar.Begin()
	}
	finishBar := func() {
		if bar != nil {
			bar.Done(w.Time)
			bar = nil
		}
	}
	defer finishBar()
	var good world.BodyStates
	good.Save(w)
	var bad error
	checked := false // CheckFiniteNext from the second step on
	each := func() bool {
		check := w.CheckFinite
		if checked {
			check = w.CheckFiniteNext
		}
		checked = true
		if e := check(); e != nil {
			bad = e
			return true
		}
		if saveEveryStep {
			good.Save(w)
		} else {
			good.SaveRef(w) // no copy a step with lazy spheres: Restore finds the state in the sphere path's arrays
		}
		if bar != nil {
			bar.Set(w.Time, w.Steps, w.Stats.Dt)
		}
		return c.stop.stopped() != nil
	}
	var vs *vtk.Series
	var last *snap.Snapshot
	if c.VTK { // every frame complete on disk before its collections list it
		if vs, err = vtk.CreateWith(dir, vtk.Options{SphereMesh: c.VTKSphereMesh}); err != nil {
			return &OutputError{filepath.Join(dir, vtk.Subdir), "create the VTK series", err}
		}
	}
	vtkRow := func() error {
		if vs == nil {
			return nil
		}
		last = w.Snapshot(last)
		if err := vs.Write(last); err != nil {
			return &OutputError{vs.Dir(), "write a VTK frame", err}
		}
		return nil
	}
	row := func() error {
		if err := ser.Write(w); err != nil {
			return err
		}
		if err := vtkRow(); err != nil {
			return err
		}
		if allContacts {
			if err := con.Write(w); err != nil {
				return err
			}
			if err := con.Flush(); err != nil {
				return err
			}
		}
		// The instant's rows on disk now, whole (sink): a killed or
		// failed run keeps every instant written before.
		return ser.Flush()
	}
	if plan.resumeFirstRow() {
		if err := ser.Write(w); err != nil {
			return err
		}
	}
	if err := vtkRow(); err != nil {
		return err
	}
	lastRow := w.Time
	nextOut, nextCk, nextAudit := nextTime(w.Time, every), nextTime(w.Time, checkpoint), nextTime(w.Time, c.Audit)
	for w.Time < s.End-1e-12 {
		target := min(nextOut, nextCk, nextAudit, rec.next(), s.End)
		// each reads only the statistics and the flat state (CheckFinite,
		// Save): lazy bodies, written on return (every output row,
		// checkpoint, record frame, audit, signal, failure and the end).
		_, stepErr := integrate.AdvancePastLazy(w, target, s.End, each)
		if bad != nil || stepErr != nil {
			finishBar()
			cause := bad
			if cause == nil {
				cause = fmt.Errorf("simulation failed at t=%.6g s (step %d): %w", w.Time, w.Steps, stepErr)
			}
			good.Restore(w)
			ser.Flush()
			if e := writeLast(dir, w); e != nil {
				return fmt.Errorf("%w; and %v", cause, e)
			}
			return fmt.Errorf("%w\n  %s holds the last good state, t=%.6g s (step %d)", cause, filepath.Join(dir, FinalFile), w.Time, w.Steps)
		}
		if w.Time >= nextOut-1e-12 || w.Time >= s.End-1e-12 {
			if err := row(); err != nil {
				return err
			}
			lastRow = w.Time
			nextOut = nextTime(w.Time, every)
		}
		if err := rec.step(w, s.End); err != nil {
			return err
		}
		if w.Time >= nextCk-1e-12 {
			nextCk = nextTime(w.Time, checkpoint)
			if err := ser.Flush(); err != nil {
				return err
			}
			if err := con.Flush(); err != nil {
				return err
			}
			// In place (WriteFinal): the run goes on as without the
			// checkpoint, to the bit.
			err := WriteFinal(dir, w)
			if err != nil {
				return err
			}
		}
		if w.Time >= nextAudit-1e-12 {
			nextAudit = nextTime(w.Time, c.Audit)
			if msgs := auditWorld(w); len(msgs) > 0 {
				finishBar()
				for _, m := range msgs {
					fmt.Fprintf(stderr, "grainlab: warning: audit at t=%.6g s (step %d): %s\n", w.Time, w.Steps, m)
				}
			}
		}
		if sig := c.stop.stopped(); sig != nil {
			finishBar()
			if lastRow != w.Time {
				if err := row(); err != nil {
					return err
				}
			}
			if !allContacts {
				if err := con.Write(w); err != nil {
					return err
				}
			}
			if err := writeLast(dir, w); err != nil {
				return err
			}
			if err := rec.finish(w, true); err != nil {
				return err
			}
			if rec != nil {
				fmt.Fprintf(stderr, "grainlab: recording %s\n", rec.summary())
			}
			fmt.Fprintf(stderr, "grainlab: stopped at t=%.6g s (step %d) of %g s; outputs in %s: %s, %s, %s (complete rows up to t=%.6g s)\n",
				w.Time, w.Steps, s.End, dir, SeriesFile, ContactsFile, FinalFile, w.Time)
			fmt.Fprintf(stderr, "grainlab: to resume: %s\n", c.Resume)
			return &Interrupted{sig}
		}
	}
	if !allContacts {
		if err := con.Write(w); err != nil {
			return err
		}
	}
	finishBar()
	if err := rec.finish(w, true); err != nil {
		return err
	}
	if rec != nil && !c.Quiet {
		fmt.Fprintf(stderr, "grainlab: recording %s\n", rec.summary())
	}
	return writeLast(dir, w)
}

// saveEveryStep makes run copy the last good state every step
// (BodyStates.Save) instead of keeping it by reference (SaveRef): the tests
// compare the two ways' final.json (TestRV6LastGoodReorder).
var saveEveryStep bool

func isInterrupt(err error) bool {
	var in *Interrupted
	return errors.As(err, &in)
}
