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

// Required names the environment variable that turns a GL test's missing
// window from a skip into a failure: `make test` sets it to "required" for
// the GL packages it runs under Xvfb, where no window means a broken test
// set-up (an X server that died or refused the connection), not a machine
// without a display — so the GL tests cannot pass there by not running.
const Required = "GRAINLAB_GL_TESTS"

// NoWindow ends t because no window could be opened for the reason given:
// a skip, or a failure when Required is "required".
func NoWindow(t testing.TB, reason string) {
	t.Helper()
	if os.Getenv(Required) == "required" {
		t.Fatalf("no window (%s=required, so this is a failure, not a skip): %s", Required, reason)
	}
	t.Skip(reason)
}

// NeedDisplay ends t by NoWindow when no X11 or Wayland display is set.
func NeedDisplay(t testing.TB) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		NoWindow(t, "no display (run under xvfb-run)")
	}
}
