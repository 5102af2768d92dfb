package cputime

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD (not in package syscall).
const rusageThread = 1

// Thread returns the calling thread's CPU time (getrusage RUSAGE_THREAD),
// or 0 if the call fails.
func Thread() time.Duration { return usage(rusageThread) }

// Process returns the process's CPU time (getrusage RUSAGE_SELF), or 0 if
// the call fails.
func Process() time.Duration { return usage(syscall.RUSAGE_SELF) }

func usage(who int) time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
