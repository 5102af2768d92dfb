//go:build cgo

package main

import "grainlab/app/window"

// The GL build (cgo): the window, shot and export --frames (app/window).
// Without cgo (CGO_ENABLED=0) this file is left out and those commands say
// they need the GL build.
func init() { window.Register() }
