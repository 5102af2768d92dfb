package app

import (
	"fmt"
	"io"
)

// The window (issue: interactive window) replaces these; until then the
// default command runs the default scene headless.

func runDefault(stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "grainlab: the window is not available yet; running the default scene headless (see 'grainlab help')")
	return Run(Options{Scene: DefaultScene}, "out", false, stderr)
}

func cmdView(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "grainlab view: the window is not available yet; use 'grainlab run'")
	return ExitInput
}

func cmdShot(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "grainlab shot: the window is not available yet; use 'grainlab run'")
	return ExitInput
}
