package sphere

import (
	"testing"
	"unsafe"
)

// TestHugeSpan checks the 2 MiB-aligned interior that adviseHuge advises:
// never outside the array, empty when it holds no whole huge page.
func TestHugeSpan(t *testing.T) {
	const M = hugePage
	for _, c := range []struct {
		p, n, off, length uintptr
	}{
		{0, 2 * M, 0, 2 * M},                // aligned: both pages
		{8192, 4 * M, M - 8192, 3 * M},      // 8 KiB in: the pages from 2 MiB to 8 MiB (the first starts before p)
		{8192, 4*M - 8192, M - 8192, 3 * M}, // ends at 8 MiB exactly
		{M - 1, M + 1, 1, M},                // exactly the page 2…4 MiB
		{M - 1, M, 0, 0},                    // one byte short of it
		{4096, M, 0, 0},                     // 4 KiB…2 MiB + 4 KiB: no whole page
		{4096, 3 * M, M - 4096, 2 * M},      // 4 KiB…6 MiB + 4 KiB: the pages 2…6 MiB
		{M, 0, 0, 0},                        // empty
	} {
		off, length := hugeSpan(c.p, c.n)
		if off != c.off || length != c.length {
			t.Errorf("hugeSpan(%#x, %#x) = %#x, %#x; want %#x, %#x", c.p, c.n, off, length, c.off, c.length)
		}
		if lo, hi := c.p+off, c.p+off+length; length != 0 && (lo%M != 0 || hi%M != 0 || hi > c.p+c.n) {
			t.Errorf("hugeSpan(%#x, %#x) = [%#x, %#x): not whole pages inside the array", c.p, c.n, lo, hi)
		}
	}
}

// TestMakeHuge checks that makeHuge returns what make returns: the length,
// the capacity and every element zero, below and above hugeMin.
func TestMakeHuge(t *testing.T) {
	for _, n := range []int{0, 1, 1000, hugeMin/int(unsafe.Sizeof(Lin{})) + 1, 3 * hugeMin / 24} {
		l := makeHuge[Lin](n)
		if len(l) != n || cap(l) != n {
			t.Fatalf("makeHuge[Lin](%d): len %d cap %d", n, len(l), cap(l))
		}
		for i := range l {
			if l[i] != (Lin{}) {
				t.Fatalf("makeHuge[Lin](%d)[%d] = %v, not zero", n, i, l[i])
			}
		}
	}
}
