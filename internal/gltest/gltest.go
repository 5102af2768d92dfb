// Package gltest opens the hidden GL 4.1 core windows of the GL packages'
// tests (render, ui). Only test files import it, so it stays out of the
// grainlab binary. Call it on the main OS thread (render/mainthread).
package gltest

import (
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/internal/glstart"
)

// Init initialises GLFW (glstart.Init: a quiet failure is an error, a
// refused display is tried again) and sets the window hints of a hidden
// GL 4.1 core forward-compatible context. When it returns nil the caller
// must call glfw.Terminate.
func Init() error {
	if err := glstart.Init(); err != nil {
		return err
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Visible, glfw.False)
	return nil
}

// Window creates a w×h window with the hints Init set and makes its
// context current; the caller must Destroy it.
func Window(w, h int, title string) (*glfw.Window, error) {
	win, err := glfw.CreateWindow(w, h, title, nil, nil)
	if err != nil {
		return nil, err
	}
	win.MakeContextCurrent()
	return win, nil
}
