package sphere

import (
	"testing"
	"unsafe"
)

// TestPairBytes pins the pair stream the kernels read every step at 8
// bytes a pair (the class is CI's, apart, and only with several classes).
func TestPairBytes(t *testing.T) {
	if n := unsafe.Sizeof(Pair{}); n != 8 {
		t.Fatalf("Pair is %d bytes, want 8", n)
	}
}

// TestClassOf checks the three ways a list gives a pair's class: one
// class for all, a table through CI (set by SetPair, cut by Truncate, and
// kept by TakeScratch for the merge), one class per pair.
func TestClassOf(t *testing.T) {
	a, b, c := NewPairClass(1, 1, 1, 1, 0), NewPairClass(1, 2, 1, 8, 0), NewPairClass(2, 2, 8, 8, 0)

	var l List
	l.Resize(3, false, false, false)
	l.ResizeCI(3, false)
	l.Class = []PairClass{a}
	for k := range 3 {
		l.SetPair(k, int32(k), int32(k+1), 0)
	}
	if l.CI != nil || l.ClassOf(2) != &l.Class[0] {
		t.Fatalf("one class: CI %v, pair 2's class not Class[0]", l.CI)
	}

	l.ResizeCI(3, true)
	l.Class = []PairClass{a, b, b, c}
	for k, ci := range []int32{3, 0, 1} {
		l.SetPair(k, int32(k), int32(k+1), ci)
	}
	if l.P[0] != (Pair{I: 0, J: 1}) || l.ClassOf(0) != &l.Class[3] || l.ClassOf(1) != &l.Class[0] || l.ClassOf(2) != &l.Class[1] {
		t.Fatalf("table: CI %v", l.CI)
	}
	l.Truncate(2, false)
	if len(l.CI) != 2 {
		t.Fatalf("Truncate: %d classes for 2 pairs", len(l.CI))
	}
	var nl List
	nl.TakeScratch(&l)
	if len(l.CI) != 2 {
		t.Fatalf("TakeScratch took the old list's classes (the merge reads them)")
	}

	l.ResizeCI(3, false)
	l.Class = []PairClass{c, a, b}
	if l.CI != nil || l.ClassOf(0) != &l.Class[0] || l.ClassOf(2) != &l.Class[2] {
		t.Fatalf("one class per pair: pair k's is not Class[k]")
	}
}
