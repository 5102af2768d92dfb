package app

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"grainlab/sim/lammps"
)

// cmdLammps writes a scene (optionally from a saved state) as a LAMMPS input
// deck for side-by-side timing (sim/lammps, `make bench-lammps`).
func cmdLammps(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lammps", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	var sets setFlags
	out := fs.String("out", "lammps", "output directory (in.lammps and "+lammps.DataName+")")
	steps := fs.Int("steps", 10000, "steps LAMMPS runs")
	dt := fs.Float64("dt", 0, "LAMMPS' fixed step in s (default: the scene's dt_max, where Grainlab's explicit step sits in a settled box)")
	every := fs.Int("dump-every", -1, "write the trajectory (dump custom: "+lammps.TrajectoryName+") every N steps (default: steps/100; 0: none)")
	fs.StringVar(&o.Restart, "restart", "", `start from the body states of a final.json ("builtin:NAME" for a shipped state)`)
	fs.Var(&sets, "set", "override a scene value (repeatable)")
	name, err := parseWithPositional(fs, args)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab lammps:", err)
		return ExitInput
	}
	if math.IsNaN(*dt) || *dt < 0 {
		fmt.Fprintln(stderr, "grainlab lammps: --dt must be ≥ 0")
		return ExitInput
	}
	if *every < -1 {
		fmt.Fprintln(stderr, "grainlab lammps: --dump-every must be ≥ 0 steps")
		return ExitInput
	}
	if *every == -1 {
		*every = max(1, *steps/100)
	}
	o.Scene, o.Sets = name, sets
	s, err := Load(o)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab lammps:", err)
		return exitFor(err)
	}
	if *dt == 0 {
		*dt = s.World.Settings.DtMax
	}
	deck, err := lammps.Write(s.World, lammps.Options{Steps: *steps, Dt: *dt, DumpEvery: *every})
	if err != nil {
		fmt.Fprintf(stderr, "grainlab lammps: scene %s: %v\n", name, err)
		return ExitInput
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "grainlab lammps:", err)
		return ExitFailure
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{{"in.lammps", deck.Input}, {lammps.DataName, deck.Data}} {
		if err := os.WriteFile(filepath.Join(*out, f.name), f.b, 0o644); err != nil {
			fmt.Fprintln(stderr, "grainlab lammps:", err)
			return ExitFailure
		}
	}
	fmt.Fprintf(stdout, "wrote %s: run it with  cd %s && lmp -in in.lammps -log none\n", *out, *out)
	if *every > 0 {
		fmt.Fprintf(stdout, "the trajectory goes to %s every %d steps: grainlab export %s --vtk DIR\n",
			filepath.Join(*out, lammps.TrajectoryName), *every, filepath.Join(*out, lammps.TrajectoryName))
	}
	return ExitOK
}
