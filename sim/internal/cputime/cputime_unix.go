//go:build unix && !linux

package cputime

import (
	"syscall"
	"time"
)

// Thread returns the process's CPU time: these systems give no per-thread
// figure through getrusage (a benchmark on one worker reads the same).
func Thread() time.Duration { return Process() }

// Process returns the process's CPU time (getrusage RUSAGE_SELF), or 0 if
// the call fails.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
