//go:build !linux

package sphere

import "unsafe"

// adviseHuge does nothing outside Linux (huge_linux.go advises
// transparent huge pages there).
func adviseHuge(p unsafe.Pointer, n uintptr) {}
