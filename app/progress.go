package app

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Progress draws a one-line progress bar on a terminal stream: simulated
// time, the current time step, wall time, steps per second and the
// estimated time to completion. It draws from its own goroutine every Every
// of wall time (the first line within Every of the start), so a slow run
// (a tiny step, a step of many seconds) still shows that it is alive; the
// stepping side only stores the numbers (Update, Set).
type Progress struct {
	out     io.Writer
	start   time.Time
	t0, end float64
	// Every is the wall time between redraws (set before the first Update).
	Every time.Duration

	t, dt     atomic.Uint64 // float64 bits
	steps     atomic.Int64
	lastSteps int64
	last      time.Time
	rate      float64

	once sync.Once
	quit chan struct{}
	done chan struct{}
}

// NewProgress starts a bar for simulated time from t0 to end.
func NewProgress(out io.Writer, t0, end float64) *Progress {
	now := time.Now()
	p := &Progress{out: out, start: now, last: now, t0: t0, end: end, Every: 200 * time.Millisecond,
		quit: make(chan struct{}), done: make(chan struct{})}
	p.t.Store(math.Float64bits(t0))
	return p
}

// Update records the simulated time and step count reached (the bar draws
// them on its next tick).
func (p *Progress) Update(t float64, steps int64) { p.Set(t, steps, math.NaN()) }

// Set records the time, step count and the current time step dt (NaN:
// unknown).
func (p *Progress) Set(t float64, steps int64, dt float64) {
	p.once.Do(p.startTicker)
	p.t.Store(math.Float64bits(t))
	p.steps.Store(steps)
	p.dt.Store(math.Float64bits(dt))
}

// Begin starts the periodic redraw before the first step (Set does it too).
func (p *Progress) Begin() { p.once.Do(p.startTicker) }

func (p *Progress) startTicker() {
	go func() {
		defer close(p.done)
		tick := time.NewTicker(p.Every)
		defer tick.Stop()
		for {
			select {
			case <-p.quit:
				return
			case now := <-tick.C:
				steps := p.steps.Load()
				if dt := now.Sub(p.last).Seconds(); dt > 0 {
					p.rate = float64(steps-p.lastSteps) / dt
				}
				p.last, p.lastSteps = now, steps
				p.draw(now, false)
			}
		}
	}()
}

// Done stops the redraws, draws the final state at time t and ends the line.
func (p *Progress) Done(t float64) {
	started := true
	p.once.Do(func() { started = false })
	if started {
		close(p.quit)
		<-p.done
	}
	p.t.Store(math.Float64bits(t))
	now := time.Now()
	if wall := now.Sub(p.start).Seconds(); wall > 0 {
		p.rate = float64(p.steps.Load()) / wall
	}
	p.draw(now, true)
}

func (p *Progress) draw(now time.Time, final bool) {
	t := math.Float64frombits(p.t.Load())
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
	step := ""
	if dt := math.Float64frombits(p.dt.Load()); dt > 0 {
		step = fmt.Sprintf("  Δt=%.3g s", dt)
	}
	fmt.Fprintf(p.out, "\r%s %5.1f%%  t=%.4g/%.4g s%s  wall %s  %.0f steps/s  ETA %s   %s",
		bar, 100*frac, t, p.end, step, fmtDur(wall), p.rate, eta, end)
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
