//go:build !unix

package cputime

import "time"

// Thread returns 0: no getrusage on this system.
func Thread() time.Duration { return 0 }

// Process returns 0: no getrusage on this system.
func Process() time.Duration { return 0 }
