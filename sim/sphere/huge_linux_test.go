//go:build linux

package sphere

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestMakeHugeAdvised checks on Linux that a makeHuge array of at least
// hugeMin bytes lies in a mapping advised for huge pages (the "hg" flag of
// /proc/self/smaps; it fails with adviseHuge doing nothing). Skipped where the kernel has no transparent
// huge pages.
func TestMakeHugeAdvised(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages:", err)
	}
	big := makeHuge[Lin](3 * hugeMin / int(unsafe.Sizeof(Lin{})))
	off, length := hugeSpan(uintptr(unsafe.Pointer(&big[0])), uintptr(len(big))*unsafe.Sizeof(Lin{}))
	if length == 0 {
		t.Fatal("no whole huge page inside 3·hugeMin bytes")
	}
	mid := uintptr(unsafe.Pointer(&big[0])) + off + length/2
	hg, err := smapsHuge(mid)
	if err != nil {
		t.Skip("smaps:", err)
	}
	if !hg {
		t.Errorf("makeHuge's array of %d MiB: its mapping is not advised for huge pages", len(big)*int(unsafe.Sizeof(Lin{}))>>20)
	}
}

// smapsHuge reports whether the mapping of /proc/self/smaps holding the
// address a carries the "hg" (MADV_HUGEPAGE) flag.
func smapsHuge(a uintptr) (bool, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return false, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && strings.Contains(line, " ") && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			for _, fl := range strings.Fields(line)[1:] {
				if fl == "hg" {
					return true, nil
				}
			}
			return false, nil
		}
	}
	if err := sc.Err(); err != nil {
		return false, err
	}
	return false, fmt.Errorf("address %#x in no mapping", a)
}
