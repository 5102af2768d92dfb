package world

import "grainlab/sim/geom"

// SetRelFrameShift sets relFrameShift (nil: off).
func SetRelFrameShift(f func(c0, vc geom.Vec3, delta, dt float64) (geom.Vec3, geom.Vec3)) {
	relFrameShift = f
}
