package app

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// Exit codes of a run stopped by a signal (128 + the signal's number, as a
// shell reports it).
const (
	ExitInterrupt = 130 // SIGINT (Ctrl-C)
	ExitTerminate = 143 // SIGTERM
)

// Interrupted is the error of a run stopped by SIGINT or SIGTERM after a
// complete step; its outputs are written (docs/outputs.md).
type Interrupted struct{ Signal os.Signal }

func (e *Interrupted) Error() string { return fmt.Sprintf("stopped by %v", e.Signal) }

// Code returns the exit code for the signal: 130 (SIGINT) or 143 (SIGTERM).
func (e *Interrupted) Code() int {
	if e.Signal == syscall.SIGTERM {
		return ExitTerminate
	}
	return ExitInterrupt
}

// stopFlag is set when SIGINT or SIGTERM arrives; the stepping loop checks
// it between steps.
type stopFlag struct {
	sig  atomic.Value // os.Signal
	ch   chan os.Signal
	done chan struct{}
}

// catchSignals starts catching SIGINT and SIGTERM until release is called.
// The first signal sets the flag (the run stops after its current step and
// writes its outputs); a second one exits at once with its code.
func catchSignals(stderr io.Writer, what string) (*stopFlag, func()) {
	s := &stopFlag{ch: make(chan os.Signal, 2), done: make(chan struct{})}
	signal.Notify(s.ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for {
			select {
			case <-s.done:
				return
			case sig := <-s.ch:
				if s.sig.Load() != nil {
					fmt.Fprintf(stderr, "\ngrainlab: %v again: quitting at once (outputs may be incomplete)\n", sig)
					os.Exit((&Interrupted{sig}).Code())
				}
				s.sig.Store(sig)
				fmt.Fprintf(stderr, "\ngrainlab: %v: %s after the current step (again to quit at once)\n", sig, what)
			}
		}
	}()
	return s, func() {
		signal.Stop(s.ch)
		close(s.done)
	}
}

// stopped returns the signal received, or nil. A nil flag never stops.
func (s *stopFlag) stopped() os.Signal {
	if s == nil {
		return nil
	}
	if v := s.sig.Load(); v != nil {
		return v.(os.Signal)
	}
	return nil
}
