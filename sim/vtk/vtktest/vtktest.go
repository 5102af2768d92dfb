// Package vtktest checks a ParaView series written by sim/vtk with VTK's
// own XML reader (Debian python3-vtk9 under /usr/bin/python3, installed by
// `make test`): every frame opens, and the bodies, walls and contacts are
// where the snapshots put them. For tests of sim/vtk and app.
package vtktest

import (
	_ "embed"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

//go:embed readvtk.py
var script []byte

// Python is the interpreter that has Debian's VTK module.
const Python = "/usr/bin/python3"

type group struct {
	N               int
	Sum             [3]float64
	First           []float64 `json:"first"`
	Velocity        []float64 `json:"velocity"`
	AngularVelocity []float64 `json:"angular_velocity"`
	Material        []float64 `json:"material"`
	Enabled         []float64 `json:"enabled"`
	Force           []float64 `json:"force"`
}

type contact struct {
	Point, Force, Normal []float64
	Type, Stick          float64
	FnVert               float64 `json:"fn_vert"`
	FnLine               float64 `json:"fn_line"`
	Ends                 [2][]float64
}

type frame struct {
	Time                        float64
	Points, Verts, Lines, Polys int
	Bodies, Walls               map[string]group
	Contacts                    []contact
}

// Read runs VTK's reader over the series in dir (DIR/vtk) and returns, per
// series name, its frames; it skips the test when python3-vtk9 is absent.
func read(t testing.TB, dir string) map[string][]frame {
	t.Helper()
	if _, err := os.Stat(Python); err != nil {
		t.Skip("no " + Python + ": apt-get install python3-vtk9 (make test installs it)")
	}
	if err := exec.Command(Python, "-c", "import vtkmodules.vtkIOXML").Run(); err != nil {
		t.Skip("python3-vtk9 is not installed (make test installs it): ", err)
	}
	p := filepath.Join(t.TempDir(), "readvtk.py")
	if err := os.WriteFile(p, script, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(Python, p, dir)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("VTK's reader on %s: %v\n%s", dir, err, msg)
	}
	var got map[string][]frame
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// Check reads the series in dir with VTK and compares every frame with
// want (the snapshots written, in order): times; every body's point count,
// mean point and first point (its mesh's mean and first vertex at its
// pose, to 1e-12 relative),
// velocity and angular velocity (float32: 1e-6 relative), material;
// every wall's; every active contact's point, force, normal, type, stick,
// |F_n| on its vertex and line, and the line's ends (when contacts is
// set). A nil snapshot skips its frame (read, not compared). It returns
// the largest position difference.
func Check(t testing.TB, dir string, want []*snap.Snapshot, contacts bool) float64 {
	t.Helper()
	got := read(t, dir)
	for _, s := range []string{"bodies", "contacts", "walls"} {
		if len(got[s]) != len(want) {
			t.Fatalf("%s.pvd lists %d frames, want %d", s, len(got[s]), len(want))
		}
	}
	worst := 0.0
	near := func(what string, a []float64, b geom.Vec3, rel float64) {
		t.Helper()
		if len(a) != 3 {
			t.Fatalf("%s: %d components", what, len(a))
		}
		d := geom.V(a[0], a[1], a[2]).Sub(b).Norm()
		if d > rel*(b.Norm()+1e-300) {
			t.Fatalf("%s: VTK %v, snapshot %v (|Δ| = %g)", what, a, b, d)
		}
	}
	for k, s := range want {
		if s == nil {
			continue
		}
		fb, fc, fw := got["bodies"][k], got["contacts"][k], got["walls"][k]
		if fb.Time != s.Stats.Time || fc.Time != s.Stats.Time || fw.Time != s.Stats.Time {
			t.Fatalf("frame %d at t = %g/%g/%g, want %g", k, fb.Time, fc.Time, fw.Time, s.Stats.Time)
		}
		wall := map[int]bool{}
		for _, w := range s.Walls {
			wall[w.Body] = true
		}
		nb := 0
		center := func(mesh int, pos geom.Vec3, q geom.Quat) geom.Vec3 {
			var m geom.Vec3
			for _, v := range s.Meshes[mesh].Verts {
				m = m.Add(v)
			}
			return q.Rotate(m.Scale(1 / float64(len(s.Meshes[mesh].Verts)))).Add(pos)
		}
		for i, b := range s.Bodies {
			if wall[i] {
				continue
			}
			nb++
			g, ok := fb.Bodies[strconv.Itoa(i)]
			if !ok || g.N != len(s.Meshes[b.Mesh].Verts) {
				t.Fatalf("frame %d: body %d has %d points in VTK, its mesh %d", k, i, g.N, len(s.Meshes[b.Mesh].Verts))
			}
			c := center(b.Mesh, b.Pos, b.Rot)
			mean := geom.V(g.Sum[0], g.Sum[1], g.Sum[2]).Scale(1 / float64(g.N))
			d := mean.Sub(c).Norm()
			worst = max(worst, d)
			if d > 1e-12*(1+c.Norm()) {
				t.Fatalf("frame %d: body %d at %v in VTK, %v in the snapshot", k, i, mean, c)
			}
			first := b.Rot.Rotate(s.Meshes[b.Mesh].Verts[0]).Add(b.Pos)
			worst = max(worst, geom.V(g.First[0], g.First[1], g.First[2]).Sub(first).Norm())
			near("first vertex", g.First, first, 1e-12)
			near("velocity", g.Velocity, b.Vel, 1e-6)
			near("angular velocity", g.AngularVelocity, b.AngVel, 1e-6)
			if len(g.Material) != 1 || int(g.Material[0]) != b.Material {
				t.Fatalf("frame %d: body %d material %v, want %d", k, i, g.Material, b.Material)
			}
		}
		if len(fb.Bodies) != nb {
			t.Fatalf("frame %d: %d bodies in VTK, %d in the snapshot", k, len(fb.Bodies), nb)
		}
		for i, w := range s.Walls {
			g, ok := fw.Walls[strconv.Itoa(i)]
			if !ok {
				t.Fatalf("frame %d: wall %d missing", k, i)
			}
			c := center(w.Mesh, s.Bodies[w.Body].Pos, s.Bodies[w.Body].Rot)
			if d := geom.V(g.Sum[0], g.Sum[1], g.Sum[2]).Scale(1 / float64(g.N)).Sub(c).Norm(); d > 1e-12*(1+c.Norm()) {
				t.Fatalf("frame %d: wall %d off by %g m", k, i, d)
			}
			if e := g.Enabled[0] == 1; e != w.Enabled {
				t.Fatalf("frame %d: wall %d enabled %v", k, i, g.Enabled)
			}
			near("wall force", g.Force, w.Force, 1e-15)
		}
		if !contacts {
			continue
		}
		var act []snap.Contact
		for _, c := range s.Contacts {
			if !c.Suppressed {
				act = append(act, c)
			}
		}
		if len(fc.Contacts) != len(act) || fc.Lines != len(act) {
			t.Fatalf("frame %d: %d contact points and %d lines in VTK, %d active contacts", k, len(fc.Contacts), fc.Lines, len(act))
		}
		for i, c := range act {
			g := fc.Contacts[i]
			near("contact point", g.Point, c.Point, 1e-15)
			near("contact force", g.Force, c.Normal.Scale(c.Fn).Add(c.Ft), 1e-15)
			near("contact normal", g.Normal, c.Normal, 1e-15)
			stick := 1.0
			if c.Sliding {
				stick = 0
			}
			if g.Type != float64(c.Kind) || g.Stick != stick || g.FnVert != math.Abs(c.Fn) || g.FnLine != math.Abs(c.Fn) {
				t.Fatalf("frame %d, contact %d: type %g stick %g |Fn| %g %g, want %d %g %g", k, i, g.Type, g.Stick, g.FnVert, g.FnLine, c.Kind, stick, math.Abs(c.Fn))
			}
			for e, body := range [2]int{c.A, c.B} {
				want := c.Point
				if !wall[body] {
					want = s.Bodies[body].Pos
				}
				near("force-network line end", g.Ends[e], want, 1e-15)
			}
		}
	}
	return worst
}
