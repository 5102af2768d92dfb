// Package snap defines the immutable picture of the simulation that the
// simulation goroutine publishes and the renderer, the panel and the headless
// outputs read. A Snapshot is never modified after it is published: readers
// may keep it as long as they like without locks.
package snap

import (
	"time"

	"grainlab/sim/geom"
)

// ContactKind is the sub-region pair of a pointwise contact (S0 §2.4.2).
type ContactKind uint8

const (
	VF ContactKind = iota // vertex–face
	EE                    // edge–edge
	VE                    // vertex–edge
	VV                    // vertex–vertex
	SQ                    // smooth surface pair (superquadric, sphere)
	NumContactKinds
)

var kindNames = [...]string{"VF", "EE", "VE", "VV", "SQ"}

func (k ContactKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Mesh is render geometry shared by every body of one shape, in the body frame.
type Mesh struct {
	Name  string
	Verts []geom.Vec3
	Tris  [][3]int32 // of a polyhedron: triangle i is face i (the f3 of a contact label)
	// Edges of a polyhedron by index (the e12 of a contact label): the two
	// vertices of each; nil for smooth shapes and for recordings written
	// before sim/record stored them.
	Edges [][2]int32
}

// Body is one body's pose and the per-body scalars the view can colour by.
type Body struct {
	Mesh         int // index into Snapshot.Meshes
	Pos          geom.Vec3
	Rot          geom.Quat
	Vel, AngVel  geom.Vec3
	ContactForce float64 // sum of |contact force| on the body (N)
	Radius       float64 // bounding sphere radius (m)
	Fixed        bool
	Name         string
	Material     int // index into the world's material table (a dump's atom type − 1)
	// Group is the generator that made the body ("" for a listed body or a
	// wall): Name is then Group followed by the body's index in it.
	Group string
}

// Contact is one pointwise interaction, active or suppressed.
type Contact struct {
	A, B         int // body indices (walls are bodies too, see Wall.Body)
	FeatA, FeatB int32
	Kind         ContactKind
	// Swap (VF, VE) tells which body holds the vertex: false the vertex is
	// FeatA of A and FeatB a face or edge of B; true FeatA is the face or
	// edge of A and FeatB the vertex of B (S0 §2.4.2).
	Swap         bool
	Point        geom.Vec3 // midpoint of the gap vector
	Normal       geom.Vec3 // unit, from B towards A
	Gap          float64
	Fn           float64   // normal force (elastic + damping) along the normal; < 0 only when a smooth law without limit_damping pulls
	Ft           geom.Vec3 // friction force on A
	Sliding      bool
	Suppressed   bool
	SuppressedBy string // hierarchy rule name when Suppressed
}

// Wall is a named boundary surface.
type Wall struct {
	Name    string
	Body    int // index of its (fixed) body in Bodies
	Enabled bool
	Mesh    int
	Force   geom.Vec3 // total contact force the bodies exert on the wall
}

// Stats are the scalars of the current step.
type Stats struct {
	Step                                        int64
	Time, Dt                                    float64
	Kinetic, PotentialGravity, PotentialContact float64
	Contacts                                    int
	ByKind                                      [NumContactKinds]int
	Suppressed                                  int
	NightOwls, Rejected                         int64
	StepsPerSecond                              float64
	Integrator                                  string
	NewtonIters, LinearIters                    int     // of the last step (implicit integrators, CD)
	Residual                                    float64 // of the last step's solve
	SQFailures                                  int64   // superquadric contact solves that missed their tolerance
	// Stages is the wall time of each stage of the step (world.Profile,
	// cumulative since the world was built), named by StageNames. A
	// measurement of the process, not state.
	Stages [NumStages]time.Duration
}

// The step stages of Stats.Stages (world.Profile's fields in this order).
const (
	StagePlace = iota
	StageBroad
	StageCache
	StageNarrow
	StageLaws
	StageAccumulate
	StageStepBound
	StageIntegrate
	NumStages
)

// StageNames are the short names of the stages, indexed by Stage*.
var StageNames = [NumStages]string{"place", "broad", "cache", "narrow", "laws", "accumulate", "step bound", "integrate"}

// Snapshot is everything the view needs of one instant.
type Snapshot struct {
	Scene    string
	Meshes   []Mesh
	Bodies   []Body
	Walls    []Wall
	Contacts []Contact
	Stats    Stats
	SkinGap  float64 // ḡ of the default contact law (for the skin overlay)
}
