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

	"grainlab/sim/dump"
	"grainlab/sim/snap"
	"grainlab/sim/vtk"
)

// cmdExport converts a run (a recording or a LAMMPS/LIGGGHTS dump, by
// OpenFrames) into a ParaView series (--vtk DIR: DIR/vtk/*.pvd) and/or a
// LAMMPS `dump custom` of sphere centres (--dump FILE).
func cmdExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vtkDir := fs.String("vtk", "", "write a ParaView series under DIR/vtk/ (bodies.pvd, spheres.pvd, contacts.pvd, walls.pvd)")
	sphereMesh := fs.Bool("vtk-sphere-mesh", false, "--vtk: write spheres tessellated in bodies.pvd (≈ 23 kB a sphere a frame), not as points with a radius in spheres.pvd")
	dumpFile := fs.String("dump", "", "write a LAMMPS dump custom of sphere centres ("+dump.Columns+") to FILE")
	frames := fs.String("frames", "", "write a PNG sequence (and an MP4 with ffmpeg) of the window's rendering to DIR")
	contacts := fs.String("contacts", "", "a dump's contact pairs: a LAMMPS/LIGGGHTS dump local FILE (docs/outputs.md)")
	dt := fs.Float64("dt", 0, "a dump's time step in s, for dumps without ITEM: TIME (default: times are timestep numbers)")
	every := fs.Int("every", 1, "export every N-th frame")
	size := fs.String("size", "", "--frames: image size WxH (default: the window's)")
	pos, err := ParsePositional(fs, args)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab export:", err)
		return ExitInput
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "grainlab export: expected one INPUT (a recording or a LAMMPS dump), got %q\n", pos)
		return ExitInput
	}
	in := pos[0]
	switch {
	case *vtkDir == "" && *dumpFile == "" && *frames == "":
		fmt.Fprintln(stderr, "grainlab export: nothing to write: give --vtk DIR, --dump FILE and/or --frames DIR")
		return ExitInput
	case math.IsNaN(*dt) || math.IsInf(*dt, 0) || *dt < 0:
		fmt.Fprintln(stderr, "grainlab export: --dt must be a finite number ≥ 0")
		return ExitInput
	case *every < 1:
		fmt.Fprintln(stderr, "grainlab export: --every must be ≥ 1")
		return ExitInput
	case *sphereMesh && *vtkDir == "":
		fmt.Fprintln(stderr, "grainlab export: --vtk-sphere-mesh needs --vtk DIR (it chooses how the VTK series writes spheres)")
		return ExitInput
	}
	if *frames != "" && windowCmds.Frames == nil { // refused before anything is written
		return needsGL("grainlab export --frames", "rendering frames", stderr)
	}
	src, err := OpenFramesWith(in, dump.Options{Dt: *dt, Contacts: *contacts})
	if err != nil {
		fmt.Fprintln(stderr, "grainlab export:", err)
		return ExitFor(err)
	}
	defer src.Close()
	if n, ok := src.(interface{ Note() string }); ok && n.Note() != "" {
		fmt.Fprintln(stderr, "grainlab export: note:", n.Note())
	}
	if *vtkDir != "" || *dumpFile != "" {
		stop, release := catchSignals(stderr, "stopping the export")
		c := &ExportConfig{VTK: *vtkDir, SphereMesh: *sphereMesh, Dump: *dumpFile, Every: *every, stop: stop}
		err := Export(src, c)
		release()
		var in *Interrupted
		if errors.As(err, &in) {
			fmt.Fprintf(stderr, "grainlab export: stopped after %d of %d frames; every frame written is complete (%s)\n",
				c.written, (src.Len()+*every-1) / *every, strings.Join(nonEmpty(*vtkDir, *dumpFile), ", "))
			return in.Code()
		}
		if err != nil {
			fmt.Fprintln(stderr, "grainlab export:", err)
			return ExitFor(err)
		}
	}
	if *frames != "" { // the window's rendering, headless (app/window/frames_png.go)
		if code := windowCmds.Frames(src, *frames, *size, *every, stderr); code != ExitOK {
			return code
		}
	}
	k := (src.Len() + *every - 1) / *every
	if *vtkDir != "" {
		names := []string{vtk.BodiesPVD, vtk.ContactsPVD, vtk.WallsPVD}
		if _, err := os.Stat(filepath.Join(*vtkDir, vtk.Subdir, vtk.SpheresPVD)); err == nil {
			names = append(names, vtk.SpheresPVD)
		}
		fmt.Fprintf(stdout, "wrote %d frames to %s (%s)\n", k, filepath.Join(*vtkDir, vtk.Subdir), strings.Join(names, ", "))
	}
	if *dumpFile != "" {
		fmt.Fprintf(stdout, "wrote %d frames to %s\n", k, *dumpFile)
	}
	return ExitOK
}

// ExportConfig says what Export writes.
type ExportConfig struct {
	VTK string // directory of the ParaView series (DIR/vtk/); "" none
	// SphereMesh writes the series' spheres as meshes in bodies.pvd, not
	// as points in spheres.pvd (vtk.Options.SphereMesh).
	SphereMesh bool
	Dump       string // LAMMPS dump custom file; "" none
	Every      int    // every N-th frame (≤ 1: all)

	stop    *stopFlag // set by SIGINT/SIGTERM: stop after the current frame; nil: never
	written int       // frames written (set by Export)
}

// Export writes every Every-th frame of src as a ParaView series and/or a
// LAMMPS dump. A frame that does not decode is an *InputError; the dump
// is written to FILE.tmp and renamed at the end.
//
// A signal (c.stop) stops it after the frame being written: the series and
// the dump are closed with every frame so far complete, and the error is an
// *Interrupted.
func Export(src snap.Frames, c *ExportConfig) (err error) {
	every := max(c.Every, 1)
	var series *vtk.Series
	if c.VTK != "" {
		if series, err = vtk.CreateWith(c.VTK, vtk.Options{SphereMesh: c.SphereMesh}); err != nil {
			return &OutputError{c.VTK, "create the VTK series", err}
		}
	}
	var dw *dump.Writer
	var df *os.File
	tmp := c.Dump + ".tmp"
	if c.Dump != "" {
		if df, err = os.Create(tmp); err != nil {
			return &OutputError{c.Dump, "create", err}
		}
		defer func() {
			if df != nil {
				df.Close()
				os.Remove(tmp)
			}
		}()
		dw = dump.NewWriter(df)
	}
	for i := 0; i < src.Len(); i += every {
		f, err := src.Frame(i)
		if err != nil {
			return &InputError{err}
		}
		if series != nil {
			if err := series.Write(f); err != nil {
				return &OutputError{series.Dir(), "write frame " + fmt.Sprint(i), err}
			}
		}
		if dw != nil {
			if err := dw.Write(f); err != nil {
				return &OutputError{c.Dump, "write", err}
			}
		}
		c.written++
		if c.stop.stopped() != nil {
			break
		}
	}
	if series != nil {
		if err := series.Close(); err != nil {
			return &OutputError{series.Dir(), "close the VTK series", err}
		}
	}
	if dw != nil {
		err := errors.Join(dw.Flush(), df.Close())
		df = nil
		if err == nil {
			err = os.Rename(tmp, c.Dump)
		}
		if err != nil {
			os.Remove(tmp)
			return &OutputError{c.Dump, "write", err}
		}
	}
	if sig := c.stop.stopped(); sig != nil {
		return &Interrupted{sig}
	}
	return nil
}

// nonEmpty returns the arguments that are not "".
func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}
