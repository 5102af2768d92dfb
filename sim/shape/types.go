// Package shape turns triangle meshes into contact-ready polyhedra: vertices,
// unique edges with their two faces and a convex/concave/flat flag, faces with
// outward normals, and mass properties (S0 §2.4.3 sub-regions).
package shape

import "grainlab/sim/geom"

// EdgeKind classifies an edge by the dihedral angle between its two faces.
type EdgeKind uint8

const (
	// Convex edges bend away from the material (dihedral angle < 180° inside).
	Convex EdgeKind = iota
	// Concave edges bend into the material (re-entrant, as at tetrapod leg roots, S0 Fig. 9).
	Concave
	// Flat edges join coplanar faces (a box face split in two triangles); they carry no contact.
	Flat
	// Boundary edges have one face only; they exist on open wall surfaces, never on bodies.
	Boundary
)

// String returns the kind's lower-case name.
func (k EdgeKind) String() string {
	switch k {
	case Convex:
		return "convex"
	case Concave:
		return "concave"
	case Flat:
		return "flat"
	case Boundary:
		return "boundary"
	}
	return "?"
}

// Edge is an undirected mesh edge. V[0] < V[1]. F[1] is −1 on a Boundary edge.
// Faces F[0] and F[1] are ordered so that F[0] traverses V[0]→V[1] (on a
// Boundary edge F[0] is the only face, whichever way it runs).
type Edge struct {
	V    [2]int32
	F    [2]int32
	Kind EdgeKind
	// Dihedral is the interior angle between the faces in radians: < π for
	// Convex, π for Flat, > π for Concave, 0 for Boundary.
	Dihedral float64
}

// Face is a triangle with counter-clockwise vertices seen from outside.
type Face struct {
	V    [3]int32
	E    [3]int32 // E[k] joins V[k] and V[(k+1)%3]
	N    geom.Vec3
	Area float64
}

// Polyhedron is a closed, consistently oriented, 2-manifold triangle mesh in
// its body frame: the origin is the centroid of the solid (for a closed mesh)
// and axes are those of the input mesh. Open surfaces (walls) use the same type
// with Closed == false and Boundary edges allowed.
type Polyhedron struct {
	Name   string
	Verts  []geom.Vec3
	Faces  []Face
	Edges  []Edge
	Closed bool

	// VertEdges[v] and VertFaces[v] list the edges and faces that touch vertex v,
	// counter-clockwise about the outward normal. VertEdges[v][i] is the edge
	// by which VertFaces[v][i] leaves v; an open fan (surface boundary) starts
	// at a boundary edge and has one more edge than faces.
	VertEdges [][]int32
	VertFaces [][]int32

	// Volume of the solid (0 for open surfaces).
	Volume float64
	// Offset is the centroid in the input mesh's coordinates; Verts = input − Offset.
	Offset geom.Vec3
	// InertiaUnit is the inertia tensor about the centroid for density 1, body frame.
	InertiaUnit geom.Mat3
	// Radius is max |v| over vertices: the bounding sphere about the origin.
	Radius float64
	// MinEdge is the shortest edge length (a natural length scale for tolerances).
	MinEdge float64
	// AABBMin and AABBMax bound the vertices in the body frame.
	AABBMin, AABBMax geom.Vec3
}
