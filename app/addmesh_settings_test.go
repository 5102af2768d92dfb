package app

import (
	"testing"

	"grainlab/sim/integrate"
)

// TestAddMeshKeepsIntegratorSettings: adding bodies from a mesh keeps the
// running integrator with the scene's settings (found in review: a fresh
// default newmark replaced γ = 0.6 and tol = 1e-5 by 0.5 and 1e-8).
func TestAddMeshKeepsIntegratorSettings(t *testing.T) {
	o := smallScene("5")
	o.Sets = append(o.Sets, "integrator.name=newmark", "integrator.gamma=0.6", "integrator.tol=1e-5")
	s, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	l := NewSimLoop(s, o)
	before := *s.World.Integrator.(*integrate.Newmark)
	if before.Gamma != 0.6 || before.Tol != 1e-5 {
		t.Fatalf("scene settings not applied: gamma %g, tol %g", before.Gamma, before.Tol)
	}
	if err := l.addMesh(tetrapodSTL, 1); err != nil {
		t.Fatal(err)
	}
	after := *s.World.Integrator.(*integrate.Newmark)
	if after.Gamma != before.Gamma || after.Tol != before.Tol {
		t.Errorf("addMesh lost the scene's newmark settings: gamma %g→%g, tol %g→%g", before.Gamma, after.Gamma, before.Tol, after.Tol)
	}
}
