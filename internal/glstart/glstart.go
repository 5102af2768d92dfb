// Package glstart initialises GLFW and says whether it worked. go-gl/glfw's
// Init only logs a platform error (no display, a refused X connection) and
// returns nil, after which every GLFW call panics; Init here reports that
// failure as an error. It also tries again a few times: an X server that
// resets when its last client disconnects (Xvfb or Xorg without -noreset)
// refuses connections for a moment, so a window opened right after another
// program closed its own may fail once and succeed a moment later.
package glstart

import (
	"fmt"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// Retries are the waits between the attempts of Init after a failure (the
// last failure is returned after them: about 0.6 s in all).
var Retries = []time.Duration{50 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond}

// Init initialises GLFW on the calling (main) thread. When it returns nil
// the caller must call glfw.Terminate; when it fails GLFW is not
// initialised (GLFW terminates itself after a failed init).
func Init() error {
	for i := 0; ; i++ {
		err := once()
		if err == nil || i == len(Retries) {
			return err
		}
		time.Sleep(Retries[i])
	}
}

// once is one glfw.Init, its quiet failure turned into an error.
func once() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("GLFW did not initialise (see the PlatformError logged above): %v", r)
		}
	}()
	if err := glfw.Init(); err != nil {
		return err
	}
	glfw.GetTime() // panics (NotInitialized) when Init failed quietly
	return nil
}
