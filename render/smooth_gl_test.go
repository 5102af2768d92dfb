package render_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/render"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

// smoothScene is a sphere and a blocky superquadric resting on a ground
// plane, each with one SQ contact carrying normal and friction forces.
func smoothScene(sphereName string) *snap.Snapshot {
	ball := sq.Sphere(0.5)
	bv, bt := ball.Mesh(24, 12)
	box := sq.Shape{A: 0.5, B: 0.4, C: 0.3, N1: 8, N2: 8}
	xv, xt := box.Mesh(40, 20)
	s := &snap.Snapshot{Scene: "smooth", SkinGap: 0.01}
	s.Meshes = []snap.Mesh{
		render.PlaneMesh("ground", 6, 6),
		{Name: sphereName, Verts: bv, Tris: bt},
		{Name: "sq 0.5×0.4×0.3 n=8,8", Verts: xv, Tris: xt},
	}
	s.Bodies = []snap.Body{
		{Mesh: 0, Rot: geom.QIdent(), Fixed: true, Name: "ground"},
		{Mesh: 1, Pos: geom.V(-0.8, 0, 0.5), Rot: geom.QIdent(), Radius: 0.5, Name: "ball"},
		{Mesh: 2, Pos: geom.V(0.8, 0, 0.3), Rot: geom.QAxisAngle(geom.V(0, 0, 1), 0.4), Radius: box.BoundingRadius(), Name: "box"},
	}
	s.Walls = []snap.Wall{{Name: "ground", Body: 0, Enabled: true, Mesh: 0}}
	up := geom.V(0, 0, 1)
	s.Contacts = []snap.Contact{
		{A: 1, B: 0, Kind: snap.SQ, Point: geom.V(-0.8, 0, 0), Normal: up, Fn: 20, Ft: geom.V(6, 0, 0), Gap: -1e-4},
		{A: 2, B: 0, Kind: snap.SQ, Point: geom.V(0.8, 0, 0), Normal: up, Fn: 15, Ft: geom.V(0, -5, 0), Gap: -1e-4},
	}
	s.Stats.ByKind[snap.SQ] = 2
	s.Stats.Contacts = 2
	return s
}

func lum(img *image.RGBA, x, y int) float64 {
	o := img.PixOffset(x, y)
	return 0.299*float64(img.Pix[o]) + 0.587*float64(img.Pix[o+1]) + 0.114*float64(img.Pix[o+2])
}

// discStats returns the luminance range and the number of neighbour pairs
// whose luminance jumps by more than 8 levels inside the disc of radius r
// around (cx, cy).
func discStats(img *image.RGBA, cx, cy, r float64) (lo, hi float64, jumps, n int) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for y := int(cy - r); y <= int(cy+r); y++ {
		for x := int(cx - r); x <= int(cx+r); x++ {
			if (float64(x)-cx)*(float64(x)-cx)+(float64(y)-cy)*(float64(y)-cy) > r*r {
				continue
			}
			l := lum(img, x, y)
			lo, hi = math.Min(lo, l), math.Max(hi, l)
			n++
			if math.Abs(l-lum(img, x+1, y)) > 8 {
				jumps++
			}
			if math.Abs(l-lum(img, x, y+1)) > 8 {
				jumps++
			}
		}
	}
	return
}

// TestSmoothBodies renders a sphere and a superquadric on a plane: the
// bodies cover the pixels their centres project to, the sphere's smooth
// shading varies across its disc without the facet jumps of the same mesh
// shaded flat, SQ markers and force arrows show, and replacing a mesh (a
// live shape edit) re-uploads it without leaking GL objects.
func TestSmoothBodies(t *testing.T) {
	const W, H = 480, 320
	var smooth, flat, noBodies, contacts *image.RGBA
	var errs []error
	var uploads []int
	var liveBufs, liveArrays, heldBufs, heldArrays int
	cam := render.NewCamera()
	var fbw, fbh int
	withWindow(t, W, H, func(win *glfw.Window) {
		r, err := render.New()
		if err != nil {
			errs = append(errs, err)
			return
		}
		defer r.Close()
		fbw, fbh = win.GetFramebufferSize()
		s := smoothScene("sphere r=0.5")
		v := render.DefaultView()
		v.ShowGrid, v.ShowAxes = false, false
		v.OccludedAlpha = 1 // the contacts are under the bodies
		v.AutoArrowScale(s)
		cam.Aspect = float64(fbw) / float64(fbh)
		cam.FitSphere(geom.V(0, 0, 0.3), 1.4)
		r.Draw(s, &v, cam, fbw, fbh)
		contacts = render.Screenshot(fbw, fbh)
		errs = append(errs, glErr("contacts"))
		// bodies alone for the pixel checks
		v.ShowContacts, v.ShowNormal, v.ShowFriction = false, false, false
		v.ShowEdges = false // facets alone, without the dark feature edges of the flat mesh
		r.Draw(s, &v, cam, fbw, fbh)
		smooth = render.Screenshot(fbw, fbh)
		vb := v
		vb.ShowBodies = false
		r.Draw(s, &vb, cam, fbw, fbh)
		noBodies = render.Screenshot(fbw, fbh)
		r.Draw(smoothScene("ball"), &v, cam, fbw, fbh) // same geometry, a polyhedron's name: flat
		flat = render.Screenshot(fbw, fbh)

		// live shape edits: every frame a new superquadric mesh at index 2
		r.Draw(s, &v, cam, fbw, fbh)
		seenB, seenA := map[uint32]bool{}, map[uint32]bool{}
		for i := 0; i < 20; i++ {
			sh := sq.Shape{A: 0.5, B: 0.4, C: 0.3 + 0.005*float64(i), N1: 8, N2: 2 + 0.3*float64(i)}
			vs, ts := sh.Mesh(40, 20)
			s2 := *s
			s2.Meshes = append([]snap.Mesh(nil), s.Meshes...)
			s2.Meshes[2] = snap.Mesh{Name: fmt.Sprintf("sq edit %d", i), Verts: vs, Tris: ts}
			r.Draw(&s2, &v, cam, fbw, fbh)
			uploads = append(uploads, r.Stats().MeshUploads)
			b, a := render.MeshGLNames(r)
			for _, x := range b {
				seenB[x] = true
			}
			for _, x := range a {
				seenA[x] = true
			}
		}
		errs = append(errs, glErr("edits"))
		b, a := render.MeshGLNames(r)
		heldBufs, heldArrays = len(b), len(a)
		for x := range seenB {
			if gl.IsBuffer(x) {
				liveBufs++
			}
		}
		for x := range seenA {
			if gl.IsVertexArray(x) {
				liveArrays++
			}
		}
	})
	for _, e := range errs {
		if e != nil {
			t.Fatal(e)
		}
	}
	dir := shotDir(t)
	savePNG(t, dir, "smooth.png", smooth)
	savePNG(t, dir, "smooth-flat.png", flat)
	savePNG(t, dir, "smooth-contacts.png", contacts)

	s := smoothScene("sphere r=0.5")
	for _, i := range []int{1, 2} {
		b := &s.Bodies[i]
		x, y, ok := cam.Project(b.Pos, fbw, fbh)
		if !ok {
			t.Fatalf("body %s behind the camera", b.Name)
		}
		if n := countDiff(smooth, noBodies, rect{int(x) - 3, int(y) - 3, int(x) + 4, int(y) + 4}, 10); n < 45 {
			t.Errorf("body %s: only %d of 49 pixels around its projected centre (%.0f, %.0f) changed", b.Name, n, x, y)
		}
	}
	// the sphere's disc (shrunk to stay clear of its outline and the markers)
	ball := s.Bodies[1].Pos
	cx, cy, _ := cam.Project(ball, fbw, fbh)
	rpx := 0.5 / cam.PixelSize(ball, fbh) * 0.75
	lo, hi, jumpsSmooth, n := discStats(smooth, cx, cy, rpx)
	_, _, jumpsFlat, _ := discStats(flat, cx, cy, rpx)
	t.Logf("sphere disc r=%.0f px, %d pixels: luminance %.0f..%.0f, jumps > 8 levels: smooth %d, flat %d", rpx, n, lo, hi, jumpsSmooth, jumpsFlat)
	if rpx < 20 {
		t.Fatalf("the sphere is only %.0f px across", 2*rpx)
	}
	if hi-lo < 40 {
		t.Errorf("smooth shading hardly varies across the sphere: luminance %.0f..%.0f", lo, hi)
	}
	if jumpsFlat < 20 || jumpsSmooth*4 > jumpsFlat {
		t.Errorf("facet jumps: smooth %d, flat %d; want smooth shading without the flat facets", jumpsSmooth, jumpsFlat)
	}
	sceneR := rect{0, 0, fbw, fbh}
	if n := countColor(contacts, sceneR, render.KindColors[snap.SQ], 10); n < 4 {
		t.Errorf("SQ marker colour: %d pixels", n)
	}
	if n := countColor(contacts, sceneR, render.NormalArrowColor, 10); n < 20 {
		t.Errorf("normal arrow colour: %d pixels", n)
	}
	if n := countColor(contacts, sceneR, render.FrictionArrowColor, 10); n < 20 {
		t.Errorf("friction arrow colour: %d pixels", n)
	}
	for i, u := range uploads {
		if u != 1 {
			t.Errorf("edit %d: %d mesh uploads, want 1", i, u)
		}
	}
	if liveBufs != heldBufs || liveArrays != heldArrays {
		t.Errorf("after 20 mesh replacements %d buffers and %d vertex arrays of the meshes are alive, the renderer holds %d and %d",
			liveBufs, liveArrays, heldBufs, heldArrays)
	}
}
