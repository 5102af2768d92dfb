//go:build linux

package sphere

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks Linux to back the whole 2 MiB pages inside the n bytes
// at p with transparent huge pages (madvise MADV_HUGEPAGE: the mode
// "madvise" of /sys/kernel/mm/transparent_hugepage/enabled serves only
// advised memory, and the Go runtime advises none). Pages not yet touched
// then fault in 2 MiB at a time, physically contiguous, one TLB entry
// each. It is advice: an error (a kernel without transparent huge pages)
// is ignored, and nothing is read or written.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	off, length := hugeSpan(uintptr(p), n)
	if length == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, off)), length)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
