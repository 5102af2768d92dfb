package world

// RecordSlots returns the length and capacity of w's array of records
// (World.bodies: the blocks' spheres have no slot there).
func (w *World) RecordSlots() (n, room int) { return len(w.bodies), cap(w.bodies) }
