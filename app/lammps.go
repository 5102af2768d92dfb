package app

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"grainlab/sim/lammps"
	"grainlab/sim/world"
)

// deckEngine is a program a scene is exported for: the command's name, the
// deck writer, the input script's file name and the way to run it.
type deckEngine struct {
	cmd, input, run string
	write           func(*world.World, lammps.Options) (*lammps.Deck, error)
	timeItem        bool // the dump has ITEM: TIME (else `grainlab export` needs --dt)
}

// cmdLammps writes a scene (optionally from a saved state) as a LAMMPS input
// deck for side-by-side timing (sim/lammps, `make bench-lammps`).
func cmdLammps(args []string, stdout, stderr io.Writer) int {
	return cmdDeck(deckEngine{"lammps", "in.lammps", "lmp -in in.lammps -log none", lammps.Write, true}, args, stdout, stderr)
}

// cmdLiggghts writes the same as a LIGGGHTS deck (lammps.WriteLIGGGHTS).
func cmdLiggghts(args []string, stdout, stderr io.Writer) int {
	return cmdDeck(deckEngine{"liggghts", lammps.InputLIGGGHTS, "liggghts -in " + lammps.InputLIGGGHTS + " -log none", lammps.WriteLIGGGHTS, false}, args, stdout, stderr)
}

// cmdDeck writes the deck of a scene for engine e: the input script and
// the data file in --out (exit 2 for a scene the deck cannot hold).
func cmdDeck(e deckEngine, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(e.cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	var sets SetFlags
	out := fs.String("out", e.cmd, "output directory ("+e.input+" and "+lammps.DataName+")")
	steps := fs.Int("steps", 10000, "steps the deck runs")
	dt := fs.Float64("dt", 0, "the deck's fixed step in s (default: the scene's dt_max, where Grainlab's explicit step sits in a settled box)")
	every := fs.Int("dump-every", -1, "write the trajectory (dump custom: "+lammps.TrajectoryName+") every N steps (default: steps/100; 0: none)")
	fs.StringVar(&o.Restart, "restart", "", `start from the body states of a final.json ("builtin:NAME" for a shipped state)`)
	fs.Var(&sets, "set", "override a scene value (repeatable)")
	name, err := ParseWithPositional(fs, args)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab "+e.cmd+":", err)
		return ExitInput
	}
	if math.IsNaN(*dt) || *dt < 0 {
		fmt.Fprintln(stderr, "grainlab "+e.cmd+": --dt must be ≥ 0")
		return ExitInput
	}
	if *every < -1 {
		fmt.Fprintln(stderr, "grainlab "+e.cmd+": --dump-every must be ≥ 0 steps")
		return ExitInput
	}
	if *every == -1 {
		*every = max(1, *steps/100)
	}
	o.Scene, o.Sets = name, sets
	s, err := Load(o)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab "+e.cmd+":", err)
		return ExitFor(err)
	}
	if *dt == 0 {
		*dt = s.World.Settings.DtMax
	}
	deck, err := e.write(s.World, lammps.Options{Steps: *steps, Dt: *dt, DumpEvery: *every})
	if err != nil {
		fmt.Fprintf(stderr, "grainlab "+e.cmd+": scene %s: %v\n", name, err)
		return ExitInput
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "grainlab "+e.cmd+":", err)
		return ExitFailure
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{{e.input, deck.Input}, {lammps.DataName, deck.Data}} {
		if err := os.WriteFile(filepath.Join(*out, f.name), f.b, 0o644); err != nil {
			fmt.Fprintln(stderr, "grainlab "+e.cmd+":", err)
			return ExitFailure
		}
	}
	fmt.Fprintf(stdout, "wrote %s: run it with  cd %s && %s\n", *out, *out, e.run)
	if *every > 0 {
		dtFlag := ""
		if !e.timeItem {
			dtFlag = fmt.Sprintf(" --dt %g", *dt)
		}
		fmt.Fprintf(stdout, "the trajectory goes to %s every %d steps: grainlab export %s%s --vtk DIR\n",
			filepath.Join(*out, lammps.TrajectoryName), *every, filepath.Join(*out, lammps.TrajectoryName), dtFlag)
	}
	return ExitOK
}
