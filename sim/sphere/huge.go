package sphere

import "unsafe"

// hugeMin is the size in bytes from which makeHuge asks the kernel for
// huge pages (adviseHuge): an array of at least two 2 MiB pages, so that
// its 2 MiB-aligned interior holds at least one whole huge page.
const hugeMin = 4 << 20

// hugePage is the huge page size adviseHuge aligns to (x86-64's and
// arm64's 2 MiB transparent huge pages).
const hugePage = 2 << 20

// makeHuge returns make([]T, n), its storage advised for transparent huge
// pages when it spans at least hugeMin bytes (adviseHuge). The per-sphere
// state arrays of a large system are streamed whole by every Drift and
// Accept: on 4 KiB pages a pass over 10⁶ spheres' 72-byte states misses
// the TLB once every 57 spheres and its pages lie wherever the kernel
// placed them when first touched (docs/performance.md, "Session 26: the
// 10⁶ step loop"). The contents and the bits computed from them are
// make's: the advice changes only how the memory is mapped.
func makeHuge[T any](n int) []T {
	s := make([]T, n)
	if n > 0 {
		var z T
		if b := uintptr(n) * unsafe.Sizeof(z); b >= hugeMin {
			adviseHuge(unsafe.Pointer(&s[0]), b)
		}
	}
	return s
}

// hugeSpan returns the offset from p and the length in bytes of the
// 2 MiB-aligned interior of the n bytes at p (length 0 when it holds no
// whole huge page): the part adviseHuge advises, so that the advice never
// reaches memory outside the array.
func hugeSpan(p uintptr, n uintptr) (off, length uintptr) {
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + n) &^ (hugePage - 1)
	if hi <= lo {
		return 0, 0
	}
	return lo - p, hi - lo
}
