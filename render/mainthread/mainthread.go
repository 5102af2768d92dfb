// Package mainthread runs functions on the process's main OS thread, as GLFW
// and OpenGL require. Test packages use it from TestMain:
//
//	func init()                   { runtime.LockOSThread() }
//	func TestMain(m *testing.M)   { os.Exit(mainthread.Run(m.Run)) }
//
// and then mainthread.Call(f) from any test goroutine.
package mainthread

import (
	"os"
	"testing"
)

var funcs = make(chan func())

// Run calls run (typically testing.M.Run) on a new goroutine and serves Call
// requests on the calling thread until run returns; it returns run's result.
func Run(run func() int) int {
	code := make(chan int, 1)
	go func() { code <- run() }()
	for {
		select {
		case f := <-funcs:
			f()
		case c := <-code:
			return c
		}
	}
}

// Call runs f on the main thread (inside Run) and waits for it to return.
func Call(f func()) {
	done := make(chan struct{})
	funcs <- func() { defer close(done); f() }
	<-done
}

// NeedDisplay skips t when no X11 or Wayland display is available.
func NeedDisplay(t testing.TB) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		t.Skip("no display (run under xvfb-run)")
	}
}
