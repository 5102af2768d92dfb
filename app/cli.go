// Package app wires Grainlab together: the command line, the headless
// runner and its outputs, the benchmark, the exports and the simulation
// goroutine (SimLoop, History) the window drives. It needs no cgo: the
// window, shot and export --frames live in app/window and are registered
// by the GL build (RegisterWindow).
package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"grainlab/sim/scene"
)

// Exit codes (README, docs/outputs.md); a run stopped by a signal exits
// with ExitInterrupt or ExitTerminate.
const (
	ExitOK       = 0
	ExitFailure  = 1 // the simulation failed, or an output could not be written (message says when and why)
	ExitInput    = 2 // bad input (message says what)
	ExitInternal = 3 // an internal error (a recovered panic): a bug to report
)

// SetFlags collects the repeated --set key=value flags (a flag.Value).
type SetFlags []string

// String joins the values with spaces (flag.Value).
func (s *SetFlags) String() string { return strings.Join(*s, " ") }

// Set appends one key=value (flag.Value).
func (s *SetFlags) Set(v string) error { *s = append(*s, v); return nil }

// Main runs the command line and returns the exit code. A panic in a
// command is an internal error: a message asking for a report, exit code
// ExitInternal, and the Go stack trace only with GRAINLAB_DEBUG=1.
func Main(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "grainlab: internal error: %v\n", r)
			fmt.Fprintln(stderr, "grainlab: this is a bug; please report it with the command line (set GRAINLAB_DEBUG=1 for a stack trace)")
			if os.Getenv("GRAINLAB_DEBUG") == "1" {
				stderr.Write(debug.Stack())
			}
			code = ExitInternal
		}
	}()
	return dispatchFn(args, stdout, stderr)
}

// dispatchFn runs a command (a variable: tests make it panic).
var dispatchFn = dispatch

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if windowCmds.Default == nil {
			return needsGL("grainlab", "the window", stderr)
		}
		return windowCmds.Default(stdout, stderr)
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "scenes":
		return cmdScenes(stdout, stderr)
	case "bench":
		return cmdBench(args[1:], stdout, stderr)
	case "view":
		if windowCmds.View == nil {
			return needsGL("grainlab view", "the window", stderr)
		}
		return windowCmds.View(args[1:], stdout, stderr)
	case "shot":
		if windowCmds.Shot == nil {
			return needsGL("grainlab shot", "rendering a frame", stderr)
		}
		return windowCmds.Shot(args[1:], stdout, stderr)
	case "lammps":
		return cmdLammps(args[1:], stdout, stderr)
	case "liggghts":
		return cmdLiggghts(args[1:], stdout, stderr)
	case "export":
		return cmdExport(args[1:], stdout, stderr)
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
                                    open the window on SCENE (Space plays; the time bar scrubs,
                                    replays and branches; see docs/window.md) [--history-mb MB]
  grainlab view RUN                 the window as a player of a recording or a LAMMPS/LIGGGHTS dump
  grainlab run SCENE [--time T] [--integrator NAME] [--dt DT] [--set k=v]... [--out DIR] [--quiet]
                     [--workers N] [--restart final.json] [--checkpoint EVERY] [--audit EVERY]
                     [--record FILE] [--vtk [--vtk-sphere-mesh]]
                                    run headless, writing DIR/series.csv, final.json, contacts.csv
                                    (--record: and a recording of the run to FILE: docs/recording.md;
                                    --vtk: and a ParaView series DIR/vtk/*.pvd at every output row,
                                    spheres as points with a radius unless --vtk-sphere-mesh)
  grainlab export INPUT [--vtk DIR [--vtk-sphere-mesh]] [--dump FILE] [--frames DIR [--size WxH]] [--contacts LOCAL]
                     [--dt DT] [--every N]
                                    convert a recording or a LAMMPS/LIGGGHTS dump into a ParaView
                                    series (DIR/vtk/), a LAMMPS dump custom of sphere centres and/or
                                    PNG frames of the window's rendering (+ frames.mp4 with ffmpeg)
  grainlab shot SCENE --time T --out FILE.png [--size 1280x800] [--set k=v]... [--panel] [--overlays]
                                    simulate T seconds headless and render one frame to a PNG
  grainlab shot RUN --time T --out FILE.png   the frame of a recorded run at time T
  grainlab scenes                   list the built-in scenes
  grainlab bench [--scene S] [--time T] [--workers N] [--set k=v]... [--cpuprofile FILE] [--memprofile FILE]
                                    measure steps/s, µs per contact per step, wall s per simulated s
  grainlab lammps SCENE [--restart FILE] [--steps N] [--dt DT] [--dump-every N] [--set k=v]... [--out DIR]
                                    write a world of spheres as a LAMMPS deck (timing side by side;
                                    its trajectory dump opens in view/export)
  grainlab liggghts SCENE [--restart FILE] [--steps N] [--dt DT] [--dump-every N] [--set k=v]... [--out DIR]
                                    the same as a LIGGGHTS deck (in.liggghts; its dump opens with --dt)
SCENE is a built-in name (see 'grainlab scenes') or a path to a .yaml file.
Each command's -h lists all its flags.
The window, view, shot and export --frames need the GL build (cgo); a build with
CGO_ENABLED=0 (make build-headless) runs the other commands, for machines without X11/GL.
`)
}

// ParseWithPositional parses flags that may come before or after one
// positional argument (the scene).
func ParseWithPositional(fs *flag.FlagSet, args []string) (string, error) {
	return ParseScene(fs, args, "")
}

// ParsePositional parses flags that may come before, between or after the
// positional arguments and returns those in order.
func ParsePositional(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// ParseScene is ParseWithPositional with a default scene when none is given
// (no default: the scene is required).
func ParseScene(fs *flag.FlagSet, args []string, def string) (string, error) {
	pos, err := ParsePositional(fs, args)
	if err != nil {
		return "", err
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
