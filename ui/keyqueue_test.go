package ui

import "testing"

// Two quick Enter presses between two frames (press, release, press,
// release: four callbacks before the next frame) reach imgui as two
// presses in four frames; sampling the state once per frame saw none.
// Characters keep their order around the keys.
func TestKeyQueueKeepsTwoEnters(t *testing.T) {
	const enter, a = 257, 65
	var q KeyQueue
	q.Push(KeyEvent{Key: -1, Char: '1'})
	q.Push(KeyEvent{Key: enter, Down: true})
	q.Push(KeyEvent{Key: enter})
	q.Push(KeyEvent{Key: -1, Char: '2'})
	q.Push(KeyEvent{Key: enter, Down: true})
	q.Push(KeyEvent{Key: a, Down: true})
	q.Push(KeyEvent{Key: enter})
	q.Push(KeyEvent{Key: a})
	down := map[int]bool{}
	presses := map[int]int{}
	var typed string
	frames := 0
	for q.Len() > 0 && frames < 20 {
		frames++
		seen := map[int]bool{}
		for _, e := range q.Next() {
			if e.Key < 0 {
				typed += string(e.Char)
				continue
			}
			if seen[e.Key] {
				t.Fatalf("frame %d: key %d changes twice", frames, e.Key)
			}
			seen[e.Key] = true
			if e.Down && !down[e.Key] {
				presses[e.Key]++
			}
			down[e.Key] = e.Down
		}
	}
	if presses[enter] != 2 || presses[a] != 1 || down[enter] || down[a] {
		t.Errorf("presses %v, still down %v after %d frames; want 2 Enter and 1 A, none down", presses, down, frames)
	}
	if typed != "12" {
		t.Errorf("characters %q, want \"12\"", typed)
	}
	if frames != 4 {
		t.Errorf("%d frames to drain, want 4 (press, release, press, release of Enter)", frames)
	}
}
