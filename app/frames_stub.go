package app

// STUB for the timeline branch only: app.OpenFrames lives in app/frames.go
// (the interop branch: recordings and LAMMPS/LIGGGHTS dumps by content).
// Delete this file when merging that one.

import (
	"fmt"

	"grainlab/sim/snap"
)

// OpenFrames opens a recorded run (stub: refuses every file).
func OpenFrames(path string) (snap.Frames, error) {
	return nil, fmt.Errorf("%s: this build cannot read recordings or dumps (app/frames.go is missing)", path)
}
