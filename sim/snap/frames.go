package snap

// Frames is a run seen as a sequence of frames in time order, whatever holds
// them: a recording (sim/record), a LAMMPS/LIGGGHTS dump (sim/dump), or the
// window's in-memory history. The view, `grainlab shot FILE` and
// `grainlab export` read runs only through it.
type Frames interface {
	// Len is the number of frames readable now (a recording still being
	// written may grow; a truncated file stops at its last complete frame).
	Len() int
	// Time is the simulated time of frame i, 0 ≤ i < Len(), without
	// decoding the frame.
	Time(i int) float64
	// Frame decodes frame i. The Snapshot is not modified afterwards; its
	// Meshes may be shared with other frames of the same source.
	Frame(i int) (*Snapshot, error)
	// Close releases the source's file, if any.
	Close() error
}
