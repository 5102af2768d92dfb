package world

import "grainlab/sim/geom"

// SetRekeyOff makes every change of the sphere path's key take the generic
// round trip (export, build, importGeneric) instead of rekey.
func SetRekeyOff(off bool) { rekeyOff = off }

// SphereRekeys returns how many key changes the sphere path made in place.
func (w *World) SphereRekeys() int64 {
	if w.sph == nil {
		return 0
	}
	return w.sph.rekeys
}

// SetRekeyPendOff makes a key change before the Accept that follows an
// in-place one take the round trip (rekeyPending off).
func SetRekeyPendOff(off bool) { rekeyPendOff = off }

// SetBlockTemplateQ turns every sphere block's template (its spheres'
// orientation while no rotational array holds theirs) to q.
func (w *World) SetBlockTemplateQ(q geom.Quat) {
	for _, bl := range w.blocks {
		bl.rec.Q = q
	}
}
