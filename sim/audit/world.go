package audit

import (
	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// WorldMeshes returns the polyhedral bodies of w that are not walls as
// solids and its enabled polyhedral walls as surfaces, in world space at
// their current poses (spheres and superquadrics are left out). Only the
// bodies' meshes and poses are read: the audit shares no code with contact
// detection.
func WorldMeshes(w *world.World) ([]Solid, []Surface) {
	var solids []Solid
	var walls []Surface
	for i := range w.NumBodies() {
		b := w.BodyRec(i) // a sphere block's template: left out, as every sphere
		if b.Kind != body.Polyhedral || b.Poly() == nil {
			continue
		}
		vs := make([]geom.Vec3, len(b.Poly().Verts))
		for i, v := range b.Poly().Verts {
			vs[i] = b.ToWorld(v)
		}
		if b.Wall >= 0 {
			if w.Walls[b.Wall].Enabled {
				walls = append(walls, Surface{Name: b.Name, Verts: vs, Tris: b.Poly().Tris()})
			}
			continue
		}
		solids = append(solids, Solid{Name: b.Name, Verts: vs, Tris: b.Poly().Tris()})
	}
	return solids, walls
}
