package sphere

import "testing"

// The per-pair arrays of the Hookean path made anew by Resize have a room
// of 1/PairRoom (Session 27: a quarter held ≈ 14 MB at 3 M pairs), and
// keep their storage while it holds the pairs. It fails with resize's
// quarter.
func TestListResizeRoom(t *testing.T) {
	const n = 300000
	var l List
	l.Resize(n, false, false, false)
	want := n + n/16 // PairRoom
	if cap(l.P) != want || cap(l.Fn) != want || cap(l.Touch) != want || cap(l.PrevTouch) != want {
		t.Fatalf("room: P %d, Fn %d, Touch %d, PrevTouch %d, want %d", cap(l.P), cap(l.Fn), cap(l.Touch), cap(l.PrevTouch), want)
	}
	p0 := &l.P[0]
	l.Resize(want, false, false, false)
	if &l.P[0] != p0 || len(l.P) != want {
		t.Fatal("a list within its room got a new array")
	}
	l.Resize(want+1, false, false, false)
	if cap(l.P) != want+1+(want+1)/PairRoom {
		t.Fatalf("grown: room %d, want %d", cap(l.P), want+1+(want+1)/PairRoom)
	}
}
