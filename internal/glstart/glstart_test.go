package glstart

import (
	"os"
	"runtime"
	"testing"
	"time"

	"grainlab/render/mainthread"
)

func init()                 { runtime.LockOSThread() }
func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

// TestInitReportsRefusedDisplay: with DISPLAY naming an X server that does
// not exist, go-gl/glfw's Init returns nil (it only logs the platform
// error); glstart.Init must return an error instead, after trying every
// retry, and leave GLFW usable for a later Init (no panic).
func TestInitReportsRefusedDisplay(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("X11 display names are a Linux test")
	}
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("DISPLAY", ":987") // no server listens there
	saved := Retries
	Retries = []time.Duration{time.Millisecond, time.Millisecond}
	defer func() { Retries = saved }()
	var err error
	var panicked any
	mainthread.Call(func() {
		defer func() { panicked = recover() }()
		err = Init()
	})
	if panicked != nil {
		t.Fatalf("Init panicked: %v", panicked)
	}
	if err == nil {
		t.Fatal("Init returned nil for a display with no server")
	}
}
