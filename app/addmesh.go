package app

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"grainlab/sim/audit"
	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// MaxMeshBodies bounds the count of one "add bodies from mesh" request.
const MaxMeshBodies = 1000

// DefaultMeshDensity is the density (kg/m³) of bodies added from a mesh
// when the world has no free polyhedron to take it from.
const DefaultMeshDensity = 1000.0

// AddMeshBodies loads the closed STL mesh at path (shape.LoadSTL: the same
// validation and messages as a scene's `stl` shape) and adds count bodies of
// it to w between two steps, one above the other over the pile: centred in
// x, y on the free bodies' bounding box (the walls' when there are none),
// each bounding sphere one contact skin above the highest body's. A body
// whose mesh would cross an enabled wall (sim/audit) is refused. The
// density is the mean of the free polyhedra's (DefaultMeshDensity without
// any). It returns the new bodies' indices; on any error w is unchanged.
// The caller re-starts the integrator (the forces of the new state).
func AddMeshBodies(w *world.World, path string, count int) ([]int, error) {
	if count < 1 || count > MaxMeshBodies {
		return nil, fmt.Errorf("%s: count must be 1 to %d (got %d)", path, MaxMeshBodies, count)
	}
	if !strings.EqualFold(filepath.Ext(path), ".stl") {
		return nil, fmt.Errorf("%s: not an STL mesh (.stl)", path)
	}
	p, err := shape.LoadSTL(path, 0)
	if err != nil {
		return nil, err
	}
	if !(p.Volume > 0) || !(p.Radius > 0) || math.IsInf(p.Radius, 0) {
		return nil, fmt.Errorf("%s: the mesh encloses no volume", path)
	}
	density, lo, hi, top, free := DefaultMeshDensity, geom.Vec3{}, geom.Vec3{}, math.Inf(-1), 0
	var dsum float64
	var nd int
	for _, b := range w.Bodies() {
		if b.Fixed || b.Wall >= 0 {
			continue
		}
		if b.Kind == body.Polyhedral && b.Density() > 0 {
			dsum += b.Density()
			nd++
		}
		if free == 0 {
			lo, hi = b.X, b.X
		}
		lo, hi = vmin(lo, b.X), vmax(hi, b.X)
		top = math.Max(top, b.X.Z+b.R)
		free++
	}
	if nd > 0 {
		density = dsum / float64(nd)
	}
	if free == 0 {
		// No free bodies: the middle of the walls, above their lowest point.
		first := true
		for _, wl := range w.Walls {
			wb := w.Bodies()[wl.Body]
			if wb.Poly() == nil {
				continue
			}
			for _, v := range wb.Poly().Verts {
				x := wb.ToWorld(v)
				if first {
					lo, hi, first = x, x, false
				}
				lo, hi = vmin(lo, x), vmax(hi, x)
			}
		}
		top = lo.Z
		if first {
			top = 0
		}
	}
	skin := w.MaxGap()
	gap := 2*skin + 0.05*p.Radius
	centre := lo.Add(hi).Scale(0.5)
	base := filepath.Base(path)
	var bodies []*body.Body
	var solids []audit.Solid
	for k := 0; k < count; k++ {
		x := geom.Vec3{X: centre.X, Y: centre.Y, Z: top + gap + p.Radius}
		b := body.New(fmt.Sprintf("%s#%d", base, len(w.Bodies())+k), p, density, x, geom.QIdent())
		b.Material = 0
		top = x.Z + p.Radius
		for _, wl := range w.Walls {
			if wl.Enabled && wl.Planar && x.Sub(wl.P).Dot(wl.N) < p.Radius+skin {
				return nil, fmt.Errorf("%s: no room above the pile inside wall %s (bounding radius %.3g m)", path, wl.Name, p.Radius)
			}
		}
		vs := make([]geom.Vec3, len(p.Verts))
		for i, v := range p.Verts {
			vs[i] = b.ToWorld(v)
		}
		bodies = append(bodies, b)
		solids = append(solids, audit.Solid{Name: b.Name, Verts: vs, Tris: p.Tris()})
	}
	_, walls := audit.WorldMeshes(w)
	for _, v := range audit.Check(solids, walls, 0) {
		if v.Kind == audit.KindWall {
			return nil, fmt.Errorf("%s: no room above the pile: the mesh would cross wall %s", path, walls[v.B].Name)
		}
		return nil, fmt.Errorf("%s: the mesh cannot be placed (%s, depth %.3g m)", path, v.Kind, v.Depth)
	}
	idx := make([]int, len(bodies))
	for k, b := range bodies {
		idx[k] = w.AddBody(b)
	}
	return idx, nil
}

func vmin(a, b geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: math.Min(a.X, b.X), Y: math.Min(a.Y, b.Y), Z: math.Min(a.Z, b.Z)}
}

func vmax(a, b geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: math.Max(a.X, b.X), Y: math.Max(a.Y, b.Y), Z: math.Max(a.Z, b.Z)}
}
