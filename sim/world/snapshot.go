package world

import (
	"fmt"
	"sync"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

// Snapshot returns an immutable copy of what the view and the outputs need.
// Meshes are shared by reference with prev when the shape did not change, so
// a snapshot per frame costs O(bodies + contacts): each body's mesh is found
// once (a run of bodies of one shape, the usual layout, costs a comparison
// each, not a map lookup) and the contact list is allocated at prev's size
// and holds at most an eighth more than its contacts.
func (w *World) Snapshot(prev *snap.Snapshot) *snap.Snapshot {
	s := &snap.Snapshot{Scene: w.Name}
	meshIndex := map[*shape.Polyhedron]int{}
	smoothIndex := map[sq.Shape]int{}
	s.Bodies = make([]snap.Body, w.NumBodies())
	var lastPoly *shape.Polyhedron
	var lastSQ sq.Shape
	lastMesh := -1 // the mesh of lastPoly or lastSQ
	// EachBody: no record made (a world's sphere blocks).
	w.EachBody(func(i int, b *body.Body) {
		mesh := lastMesh
		if b.Kind == body.Polyhedral {
			if b.Poly() != lastPoly || lastMesh < 0 {
				m, ok := meshIndex[b.Poly()]
				if !ok {
					m = len(s.Meshes)
					meshIndex[b.Poly()] = m
					s.Meshes = append(s.Meshes, meshOf(b.Poly(), prev))
				}
				mesh, lastPoly, lastSQ = m, b.Poly(), sq.Shape{}
			}
		} else if b.SQ() != lastSQ || lastPoly != nil || lastMesh < 0 {
			m, ok := smoothIndex[b.SQ()]
			if !ok {
				m = len(s.Meshes)
				smoothIndex[b.SQ()] = m
				s.Meshes = append(s.Meshes, w.smoothMesh(b.SQ()))
			}
			mesh, lastPoly, lastSQ = m, nil, b.SQ()
		}
		lastMesh = mesh
		s.Bodies[i] = snap.Body{
			Mesh: mesh, Pos: b.X, Rot: b.Q, Vel: b.V, AngVel: b.W,
			Radius: b.Radius(), Fixed: b.Fixed, Name: b.Name, Material: b.Material, Group: b.Group(),
		}
	})
	if prev != nil && len(prev.Contacts) > 0 {
		// the contacts change little between two frames; no counting pass
		// (the sphere path builds each contact it lists)
		s.Contacts = make([]snap.Contact, 0, len(prev.Contacts)+len(prev.Contacts)/16)
	}
	w.EachContact(func(a, b int, c *contact.Contact) {
		if c.Active() {
			f := c.N.Scale(c.Fn).Add(c.Ft).Norm()
			s.Bodies[a].ContactForce += f
			s.Bodies[b].ContactForce += f
		}
		s.Contacts = append(s.Contacts, snap.Contact{
			A: a, B: b, FeatA: c.FA, FeatB: c.FB, Kind: c.Kind, Swap: c.Swap,
			Point: c.Point(), Normal: c.N, Gap: c.Gn, Fn: c.Fn, Ft: c.Ft,
			Sliding: c.Fric.Sliding, Suppressed: !c.Active(), SuppressedBy: c.Rule.String(),
		})
	})
	switch n := len(s.Contacts); {
	case n == 0:
		s.Contacts = nil // no contacts: no list, as before
	case cap(s.Contacts)-n > n/8+16:
		// a history keeps the frame: at most an eighth more than it holds
		s.Contacts = append(make([]snap.Contact, 0, n), s.Contacts...)
	}
	for _, wl := range w.Walls {
		s.Walls = append(s.Walls, snap.Wall{
			Name: wl.Name, Body: wl.Body, Enabled: wl.Enabled,
			Mesh: meshIndex[w.BodyRec(wl.Body).Poly()], Force: wl.Force,
		})
	}
	st := &w.Stats
	s.Stats = snap.Stats{
		Step: w.Steps, Time: w.Time, Dt: st.Dt,
		Kinetic: st.Kinetic, PotentialGravity: st.PotentialGravity, PotentialContact: st.PotentialContact,
		Contacts: st.Contacts, ByKind: st.ByKind, Suppressed: st.Suppressed,
		NightOwls: st.NightOwls, Rejected: st.Rejected,
		NewtonIters: st.NewtonIters, LinearIters: st.LinearIters, Residual: st.Residual, SQFailures: st.SQFailures,
		Stages: st.Profile.stages(),
	}
	if w.Integrator != nil {
		s.Stats.Integrator = w.Integrator.Name()
	}
	if p := w.DefaultParams(); p != nil {
		s.SkinGap = p.Normal.GBar
	}
	return s
}

func meshOf(p *shape.Polyhedron, prev *snap.Snapshot) snap.Mesh {
	if prev != nil {
		for _, m := range prev.Meshes {
			if m.Name == p.Name && len(m.Verts) == len(p.Verts) && len(m.Verts) > 0 && &m.Verts[0] == &p.Verts[0] {
				return m
			}
		}
	}
	tris := make([][3]int32, len(p.Faces))
	for i, f := range p.Faces {
		tris[i] = f.V
	}
	edges := make([][2]int32, len(p.Edges))
	for i, e := range p.Edges {
		edges[i] = e.V
	}
	return snap.Mesh{Name: p.Name, Verts: p.Verts, Tris: tris, Edges: edges}
}

// smoothMeshes caches render meshes of superquadric shapes (shared by all
// worlds: a mesh depends on the shape only).
var smoothMeshes sync.Map // sq.Shape → snap.Mesh

// smoothMesh returns the render tessellation of a sphere or superquadric: a
// finer grid for blockier shapes so that edges stay crisp (S1 §2.1, Fig. 1).
func (w *World) smoothMesh(s sq.Shape) snap.Mesh {
	if m, ok := smoothMeshes.Load(s); ok {
		return m.(snap.Mesh)
	}
	nu, nv := 24, 12
	if n := max(s.N1, s.N2); n > 3 {
		nu, nv = 40, 20
	}
	vs, tris := s.Mesh(nu, nv)
	name := fmt.Sprintf("sq %.4g×%.4g×%.4g n=%.3g,%.3g", s.A, s.B, s.C, s.N1, s.N2)
	if s.A == s.B && s.B == s.C && s.N1 == 2 && s.N2 == 2 {
		name = fmt.Sprintf("sphere r=%.4g", s.A)
	}
	m := snap.Mesh{Name: name, Verts: vs, Tris: tris}
	smoothMeshes.Store(s, m)
	return m
}

// stages returns the stage times in snap.Stats.Stages' order.
func (p *Profile) stages() [snap.NumStages]time.Duration {
	return [snap.NumStages]time.Duration{
		snap.StagePlace: p.Place, snap.StageBroad: p.Broad, snap.StageCache: p.Cache, snap.StageNarrow: p.Narrow,
		snap.StageLaws: p.Laws, snap.StageAccumulate: p.Accumulate, snap.StageStepBound: p.StepBound, snap.StageIntegrate: p.Integrate,
	}
}
