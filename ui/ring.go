package ui

import "math"

// Ring is a fixed-capacity ring buffer of float32 samples for PlotLines.
type Ring struct {
	buf  []float32
	head int // index of the oldest sample once full
	n    int
}

// NewRing returns an empty ring holding up to capacity samples.
func NewRing(capacity int) *Ring {
	if capacity < 1 {
		capacity = 1
	}
	return &Ring{buf: make([]float32, capacity)}
}

// Cap returns the capacity.
func (r *Ring) Cap() int { return len(r.buf) }

// Len returns the number of samples held.
func (r *Ring) Len() int { return r.n }

// Reset drops every sample.
func (r *Ring) Reset() { r.head, r.n = 0, 0 }

// Push appends v, dropping the oldest sample when full.
func (r *Ring) Push(v float32) {
	if r.n < len(r.buf) {
		r.buf[r.n] = v
		r.n++
		return
	}
	r.buf[r.head] = v
	r.head = (r.head + 1) % len(r.buf)
}

// Last returns the newest sample (0 when empty).
func (r *Ring) Last() float32 {
	if r.n == 0 {
		return 0
	}
	if r.n < len(r.buf) {
		return r.buf[r.n-1]
	}
	return r.buf[(r.head+len(r.buf)-1)%len(r.buf)]
}

// Raw returns the backing samples and the offset of the oldest one, the form
// imgui.PlotLinesV takes (values, valuesOffset) without copying.
func (r *Ring) Raw() ([]float32, int) {
	if r.n < len(r.buf) {
		return r.buf[:r.n], 0
	}
	return r.buf, r.head
}

// Values appends the samples oldest first to dst[:0] and returns it.
func (r *Ring) Values(dst []float32) []float32 {
	dst = dst[:0]
	raw, off := r.Raw()
	dst = append(dst, raw[off:]...)
	return append(dst, raw[:off]...)
}

// MinMax returns the range of the finite samples (0, 0 when there are none).
func (r *Ring) MinMax() (lo, hi float32) {
	raw, _ := r.Raw()
	first := true
	for _, v := range raw {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			continue
		}
		if first {
			lo, hi, first = v, v, false
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}
