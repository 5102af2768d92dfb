// Package app wires Grainlab together: the command line, the headless
// runner and its outputs, the benchmark, and (with the window) the
// simulation goroutine and the render loop.
package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"grainlab/sim/scene"
)

// Exit codes.
const (
	ExitOK      = 0
	ExitFailure = 1 // the simulation failed (message says when and why)
	ExitInput   = 2 // bad input (message says what)
)

type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// Main runs the command line and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runDefault(stdout, stderr)
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "scenes":
		return cmdScenes(stdout, stderr)
	case "bench":
		return cmdBench(args[1:], stdout, stderr)
	case "view":
		return cmdView(args[1:], stdout, stderr)
	case "shot":
		return cmdShot(args[1:], stdout, stderr)
	case "lammps":
		return cmdLammps(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return ExitOK
	}
	fmt.Fprintf(stderr, "grainlab: unknown command %q\n", args[0])
	usage(stderr)
	return ExitInput
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  grainlab                          open the window on the default scene (box of tetrapods, packed)
  grainlab view [SCENE] [--set k=v]... [--play] [--fast] [--speed X] [--time T] [--overlays] [--restart FILE]
                                    open the window on SCENE (Space plays; see docs/window.md)
  grainlab run SCENE [--time T] [--integrator NAME] [--dt DT] [--set k=v]... [--out DIR] [--quiet]
                     [--workers N] [--restart final.json]
                                    run headless, writing DIR/series.csv, final.json, contacts.csv
  grainlab shot SCENE --time T --out FILE.png [--size 1280x800] [--set k=v]... [--panel] [--overlays]
                                    simulate T seconds headless and render one frame to a PNG
  grainlab scenes                   list the built-in scenes
  grainlab bench [--scene S] [--time T] [--workers N] [--set k=v]... [--cpuprofile FILE]
                                    measure steps/s, µs per contact per step, wall s per simulated s
  grainlab lammps SCENE [--restart FILE] [--steps N] [--dt DT] [--set k=v]... [--out DIR]
                                    write a world of spheres as a LAMMPS deck (timing side by side)
SCENE is a built-in name (see 'grainlab scenes') or a path to a .yaml file.
Each command's -h lists all its flags.
`)
}

// parseWithPositional parses flags that may come before or after one
// positional argument (the scene).
func parseWithPositional(fs *flag.FlagSet, args []string) (string, error) {
	return parseScene(fs, args, "")
}

// parseScene is parseWithPositional with a default scene when none is given
// (no default: the scene is required).
func parseScene(fs *flag.FlagSet, args []string, def string) (string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	switch len(pos) {
	case 0:
		if def != "" {
			return def, nil
		}
		return "", errors.New("missing SCENE (a built-in name or a .yaml path)")
	case 1:
		return pos[0], nil
	}
	return "", fmt.Errorf("expected one SCENE, got %q", pos)
}

func cmdScenes(stdout, stderr io.Writer) int {
	list := scene.Builtins()
	wid := 0
	for _, b := range list {
		wid = max(wid, len(b.Name))
	}
	for _, b := range list {
		fmt.Fprintf(stdout, "%-*s  %s\n", wid, b.Name, b.Description)
	}
	return ExitOK
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	var sets setFlags
	out := fs.String("out", "out", "output directory")
	quiet := fs.Bool("quiet", false, "no progress bar")
	fs.Float64Var(&o.Time, "time", 0, "end time in s (default: the scene's)")
	fs.StringVar(&o.Integrator, "integrator", "", "integrator name (default: the scene's)")
	fs.Float64Var(&o.Dt, "dt", 0, "initial/maximum time step in s (default: the scene's)")
	fs.IntVar(&o.Workers, "workers", 0, "worker goroutines (default: all cores)")
	fs.StringVar(&o.Restart, "restart", "", "start from the body states of a final.json")
	fs.Var(&sets, "set", "override a scene value: --set key.path=value (repeatable)")
	name, err := parseWithPositional(fs, args)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab run:", err)
		return ExitInput
	}
	o.Scene, o.Sets = name, sets
	if math.IsNaN(o.Time) || o.Time < 0 || math.IsNaN(o.Dt) || o.Dt < 0 {
		fmt.Fprintln(stderr, "grainlab run: --time and --dt must be ≥ 0")
		return ExitInput
	}
	return Run(o, *out, *quiet, stderr)
}

// Run executes a headless run and writes its outputs; it returns the exit code.
func Run(o Options, out string, quiet bool, stderr io.Writer) int {
	s, err := Load(o)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return exitFor(err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return ExitInput
	}
	if err := s.RunOutputs(out, quiet, stderr); err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return exitFor(err)
	}
	return ExitOK
}

func exitFor(err error) int {
	var ie *InputError
	if errors.As(err, &ie) {
		return ExitInput
	}
	return ExitFailure
}

// RunOutputs advances the simulation to its end time, writing series.csv
// every output interval, contacts.csv (final or every row) and final.json.
func (s *Sim) RunOutputs(dir string, quiet bool, stderr io.Writer) error {
	w := s.World
	ser, err := NewSeries(dir, w)
	if err != nil {
		return err
	}
	defer ser.Close()
	con, err := NewContacts(dir)
	if err != nil {
		return err
	}
	defer con.Close()
	every := s.Spec.Output.Every
	if every <= 0 {
		every = s.End / 1000
	}
	allContacts := s.Spec.Output.Contacts == "every"
	var bar *Progress
	if !quiet {
		bar = NewProgress(stderr, w.Time, s.End)
	}
	if err := ser.Write(w); err != nil {
		return err
	}
	for k := 1; w.Time < s.End-1e-12; k++ {
		next := math.Min(s.End, float64(k)*every)
		if next <= w.Time {
			continue
		}
		_, err := s.StepTo(next, nil)
		if err != nil {
			if bar != nil {
				bar.Done(w.Time)
			}
			return fmt.Errorf("simulation failed at t=%.6g s (step %d): %w", w.Time, w.Steps, err)
		}
		if err := ser.Write(w); err != nil {
			return err
		}
		if allContacts {
			con.Write(w)
		}
		if bar != nil {
			bar.Update(w.Time, w.Steps)
		}
	}
	if !allContacts {
		con.Write(w)
	}
	if bar != nil {
		bar.Done(w.Time)
	}
	return WriteFinal(dir, w)
}
