package window

import (
	"fmt"
	"math"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/render"
	"grainlab/render/mainthread"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestRenderCost measures the CPU time (all threads of the process, so
// llvmpipe's rasteriser threads count) and the wall time of one 1280×800
// Renderer.Draw + glFinish of the default scene's packed state in the
// window's default view (AppView), and of 10⁵ spheres, the camera orbiting
// between frames; and of 10⁵ spheres with 3·10⁵ contacts redrawn with the
// camera still (a panel edit or a redraw between snapshots: the impostors',
// markers' and arrows' instance data are kept). CPU time is less
// sensitive than wall time to other processes on the machine. It only runs
// when GRAINLAB_RENDERCOST is set (under xvfb-run).
func TestRenderCost(t *testing.T) {
	if os.Getenv("GRAINLAB_RENDERCOST") == "" {
		t.Skip("set GRAINLAB_RENDERCOST=1 to run")
	}
	mainthread.NeedDisplay(t)
	o := app.Options{Scene: app.DefaultScene, Time: 1e6, Restart: "builtin:" + app.DefaultPacked}
	s, err := app.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StepTo(s.World.Time+0.005, nil); err != nil {
		t.Fatal(err)
	}
	packed := s.World.Snapshot(nil)
	spheres := manySpheres(100000)
	withGLWindow(t, WindowWidth, WindowHeight, "grainlab render cost", false, func(win *glfw.Window, r *render.Renderer) {
		fbw, fbh := win.GetFramebufferSize()
		measure := func(name string, sn *snap.Snapshot, v render.View, n int, orbit bool) {
			cam := render.NewCamera()
			cam.Aspect = float64(fbw) / float64(fbh)
			cam.Fit(sn)
			for i := 0; i < 2; i++ {
				r.Draw(sn, &v, cam, fbw, fbh)
				gl.Finish()
			}
			c0, w0 := cpuTime(), time.Now()
			for i := 0; i < n; i++ {
				if orbit {
					cam.Orbit(2, 0)
				}
				r.Draw(sn, &v, cam, fbw, fbh)
				gl.Finish()
			}
			cpu := float64(cpuTime()-c0) / 1e6 / float64(n)
			wall := float64(time.Since(w0)) / 1e6 / float64(n)
			st := r.Stats()
			t.Logf("%-28s CPU %7.1f ms/frame  wall %7.1f ms/frame  (draws %d, markers %d, arrows %d, spheres %d)",
				name, cpu, wall, st.DrawCalls, st.Markers, st.Arrows, st.Spheres)
		}
		v := AppView()
		measure("packed default view", packed, v, 20, true)
		r.SyncPasses = true
		measure("packed, passes synchronised", packed, v, 10, true)
		t.Logf("passes (ms): %s", passMs(r.Stats()))
		r.SyncPasses = false
		AllOverlays(&v)
		measure("packed all overlays", packed, v, 20, true)
		measure(fmt.Sprintf("%d spheres", len(spheres.Bodies)), spheres, AppView(), 5, true)
		touching := withLatticeContacts(spheres)
		measure(fmt.Sprintf("%d spheres, %d contacts", len(touching.Bodies), len(touching.Contacts)), touching, AppView(), 5, true)
		r.SyncPasses = true
		measure("the same, passes synchronised", touching, AppView(), 3, true)
		t.Logf("passes (ms): %s", passMs(r.Stats()))
		still := AppView()
		still.AutoArrowScale(touching) // a window settled on this snapshot
		measure("the same, camera still", touching, still, 3, false)
		t.Logf("passes (ms): %s", passMs(r.Stats()))
		r.SyncPasses = false
	})
}

// manySpheres is n spheres of radius 1 mm on a cubic lattice, touching.
func manySpheres(n int) *snap.Snapshot {
	const r = 0.001
	bv, bt := sq.Sphere(r).Mesh(24, 12)
	s := &snap.Snapshot{Scene: "spheres", Meshes: []snap.Mesh{{Name: "sphere r=0.001", Verts: bv, Tris: bt}}}
	k := int(math.Ceil(math.Cbrt(float64(n))))
	for i := 0; i < n; i++ {
		x, y, z := i%k, (i/k)%k, i/(k*k)
		s.Bodies = append(s.Bodies, snap.Body{Pos: geom.V(2*r*float64(x), 2*r*float64(y), 2*r*float64(z)),
			Rot: geom.QIdent(), Radius: r})
	}
	return s
}

// withLatticeContacts is s (manySpheres) with a loaded contact between
// every sphere and its lattice neighbour along x, y and z (3·10⁵ for 10⁵
// spheres): the markers and arrows of a settled box.
func withLatticeContacts(s *snap.Snapshot) *snap.Snapshot {
	c := *s
	c.Contacts = nil
	k := int(math.Ceil(math.Cbrt(float64(len(s.Bodies)))))
	for i := range s.Bodies {
		for _, d := range []int{1, k, k * k} {
			j := i + d
			if j >= len(s.Bodies) || (d == 1 && j%k == 0) || (d == k && (j/k)%k == 0) {
				continue
			}
			a, b := s.Bodies[j].Pos, s.Bodies[i].Pos
			n := a.Sub(b).Unit()
			c.Contacts = append(c.Contacts, snap.Contact{A: j, B: i, Kind: snap.SQ, Point: a.Add(b).Scale(0.5), Normal: n,
				Fn: 1e-4 * (1 + float64(i%7)), Ft: geom.V(n.Y, -n.X, 0).Scale(2e-5)})
		}
	}
	c.Stats.Contacts = len(c.Contacts)
	return &c
}

func passMs(st render.FrameStats) string {
	out := ""
	for p := render.Pass(0); p < render.NumPasses; p++ {
		out += fmt.Sprintf("%s %.1f  ", render.PassNames[p], float64(st.Pass[p])/1e6)
	}
	return out
}
