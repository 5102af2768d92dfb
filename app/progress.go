package app

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress draws a one-line progress bar on a terminal stream: simulated
// time, wall time, steps per second and the estimated time to completion.
type Progress struct {
	out       io.Writer
	start     time.Time
	last      time.Time
	t0, end   float64
	steps     int64
	lastSteps int64
	rate      float64
	Every     time.Duration
}

// NewProgress starts a bar for simulated time from t0 to end.
func NewProgress(out io.Writer, t0, end float64) *Progress {
	now := time.Now()
	return &Progress{out: out, start: now, last: now, t0: t0, end: end, Every: 200 * time.Millisecond}
}

// Update redraws the bar when Every has elapsed since the last draw.
func (p *Progress) Update(t float64, steps int64) {
	p.steps = steps
	now := time.Now()
	if now.Sub(p.last) < p.Every {
		return
	}
	dt := now.Sub(p.last).Seconds()
	p.rate = float64(steps-p.lastSteps) / dt
	p.last, p.lastSteps = now, steps
	p.draw(t, now, false)
}

// Done draws the final state and ends the line.
func (p *Progress) Done(t float64) {
	now := time.Now()
	if wall := now.Sub(p.start).Seconds(); wall > 0 {
		p.rate = float64(p.steps) / wall
	}
	p.draw(t, now, true)
}

func (p *Progress) draw(t float64, now time.Time, final bool) {
	frac := 1.0
	if p.end > p.t0 {
		frac = (t - p.t0) / (p.end - p.t0)
	}
	frac = min(max(frac, 0), 1)
	const width = 30
	n := int(frac * width)
	bar := strings.Repeat("█", n) + strings.Repeat("·", width-n)
	wall := now.Sub(p.start).Seconds()
	eta := "--"
	if frac > 0 && frac < 1 {
		eta = fmtDur(wall / frac * (1 - frac))
	} else if frac >= 1 {
		eta = "0s"
	}
	end := "\r"
	if final {
		end = "\n"
	}
	fmt.Fprintf(p.out, "\r%s %5.1f%%  t=%.4g/%.4g s  wall %s  %.0f steps/s  ETA %s   %s",
		bar, 100*frac, t, p.end, fmtDur(wall), p.rate, eta, end)
}

func fmtDur(s float64) string {
	switch {
	case s < 60:
		return fmt.Sprintf("%.1fs", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", int(s)/60, int(s)%60)
	}
	return fmt.Sprintf("%dh%02dm", int(s)/3600, (int(s)%3600)/60)
}
