package world

// BlockCentresHeld returns how many of w's sphere blocks hold their
// centres in an array of their own and how many in the sphere path's acc
// (sphere_block_acc.go).
func (w *World) BlockCentresHeld() (inArrays, inAcc int) {
	for _, bl := range w.blocks {
		if bl.x != nil {
			inArrays++
		}
		if bl.xAcc {
			inAcc++
		}
	}
	return inArrays, inAcc
}
