package world

import (
	"fmt"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
)

// Probe is an output channel declared by a scene: a vector quantity of a body
// or a wall, written as three columns of series.csv.
type Probe struct {
	Name     string
	Body     int // body index, or −1
	Wall     int // wall index, or −1
	Quantity string
}

// ProbeQuantities lists the quantities a probe can record.
var ProbeQuantities = []string{"position", "velocity", "angular_velocity", "force", "contact_force"}

// Value returns the probe's current vector.
func (w *World) ProbeValue(p *Probe) (geom.Vec3, error) {
	if p.Wall >= 0 {
		switch p.Quantity {
		case "force", "contact_force":
			return w.Walls[p.Wall].Force, nil
		}
		return geom.Vec3{}, fmt.Errorf("probe %s: a wall has only force", p.Name)
	}
	b := w.Bodies()[p.Body]
	switch p.Quantity {
	case "position":
		return b.X, nil
	case "velocity":
		return b.V, nil
	case "angular_velocity":
		return b.W, nil
	case "force":
		return b.F, nil
	case "contact_force":
		var f geom.Vec3
		w.EachContact(func(a, bb int, c *contact.Contact) {
			if !c.Active() {
				return
			}
			fc := c.N.Scale(c.Fn).Add(c.Ft)
			if a == p.Body {
				f = f.Add(fc)
			} else if bb == p.Body {
				f = f.Sub(fc)
			}
		})
		return f, nil
	}
	return geom.Vec3{}, fmt.Errorf("probe %s: unknown quantity %q", p.Name, p.Quantity)
}
