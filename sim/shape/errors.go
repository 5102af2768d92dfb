package shape

import (
	"errors"
	"fmt"
	"strings"
)

// Error kinds carried by MeshError; test them with errors.Is.
var (
	// ErrOpen marks an edge used by a single face of a closed solid.
	ErrOpen = errors.New("open mesh")
	// ErrNonManifold marks an edge used by three or more faces, or a vertex whose faces form several fans.
	ErrNonManifold = errors.New("non-manifold mesh")
	// ErrOrientation marks an edge that both of its faces traverse the same way.
	ErrOrientation = errors.New("inconsistent orientation")
	// ErrDegenerate marks a zero-area face, a face repeating a vertex, or too few faces.
	ErrDegenerate = errors.New("degenerate face")
	// ErrZeroVolume marks a closed mesh that encloses no volume.
	ErrZeroVolume = errors.New("zero volume")
	// ErrInverted marks a consistently oriented closed mesh whose faces point inward.
	ErrInverted = errors.New("faces point inward")
	// ErrIndex marks a triangle whose vertex index is out of range.
	ErrIndex = errors.New("vertex index out of range")
	// ErrNonFinite marks a vertex with a NaN or infinite coordinate.
	ErrNonFinite = errors.New("non-finite coordinate")
	// ErrScale marks a mesh too large or too small for finite mass properties.
	ErrScale = errors.New("size out of range")
	// ErrSelfIntersect marks a closed mesh two of whose triangles intersect.
	ErrSelfIntersect = errors.New("self-intersecting mesh")
)

// MeshError is a validation failure of a mesh, located at a face, an edge or a
// vertex. Indices are those of the caller's input arrays.
type MeshError struct {
	Mesh   string   // mesh name (usually the file name)
	Kind   error    // one of the Err* kinds above
	Face   int      // offending face, −1 if n/a
	FaceV  [3]int32 // the offending face's vertex indices (valid when Face ≥ 0)
	Vertex int      // offending vertex, −1 if n/a
	V      [2]int32 // offending edge's vertices (V[0] < V[1]), {−1, −1} if n/a
	Reason string   // human-readable detail, e.g. "open (used by 1 face: 17)"
}

// Error renders e.g. `mesh "rock.stl": edge 4–9: open (used by 1 face: 17)`.
func (e *MeshError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mesh %q: ", e.Mesh)
	switch {
	case e.V[0] >= 0:
		fmt.Fprintf(&b, "edge %d–%d: ", e.V[0], e.V[1])
	case e.Face >= 0:
		fmt.Fprintf(&b, "face %d (vertices %d,%d,%d): ", e.Face, e.FaceV[0], e.FaceV[1], e.FaceV[2])
	case e.Vertex >= 0:
		fmt.Fprintf(&b, "vertex %d: ", e.Vertex)
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns the error kind so that errors.Is(err, ErrOpen) works.
func (e *MeshError) Unwrap() error { return e.Kind }

func meshErr(mesh string, kind error, reason string, args ...any) *MeshError {
	return &MeshError{Mesh: mesh, Kind: kind, Face: -1, Vertex: -1, V: [2]int32{-1, -1}, Reason: fmt.Sprintf(reason, args...)}
}

func faceErr(mesh string, kind error, face int, tri [3]int32, reason string, args ...any) *MeshError {
	e := meshErr(mesh, kind, reason, args...)
	e.Face, e.FaceV = face, tri
	return e
}

func edgeErr(mesh string, kind error, v0, v1 int32, reason string, args ...any) *MeshError {
	e := meshErr(mesh, kind, reason, args...)
	e.V = [2]int32{v0, v1}
	return e
}

func vertErr(mesh string, kind error, v int, reason string, args ...any) *MeshError {
	e := meshErr(mesh, kind, reason, args...)
	e.Vertex = v
	return e
}

// faceList renders "2, 5, 8".
func faceList(fs []int32) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = fmt.Sprint(f)
	}
	return strings.Join(s, ", ")
}
