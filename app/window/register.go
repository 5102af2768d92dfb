// Package window is the GL side of Grainlab: the interactive window (GLFW,
// OpenGL, imgui) with its time bar, `grainlab shot` and the PNG/MP4 frames
// of `grainlab export --frames`. It needs cgo; package app (the headless
// core) does not, and gets these commands through app.RegisterWindow
// (Register, called by the GL build's main_gl.go).
package window

import "grainlab/app"

// Commands are the window's commands for app.RegisterWindow: the window on
// the default scene, view, shot and export --frames.
func Commands() app.WindowCommands {
	return app.WindowCommands{Default: runDefault, View: cmdView, Shot: cmdShot, Frames: RunExportFrames}
}

// Register registers Commands with app; the GL build's main does at start-up.
func Register() { app.RegisterWindow(Commands()) }
