//go:build linux

package sphere

import (
	"math/rand"
	"slices"
	"syscall"
	"testing"
	"unsafe"

	"grainlab/sim/geom"
)

// TestR3WithinNoReadPastP: within's loads of P (the turns' indices, the
// prefetch's look-ahead indices, the one-pair tail) stay inside P: each
// list ends exactly at a page mapped PROT_NONE, so a load of one byte past
// P faults. Lists of 0 to 80 pairs and 20 000, from several k, on 20
// centres and on 300 000 (past PFMIN: the prefetch runs).
func TestR3WithinNoReadPastP(t *testing.T) {
	ps := syscall.Getpagesize()
	const pages = 64 // room for 20 000 pairs before the guard
	mem, err := syscall.Mmap(-1, 0, (pages+1)*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[pages*ps:], syscall.PROT_NONE); err != nil {
		t.Skip(err)
	}
	r := rand.New(rand.NewSource(3))
	for _, nx := range []int{20, 300000} {
		X := make([]geom.Vec3, nx)
		for i := range X {
			X[i] = geom.Vec3{X: 3 * float64(i), Y: withinCoord(r, 0), Z: withinCoord(r, 0)}
		}
		for n := 0; n <= 81; n++ {
			if n == 81 {
				n = 20000
			}
			P := unsafe.Slice((*Pair)(unsafe.Pointer(&mem[pages*ps-8*n])), n)
			for i := range P {
				a := int32(r.Intn(nx - 2))
				P[i] = Pair{a, a + 1 + int32(r.Intn(2))}
			}
			for _, cut2 := range []float64{1, 9, 10} {
				for _, k := range []int{0, n / 3, max(n-9, 0), max(n-5, 0), n} {
					hg, mg := withinScan(false, P, X, k, cut2)
					ha, ma := withinScan(true, P, X, k, cut2)
					if mg != ma || !slices.Equal(hg, ha) {
						t.Fatalf("nx %d n %d k %d: within %v %q, Go %v %q", nx, n, k, ha, ma, hg, mg)
					}
				}
			}
		}
	}
}
