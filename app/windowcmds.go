package app

import (
	"fmt"
	"io"

	"grainlab/sim/snap"
)

// WindowCommands are the commands that need OpenGL (a GLFW window, hidden
// or not): package app/window provides them and the GL build of grainlab
// (main_gl.go) registers them with RegisterWindow. A build with
// CGO_ENABLED=0 registers none: those commands exit with ExitInput and say
// they need the GL build; every other command works the same.
type WindowCommands struct {
	// Default opens the window on the default scene (grainlab alone).
	Default func(stdout, stderr io.Writer) int
	// View is `grainlab view ARGS…`.
	View func(args []string, stdout, stderr io.Writer) int
	// Shot is `grainlab shot ARGS…`.
	Shot func(args []string, stdout, stderr io.Writer) int
	// Frames writes the PNG sequence of `grainlab export --frames DIR`
	// (size "WxH" or "" for the window's, every N-th frame) and returns
	// the exit code.
	Frames func(src snap.Frames, dir, size string, every int, stderr io.Writer) int
}

// windowCmds are the registered window commands (none in the headless build).
var windowCmds WindowCommands

// RegisterWindow makes the window commands available to Main. It is called
// once at start-up, before Main (main_gl.go).
func RegisterWindow(c WindowCommands) { windowCmds = c }

// needsGL refuses a window command in a build without it: one line on
// stderr and ExitInput.
func needsGL(cmd, what string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: %s needs the GL build of grainlab (this one was built with CGO_ENABLED=0); "+
		"build it with cgo and the GL libraries (make build), or use a headless command (grainlab help)\n", cmd, what)
	return ExitInput
}
