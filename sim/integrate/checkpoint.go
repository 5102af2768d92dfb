package integrate

import (
	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// checkpoint holds what a rejected step must roll back: every body's
// kinematic state and force accumulators, and the walls' forces.
type checkpoint struct {
	states []body.State
	forces []geom.Vec3 // F then T per body
	walls  []geom.Vec3
}

// save records the current state of w.
func (c *checkpoint) save(w *world.World) {
	c.begin(w)
	for i := range w.Bodies() {
		c.saveBody(w, i)
	}
}

// begin sizes the checkpoint to w's bodies and records the walls' forces;
// saveBody must then run on every body (save, or a pass of the caller's
// over the bodies, explicit's).
func (c *checkpoint) begin(w *world.World) {
	n := len(w.Bodies())
	if cap(c.states) < n {
		c.states = make([]body.State, n)
		c.forces = make([]geom.Vec3, 2*n)
	}
	c.states, c.forces = c.states[:n], c.forces[:2*n]
	c.walls = w.WallForces(c.walls[:0])
}

// saveBody records body i's state and force accumulators (after begin).
func (c *checkpoint) saveBody(w *world.World, i int) {
	b := w.Bodies()[i]
	c.states[i] = b.Save()
	c.forces[2*i], c.forces[2*i+1] = b.F, b.T
}

// restore puts w back to the last save.
func (c *checkpoint) restore(w *world.World) {
	for i, b := range w.Bodies() {
		b.Restore(c.states[i])
		b.F, b.T = c.forces[2*i], c.forces[2*i+1]
	}
	w.SetWallForces(c.walls)
}
