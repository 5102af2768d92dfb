package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A closed STL wall (a 1 m cube, outward normals) is an obstacle: the start
// audit lets a body beside it or on it start (review r2, session 13: before,
// everything behind any of its faces counted as crossing, "body "c" crosses
// wall "wall:block" by 2.55 m" for a cube 1.45 m beside it), and still refuses
// one pushed 1 cm into it.
func TestRunClosedSTLWall(t *testing.T) {
	dir := t.TempDir()
	var stl strings.Builder
	stl.WriteString("solid block\n")
	v := func(i int) string { // corner i of [-0.5, 0.5]³
		return fmt.Sprintf("%g %g %g", float64(i&1)-0.5, float64(i>>1&1)-0.5, float64(i>>2&1)-0.5)
	}
	// Two counter-clockwise (seen from outside) triangles per face.
	for _, f := range [6][4]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}} {
		for _, tri := range [2][3]int{{f[0], f[1], f[2]}, {f[0], f[2], f[3]}} {
			fmt.Fprintf(&stl, "facet normal 0 0 0\nouter loop\nvertex %s\nvertex %s\nvertex %s\nendloop\nendfacet\n", v(tri[0]), v(tri[1]), v(tri[2]))
		}
	}
	stl.WriteString("endsolid block\n")
	if err := os.WriteFile(filepath.Join(dir, "cubewall.stl"), []byte(stl.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	scene := func(pos string) string {
		p := filepath.Join(dir, "cw.yaml")
		os.WriteFile(p, []byte(`name: cw
time: 0.01
gravity: [0, 0, -9.81]
integrator: {name: explicit, dt: 1.0e-4, dt_min: 1.0e-9, dt_max: 1.0e-3, safety: 0.2}
contact:
  default: {law: barrier, gbar: 0.001, eps1: 2.0e5, n1: 1, f: 0.5, n2: -2, zeta: 0.5, mu_s: 0.5, mu_d: 0.5, eps_t: 1.0e5, c_t: 20}
shapes:
  cube: {type: box, size: [0.1, 0.1, 0.1]}
bodies:
  - {name: c, shape: cube, density: 1000, position: `+pos+`}
walls:
  - {name: block, type: stl, path: cubewall.stl, scale: 1}
`), 0o644)
		return p
	}
	cases := []struct {
		pos  string
		code int
		msg  string
	}{
		{"[-2, 0, 0]", ExitOK, ""},         // 1.45 m beside it
		{"[0.2, 0.1, 0.5505]", ExitOK, ""}, // on it, 0.5 mm above
		{"[0, 0, -0.5505]", ExitOK, ""},    // under it
		{"[-0.54, 0, 0]", ExitInput, `body "c" crosses wall "wall:block" by 0.01 m`}, // 1 cm into it
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		code := Main([]string{"run", scene(c.pos), "--out", t.TempDir(), "--quiet"}, &bytes.Buffer{}, &stderr)
		if code != c.code || c.msg != "" && !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("cube at %s: exit %d, stderr %q; want %d and %q", c.pos, code, stderr.String(), c.code, c.msg)
		}
	}
}
