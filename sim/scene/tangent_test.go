package scene

import (
	"testing"

	"grainlab/sim/integrate"
)

// TestNewmarkTangentKey: integrator.tangent selects newmark's Newton systems
// — the assembled analytic tangent by default ("analytic"),
// finite-difference products with "fd" — and another value is refused
// naming the key.
func TestNewmarkTangentKey(t *testing.T) {
	for _, c := range []struct {
		sets []string
		fd   bool
	}{
		{[]string{"integrator.name=newmark"}, false},
		{[]string{"integrator.name=newmark", "integrator.tangent=fd"}, true},
		{[]string{"integrator.name=newmark", "integrator.tangent=analytic"}, false},
	} {
		s, err := LoadBuiltin("cube-drop-a", c.sets...)
		if err != nil {
			t.Fatal(err)
		}
		w, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		nm, ok := w.Integrator.(*integrate.Newmark)
		if !ok || nm.FDProducts != c.fd {
			t.Errorf("%v: integrator %T, FDProducts %v; want newmark with FDProducts %v", c.sets, w.Integrator, ok && nm.FDProducts, c.fd)
		}
	}
	if _, err := LoadBuiltin("cube-drop-a", "integrator.tangent=exact"); err == nil {
		t.Error("integrator.tangent=exact accepted")
	}
}
