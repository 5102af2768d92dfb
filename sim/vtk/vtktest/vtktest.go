// Package vtktest checks a ParaView series written by sim/vtk with VTK's
// own XML reader (Debian python3-vtk9 under /usr/bin/python3, installed by
// `make test`): every frame opens, and the bodies, spheres, walls and
// contacts are where the snapshots put them. For tests of sim/vtk and app.
package vtktest

import (
	_ "embed"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/vtk"
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

type sphere struct {
	Point           []float64 `json:"point"`
	BodyID          []float64 `json:"body_id"`
	Radius          []float64 `json:"radius"`
	Velocity        []float64 `json:"velocity"`
	AngularVelocity []float64 `json:"angular_velocity"`
	Material        []float64 `json:"material"`
	ContactForce    []float64 `json:"contact_force"`
}

type frame struct {
	Time                        float64
	Points, Verts, Lines, Polys int
	Bodies, Walls               map[string]group
	Contacts                    []contact
	Spheres                     []sphere
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
// the largest position difference. Spheres (vtk.SphereMeshPrefix meshes)
// must be points in spheres.pvd, not in bodies.pvd: per frame every one,
// in body order, with its body_id, centre and radius bit for bit, its
// velocities (float32), material and (when contacts is set) contact force; spheres.pvd lists
// every frame when a frame has a sphere and does not exist when none has.
func Check(t testing.TB, dir string, want []*snap.Snapshot, contacts bool) float64 {
	t.Helper()
	return check(t, dir, want, contacts, false)
}

// CheckSphereMesh is Check for a series written with
// vtk.Options.SphereMesh: spheres are meshes in bodies.pvd, and there is
// no spheres.pvd.
func CheckSphereMesh(t testing.TB, dir string, want []*snap.Snapshot, contacts bool) float64 {
	t.Helper()
	return check(t, dir, want, contacts, true)
}

func check(t testing.TB, dir string, want []*snap.Snapshot, contacts, sphereMesh bool) float64 {
	t.Helper()
	got := read(t, dir)
	isSphere := func(s *snap.Snapshot, b *snap.Body) bool {
		return !sphereMesh && strings.HasPrefix(s.Meshes[b.Mesh].Name, vtk.SphereMeshPrefix)
	}
	anySphere, anyNil := false, false
	for _, s := range want {
		if s == nil {
			anyNil = true
			continue
		}
		wall := map[int]bool{}
		for _, w := range s.Walls {
			wall[w.Body] = true
		}
		for i := range s.Bodies {
			anySphere = anySphere || !wall[i] && isSphere(s, &s.Bodies[i])
		}
	}
	switch sp, ok := got["spheres"]; {
	case anySphere && len(sp) != len(want):
		t.Fatalf("spheres.pvd lists %d frames, want %d", len(sp), len(want))
	case !anySphere && !anyNil && ok:
		t.Fatalf("spheres.pvd written (%d frames) without a sphere", len(sp))
	}
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
		var sph []int // the spheres' bodies
		for i, b := range s.Bodies {
			if wall[i] {
				continue
			}
			if isSphere(s, &s.Bodies[i]) {
				sph = append(sph, i)
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
		if anySphere {
			fs := got["spheres"][k]
			if fs.Time != s.Stats.Time || len(fs.Spheres) != len(sph) || fs.Points != len(sph) || fs.Verts != len(sph) || fs.Polys+fs.Lines != 0 {
				t.Fatalf("frame %d: spheres.pvd at t = %g with %d points, %d verts, %d lines, %d polys; want t = %g, %d spheres",
					k, fs.Time, fs.Points, fs.Verts, fs.Lines, fs.Polys, s.Stats.Time, len(sph))
			}
			for j, i := range sph {
				g, b := fs.Spheres[j], &s.Bodies[i]
				if len(g.BodyID) != 1 || int(g.BodyID[0]) != i || len(g.Radius) != 1 || g.Radius[0] != b.Radius ||
					len(g.Point) != 3 || geom.V(g.Point[0], g.Point[1], g.Point[2]) != b.Pos ||
					len(g.Material) != 1 || int(g.Material[0]) != b.Material || len(g.ContactForce) != 1 || contacts && g.ContactForce[0] != b.ContactForce {
					t.Fatalf("frame %d: sphere point %d is body %v at %v r %v material %v contact force %v; want body %d at %v r %v material %d contact force %v",
						k, j, g.BodyID, g.Point, g.Radius, g.Material, g.ContactForce, i, b.Pos, b.Radius, b.Material, b.ContactForce)
				}
				near("sphere velocity", g.Velocity, b.Vel, 1e-6)
				near("sphere angular velocity", g.AngularVelocity, b.AngVel, 1e-6)
			}
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
