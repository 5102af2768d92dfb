package world

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// Periodic makes the world periodic along x and/or y (S1 §3.1 settling test):
// a body leaving the box [Lo, Hi) on one side re-enters on the other, and
// bodies near opposite faces touch across the seam. Walls are not repeated.
type Periodic struct {
	X, Y   bool
	Lo, Hi geom.Vec3
}

// On reports whether any direction is periodic.
func (p *Periodic) On() bool { return p.X || p.Y }

// Validate checks the box against the largest body radius and contact reach:
// a pair may touch across at most one seam image.
func (p *Periodic) Validate(rmax, reach float64) error {
	if !p.On() {
		return nil
	}
	for _, d := range []struct {
		on     bool
		name   string
		lo, hi float64
	}{{p.X, "x", p.Lo.X, p.Hi.X}, {p.Y, "y", p.Lo.Y, p.Hi.Y}} {
		if !d.on {
			continue
		}
		if !(d.hi > d.lo) || math.IsInf(d.hi-d.lo, 0) {
			return fmt.Errorf("periodic.%s: need lo < hi (got %g, %g)", d.name, d.lo, d.hi)
		}
		if l := d.hi - d.lo; l < 2*(2*rmax+reach) {
			return fmt.Errorf("periodic.%s: the period %g m must exceed twice the largest interaction range %g m", d.name, l, 2*rmax+reach)
		}
	}
	return nil
}

// MinImage returns the periodic image of the displacement d that is
// shortest along the periodic directions (components in [−L/2, L/2], L the
// period); d itself when the world is not periodic. The displacement of a
// body over a step, or between two bodies, read across the seam.
func (p *Periodic) MinImage(d geom.Vec3) geom.Vec3 {
	if p.X {
		l := p.Hi.X - p.Lo.X
		d.X -= l * math.Round(d.X/l)
	}
	if p.Y {
		l := p.Hi.Y - p.Lo.Y
		d.Y -= l * math.Round(d.Y/l)
	}
	return d
}

// wrap moves x into the box along the periodic directions.
func (p *Periodic) wrap(x geom.Vec3) geom.Vec3 {
	if p.X {
		l := p.Hi.X - p.Lo.X
		x.X -= l * math.Floor((x.X-p.Lo.X)/l)
	}
	if p.Y {
		l := p.Hi.Y - p.Lo.Y
		x.Y -= l * math.Floor((x.Y-p.Lo.Y)/l)
	}
	return x
}

// seamShift returns the whole periods by which a body recorded at x0 and
// now at x was wrapped since (wrap, at placement): the shift s, along the
// periodic directions, with x0 + s the image of x0 nearest x; exactly the
// zero vector when it crossed no seam (pointLagAt).
func (p *Periodic) seamShift(x0, x geom.Vec3) (s geom.Vec3) {
	if p.X {
		l := p.Hi.X - p.Lo.X
		if k := math.Round((x.X - x0.X) / l); k >= 1 || k <= -1 { // (not NaN)
			s.X = k * l
		}
	}
	if p.Y {
		l := p.Hi.Y - p.Lo.Y
		if k := math.Round((x.Y - x0.Y) / l); k >= 1 || k <= -1 {
			s.Y = k * l
		}
	}
	return s
}

// ghost is a periodic image of a movable body: centre X + Shift.
type ghost struct {
	k     int32 // index into World.movable
	shift geom.Vec3
}

// images appends to out the shifts of the images of a body at x that lie
// within band of the box (so that they can touch a body inside it).
func (p *Periodic) images(x geom.Vec3, band float64, out []geom.Vec3) []geom.Vec3 {
	var sx, sy []float64
	sx = append(sx, 0)
	sy = append(sy, 0)
	if p.X {
		l := p.Hi.X - p.Lo.X
		if x.X < p.Lo.X+band {
			sx = append(sx, l)
		}
		if x.X > p.Hi.X-band {
			sx = append(sx, -l)
		}
	}
	if p.Y {
		l := p.Hi.Y - p.Lo.Y
		if x.Y < p.Lo.Y+band {
			sy = append(sy, l)
		}
		if x.Y > p.Hi.Y-band {
			sy = append(sy, -l)
		}
	}
	for _, a := range sx {
		for _, b := range sy {
			if a != 0 || b != 0 {
				out = append(out, geom.V(a, b, 0))
			}
		}
	}
	return out
}
