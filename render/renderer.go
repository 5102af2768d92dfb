package render

import (
	"fmt"
	"image"
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// meshKey identifies the contents of a snap.Mesh by slice identity.
type meshKey struct {
	name       string
	verts      *geom.Vec3
	nVerts     int
	tris       *[3]int32
	nTris      int
	everLoaded bool
}

func keyOf(m *snap.Mesh) meshKey {
	return meshKey{m.Name, unsafe.SliceData(m.Verts), len(m.Verts), unsafe.SliceData(m.Tris), len(m.Tris), true}
}

// meshGPU is one uploaded mesh: a flat-shaded triangle soup and its feature edges.
type meshGPU struct {
	key                       meshKey
	vao, vbo                  uint32
	nVerts                    int32
	lineVAO, lineVBO, lineEBO uint32
	nLine                     int32
	closed                    bool
}

// Pass is one part of Renderer.Draw, timed in FrameStats.Pass.
type Pass int

// The passes of Renderer.Draw in drawing order.
const (
	PassPrepare     Pass = iota // mesh uploads, frame building, buffer uploads
	PassBackground              // gradient
	PassBodies                  // opaque meshes
	PassSpheres                 // impostor spheres
	PassLines                   // bounding spheres, wall outlines
	PassGrid                    // ground grid
	PassTranslucent             // enabled walls and skin shells, back to front
	PassArrows                  // force arrows (hidden and visible parts)
	PassMarkers                 // contact markers (hidden and visible parts)
	PassChains                  // force chains
	PassGizmo                   // axes in the corner
	NumPasses
)

// PassNames are display names of the passes, indexed by Pass.
var PassNames = [NumPasses]string{"prepare", "background", "bodies", "spheres", "lines", "grid",
	"translucent", "arrows", "markers", "chains", "gizmo"}

// FrameStats describes the last Draw.
type FrameStats struct {
	DrawCalls, Instances, Markers, Arrows, MeshUploads int
	Spheres, Chains                                    int // impostor spheres, force-chain lines
	// ChainMean and ChainMax are the mean and largest summed normal force of
	// the contacting body pairs, ChainThreshold the force above which chains
	// are drawn (N; all 0 when chains are off).
	ChainMean, ChainMax, ChainThreshold float64
	// Pass is the wall time spent in each pass: submitting the GL commands
	// (drivers may rasterise later, at the buffer swap) or, with
	// Renderer.SyncPasses, until the GL has finished them.
	Pass [NumPasses]time.Duration
}

// Renderer draws snapshots; create it with New once a GL 4.1 core context is current.
type Renderer struct {
	meshProg, lineProg, markerProg, arrowProg, gridProg, bgProg *program
	sphereProg, chainProg                                       *program

	meshes []meshGPU
	info   []meshInfo

	emptyVAO                        uint32
	instVBO                         uint32
	instCap                         int
	markerVAO, markerTpl, markerVBO uint32
	markerCap                       int
	arrowVAO, arrowTpl, arrowVBO    uint32
	arrowCap                        int
	sphereVAO, sphereVBO            uint32
	sphereN                         int32
	impVAO, impVBO                  uint32 // impostor spheres (template: markerTpl)
	impCap                          int
	chainVAO, chainTpl, chainVBO    uint32
	chainCap                        int
	lastFit                         time.Time // wall time of the last arrow re-fit
	fitBuf                          fitBuf

	// per-Draw state shared by the passes
	width, height          int
	eye, key, fill, up     geom.Vec3
	nContactArrows, nGizmo int

	// SyncPasses makes Draw wait for the GL after each pass (glFinish), so
	// that FrameStats.Pass holds each pass's whole cost, rasterisation
	// included; slower, for measurements.
	SyncPasses bool

	f     frame
	stats FrameStats
	gizmo []float32
	vp    mgl32.Mat4 // scene view-projection of the current Draw (heap, for cgo)
	gvp   mgl32.Mat4 // gizmo view-projection
}

// New compiles the shaders and creates the static buffers. A GL 4.1 core
// context must be current on the calling (locked) OS thread.
func New() (*Renderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("render: gl.Init: %w", err)
	}
	r := &Renderer{}
	var err error
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	if r.meshProg, err = compileProgram("mesh.vert", "mesh.frag",
		"uViewProj", "uInflate", "uEye", "uKey", "uFill", "uEdge", "uLit"); err != nil {
		return nil, err
	}
	if r.lineProg, err = compileProgram("line.vert", "line.frag", "uViewProj", "uAlpha"); err != nil {
		return nil, err
	}
	if r.markerProg, err = compileProgram("marker.vert", "marker.frag",
		"uViewProj", "uViewport", "uEye", "uPxScale", "uAlpha"); err != nil {
		return nil, err
	}
	if r.arrowProg, err = compileProgram("arrow.vert", "arrow.frag",
		"uViewProj", "uViewport", "uShaftPx", "uHeadPx", "uHeadWPx", "uAlpha"); err != nil {
		return nil, err
	}
	if r.gridProg, err = compileProgram("grid.vert", "grid.frag",
		"uViewProj", "uCenter", "uHalf", "uZ", "uStep"); err != nil {
		return nil, err
	}
	if r.bgProg, err = compileProgram("background.vert", "background.frag", "uTop", "uBottom"); err != nil {
		return nil, err
	}
	if r.sphereProg, err = compileProgram("sphere.vert", "sphere.frag",
		"uViewProj", "uEye", "uUp", "uKey", "uFill"); err != nil {
		return nil, err
	}
	if r.chainProg, err = compileProgram("chain.vert", "chain.frag", "uViewProj", "uViewport", "uAlpha"); err != nil {
		return nil, err
	}
	gl.GenVertexArrays(1, &r.emptyVAO)
	gl.GenBuffers(1, &r.instVBO)

	// markers: quad template + instances
	gl.GenVertexArrays(1, &r.markerVAO)
	gl.GenBuffers(1, &r.markerTpl)
	gl.GenBuffers(1, &r.markerVBO)
	gl.BindVertexArray(r.markerVAO)
	quad := []float32{-1, -1, 1, -1, -1, 1, 1, 1}
	gl.BindBuffer(gl.ARRAY_BUFFER, r.markerTpl)
	gl.BufferData(gl.ARRAY_BUFFER, len(quad)*4, gl.Ptr(quad), gl.STATIC_DRAW)
	attrib(0, 2, 2, 0, 0)

	// impostor spheres: the same quad template + instances
	gl.GenVertexArrays(1, &r.impVAO)
	gl.GenBuffers(1, &r.impVBO)
	gl.BindVertexArray(r.impVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.markerTpl)
	attrib(0, 2, 2, 0, 0)

	// force chains: a quad strip (along, side)
	gl.GenVertexArrays(1, &r.chainVAO)
	gl.GenBuffers(1, &r.chainTpl)
	gl.GenBuffers(1, &r.chainVBO)
	gl.BindVertexArray(r.chainVAO)
	chainQuad := []float32{0, -1, 1, -1, 0, 1, 1, 1}
	gl.BindBuffer(gl.ARRAY_BUFFER, r.chainTpl)
	gl.BufferData(gl.ARRAY_BUFFER, len(chainQuad)*4, gl.Ptr(chainQuad), gl.STATIC_DRAW)
	attrib(0, 2, 2, 0, 0)

	// arrows: shaft quad (two triangles) + head triangle
	gl.GenVertexArrays(1, &r.arrowVAO)
	gl.GenBuffers(1, &r.arrowTpl)
	gl.GenBuffers(1, &r.arrowVBO)
	gl.BindVertexArray(r.arrowVAO)
	tpl := []float32{
		// param (along, side, head)   bary
		0, -1, 0, 1, 1, 1,
		1, -1, 0, 1, 1, 1,
		1, 1, 0, 1, 1, 1,
		0, -1, 0, 1, 1, 1,
		1, 1, 0, 1, 1, 1,
		0, 1, 0, 1, 1, 1,
		1, -1, 1, 1, 0, 0,
		2, 0, 1, 0, 1, 0,
		1, 1, 1, 0, 0, 1,
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, r.arrowTpl)
	gl.BufferData(gl.ARRAY_BUFFER, len(tpl)*4, gl.Ptr(tpl), gl.STATIC_DRAW)
	attrib(0, 3, 6, 0, 0)
	attrib(1, 3, 6, 3, 0)

	// bounding sphere: three great circles as GL_LINES
	const seg = 48
	circ := make([]float32, 0, 3*seg*2*3)
	for ax := 0; ax < 3; ax++ {
		for i := 0; i < seg; i++ {
			for _, k := range [2]int{i, i + 1} {
				s, c := math.Sincos(2 * math.Pi * float64(k) / seg)
				p := [3]float32{}
				p[(ax+1)%3], p[(ax+2)%3] = float32(c), float32(s)
				circ = append(circ, p[0], p[1], p[2])
			}
		}
	}
	r.sphereN = int32(len(circ) / 3)
	gl.GenVertexArrays(1, &r.sphereVAO)
	gl.GenBuffers(1, &r.sphereVBO)
	gl.BindVertexArray(r.sphereVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.sphereVBO)
	gl.BufferData(gl.ARRAY_BUFFER, len(circ)*4, gl.Ptr(circ), gl.STATIC_DRAW)
	attrib(0, 3, 3, 0, 0)

	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		err = fmt.Errorf("render: GL error 0x%x during setup", e)
		return nil, err
	}
	return r, nil
}

// Close releases every GL object. The context must still be current.
func (r *Renderer) Close() {
	if r == nil {
		return
	}
	for i := range r.meshes {
		r.freeMesh(&r.meshes[i])
	}
	r.meshes, r.info = nil, nil
	for _, p := range []*program{r.meshProg, r.lineProg, r.markerProg, r.arrowProg, r.gridProg, r.bgProg,
		r.sphereProg, r.chainProg} {
		if p != nil {
			gl.DeleteProgram(p.id)
		}
	}
	r.meshProg, r.lineProg, r.markerProg, r.arrowProg, r.gridProg, r.bgProg = nil, nil, nil, nil, nil, nil
	r.sphereProg, r.chainProg = nil, nil
	vaos := []uint32{r.emptyVAO, r.markerVAO, r.arrowVAO, r.sphereVAO, r.impVAO, r.chainVAO}
	bufs := []uint32{r.instVBO, r.markerTpl, r.markerVBO, r.arrowTpl, r.arrowVBO, r.sphereVBO,
		r.impVBO, r.chainTpl, r.chainVBO}
	for _, v := range vaos {
		if v != 0 {
			gl.DeleteVertexArrays(1, &v)
		}
	}
	for _, b := range bufs {
		if b != 0 {
			gl.DeleteBuffers(1, &b)
		}
	}
	r.emptyVAO, r.markerVAO, r.arrowVAO, r.sphereVAO, r.impVAO, r.chainVAO = 0, 0, 0, 0, 0, 0
	r.instVBO, r.markerTpl, r.markerVBO, r.arrowTpl, r.arrowVBO, r.sphereVBO = 0, 0, 0, 0, 0, 0
	r.impVBO, r.chainTpl, r.chainVBO = 0, 0, 0
}

func (r *Renderer) freeMesh(m *meshGPU) {
	for _, v := range []*uint32{&m.vao, &m.lineVAO} {
		if *v != 0 {
			gl.DeleteVertexArrays(1, v)
		}
	}
	for _, b := range []*uint32{&m.vbo, &m.lineVBO, &m.lineEBO} {
		if *b != 0 {
			gl.DeleteBuffers(1, b)
		}
	}
	*m = meshGPU{}
}

// syncMeshes uploads new or changed meshes of s (cached by index; a mesh is
// re-uploaded when its name or the identity/length of its slices changes).
func (r *Renderer) syncMeshes(s *snap.Snapshot) {
	r.stats.MeshUploads = 0
	if s == nil {
		return
	}
	n := len(s.Meshes)
	for i := n; i < len(r.meshes); i++ {
		r.freeMesh(&r.meshes[i])
	}
	if len(r.meshes) > n {
		r.meshes, r.info = r.meshes[:n], r.info[:n]
	}
	for len(r.meshes) < n {
		r.meshes = append(r.meshes, meshGPU{})
		r.info = append(r.info, meshInfo{})
	}
	for i := range s.Meshes {
		m := &s.Meshes[i]
		k := keyOf(m)
		if r.meshes[i].key == k {
			continue
		}
		r.freeMesh(&r.meshes[i])
		r.meshes[i].key = k
		r.info[i] = meshInfo{}
		cpu := buildMesh(m)
		if len(cpu.tri) == 0 {
			continue
		}
		g := &r.meshes[i]
		g.closed = cpu.closed
		g.nVerts = int32(len(cpu.tri) / meshVertFloats)
		gl.GenVertexArrays(1, &g.vao)
		gl.GenBuffers(1, &g.vbo)
		gl.BindVertexArray(g.vao)
		gl.BindBuffer(gl.ARRAY_BUFFER, g.vbo)
		gl.BufferData(gl.ARRAY_BUFFER, len(cpu.tri)*4, gl.Ptr(cpu.tri), gl.STATIC_DRAW)
		attrib(0, 3, meshVertFloats, 0, 0)
		attrib(1, 3, meshVertFloats, 3, 0)
		attrib(2, 3, meshVertFloats, 6, 0)
		attrib(3, 3, meshVertFloats, 9, 0)
		if len(cpu.lineIdx) > 0 && len(cpu.lineVerts) > 0 {
			g.nLine = int32(len(cpu.lineIdx))
			gl.GenVertexArrays(1, &g.lineVAO)
			gl.GenBuffers(1, &g.lineVBO)
			gl.GenBuffers(1, &g.lineEBO)
			gl.BindVertexArray(g.lineVAO)
			gl.BindBuffer(gl.ARRAY_BUFFER, g.lineVBO)
			gl.BufferData(gl.ARRAY_BUFFER, len(cpu.lineVerts)*4, gl.Ptr(cpu.lineVerts), gl.STATIC_DRAW)
			attrib(0, 3, 3, 0, 0)
			gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, g.lineEBO)
			gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(cpu.lineIdx)*4, gl.Ptr(cpu.lineIdx), gl.STATIC_DRAW)
		}
		gl.BindVertexArray(0)
		r.info[i] = meshInfo{center: cpu.center, valid: true, sphere: strings.HasPrefix(m.Name, "sphere r="),
			radius: maxVertNorm(m.Verts)}
		r.stats.MeshUploads++
	}
}

// ColorRange returns the value range mapped onto Colormap in the last Draw.
func (r *Renderer) ColorRange() (lo, hi float64) { return r.f.lo, r.f.hi }

// Stats returns counters of the last Draw.
func (r *Renderer) Stats() FrameStats { return r.stats }

// arrowFitTau is the time constant (wall seconds) of the continuous arrow re-fit.
const arrowFitTau = 0.5

// Draw renders s into the current framebuffer (width×height pixels) with the
// toggles of v from camera cam. s may be nil (background, grid, gizmo only).
// Unless v.ArrowPinned it also moves v's arrow scale towards the fit of s
// (View.RefitArrows, time constant arrowFitTau).
func (r *Renderer) Draw(s *snap.Snapshot, v *View, cam *Camera, width, height int) {
	if width <= 0 || height <= 0 || r.meshProg == nil || v == nil || cam == nil {
		return
	}
	t0 := time.Now()
	r.prepare(s, v, cam, width, height, t0)
	t := r.endPass(PassPrepare, t0)
	r.drawBackground()
	t = r.endPass(PassBackground, t)
	r.drawBodies(v)
	t = r.endPass(PassBodies, t)
	r.drawSpheres()
	t = r.endPass(PassSpheres, t)
	r.drawLines()
	t = r.endPass(PassLines, t)
	gl.DepthMask(false)
	if v.ShowGrid {
		r.drawGrid(cam, v)
	}
	t = r.endPass(PassGrid, t)
	r.drawTranslucent(s)
	t = r.endPass(PassTranslucent, t)
	r.drawContacts(v, t)
	t = time.Now()
	r.drawChains()
	t = r.endPass(PassChains, t)
	r.drawGizmo(cam)
	r.endPass(PassGizmo, t)

	// leave a plain state for the UI pass
	gl.DepthMask(true)
	gl.Enable(gl.DEPTH_TEST)
	gl.Disable(gl.BLEND)
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gl.UseProgram(0)
	r.stats.Instances = len(r.f.inst) / instFloats
	r.stats.Markers = r.f.nMarkers
	r.stats.Arrows = r.nContactArrows
	r.stats.Spheres = r.f.nSpheres
	r.stats.Chains = r.f.nChains
	r.stats.ChainMean, r.stats.ChainMax, r.stats.ChainThreshold = r.f.chainMean, r.f.chainMax, r.f.chainThr
}

// endPass adds the time since t to pass p and returns now.
func (r *Renderer) endPass(p Pass, t time.Time) time.Time {
	if r.SyncPasses {
		gl.Finish()
	}
	now := time.Now()
	r.stats.Pass[p] += now.Sub(t)
	return now
}

// prepare uploads new meshes, re-fits the arrows, builds the frame on the
// CPU, uploads the instance buffers and sets the camera and the GL state.
func (r *Renderer) prepare(s *snap.Snapshot, v *View, cam *Camera, width, height int, now time.Time) {
	r.syncMeshes(s)
	r.stats = FrameStats{MeshUploads: r.stats.MeshUploads}
	if s != nil && !v.ArrowPinned {
		alpha := 1.0
		if !r.lastFit.IsZero() {
			dt := math.Min(now.Sub(r.lastFit).Seconds(), 10*arrowFitTau)
			alpha = 1 - math.Exp(-dt/arrowFitTau)
		}
		v.refitArrows(s, alpha, &r.fitBuf)
		r.lastFit = now
	}
	r.width, r.height = width, height
	aspect := float64(width) / float64(height)
	cam.Aspect = aspect
	r.f.build(s, v, cam, r.info, width, height)

	upload(gl.ARRAY_BUFFER, r.instVBO, &r.instCap, r.f.inst)
	if r.f.markNew { // unchanged markers stay in their buffer (frame.thinKey)
		upload(gl.ARRAY_BUFFER, r.markerVBO, &r.markerCap, r.f.markers)
	}
	if r.f.sphNew { // unchanged spheres stay in their buffer (frame.sphKey)
		upload(gl.ARRAY_BUFFER, r.impVBO, &r.impCap, r.f.spheres)
	}
	upload(gl.ARRAY_BUFFER, r.chainVBO, &r.chainCap, r.f.chains)
	r.gizmo = r.gizmo[:0]
	r.nGizmo = 0
	if v.ShowAxes {
		r.nGizmo = r.buildGizmo(cam)
	}
	r.nContactArrows = r.f.nArrows
	arrowData := append(r.f.arrows, r.gizmo...)
	r.f.arrows = arrowData[:len(r.f.arrows)]
	upload(gl.ARRAY_BUFFER, r.arrowVBO, &r.arrowCap, arrowData)

	r.vp = cam.ViewProj(aspect)
	r.eye = cam.Eye()
	fwd, right, up := cam.Basis()
	r.up = up
	r.key = fwd.Neg().AddScaled(0.55, up).AddScaled(-0.45, right).Unit()
	r.fill = fwd.Neg().AddScaled(-0.3, up).AddScaled(0.8, right).Unit()

	gl.Viewport(0, 0, int32(width), int32(height))
	gl.Disable(gl.SCISSOR_TEST)
	gl.Disable(gl.CULL_FACE)
	gl.DepthMask(true)
	gl.ClearDepth(1)
	gl.Clear(gl.DEPTH_BUFFER_BIT)
	gl.BlendEquation(gl.FUNC_ADD)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
}

// drawBackground fills the viewport with the gradient (no depth).
func (r *Renderer) drawBackground() {
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.BLEND)
	gl.UseProgram(r.bgProg.id)
	gl.Uniform3f(r.bgProg.u("uTop"), 0.22, 0.24, 0.28)
	gl.Uniform3f(r.bgProg.u("uBottom"), 0.08, 0.085, 0.095)
	gl.BindVertexArray(r.emptyVAO)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	r.stats.DrawCalls++
}

// useMeshProg binds the mesh program with the camera and light uniforms.
func (r *Renderer) useMeshProg() *program {
	mp := r.meshProg
	gl.UseProgram(mp.id)
	gl.UniformMatrix4fv(mp.u("uViewProj"), 1, false, &r.vp[0])
	gl.Uniform3f(mp.u("uEye"), float32(r.eye.X), float32(r.eye.Y), float32(r.eye.Z))
	gl.Uniform3f(mp.u("uKey"), float32(r.key.X), float32(r.key.Y), float32(r.key.Z))
	gl.Uniform3f(mp.u("uFill"), float32(r.fill.X), float32(r.fill.Y), float32(r.fill.Z))
	gl.Uniform1f(mp.u("uInflate"), 0)
	gl.Uniform1f(mp.u("uLit"), 1)
	return mp
}

// drawBodies draws the opaque body meshes, one instanced draw per mesh.
func (r *Renderer) drawBodies(v *View) {
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	mp := r.useMeshProg()
	edge := float32(0)
	if v.ShowEdges {
		edge = 0.85
	}
	gl.Uniform1f(mp.u("uEdge"), edge)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.instVBO)
	for _, c := range r.f.cmds {
		if c.kind != cmdOpaque {
			continue
		}
		g := &r.meshes[c.mesh]
		setCull(g.closed)
		r.drawMesh(g, c)
	}
	gl.Disable(gl.CULL_FACE)
}

// drawSpheres draws the sphere bodies as impostors in one instanced draw.
func (r *Renderer) drawSpheres() {
	if r.f.nSpheres == 0 {
		return
	}
	p := r.sphereProg
	gl.UseProgram(p.id)
	gl.UniformMatrix4fv(p.u("uViewProj"), 1, false, &r.vp[0])
	gl.Uniform3f(p.u("uEye"), float32(r.eye.X), float32(r.eye.Y), float32(r.eye.Z))
	gl.Uniform3f(p.u("uUp"), float32(r.up.X), float32(r.up.Y), float32(r.up.Z))
	gl.Uniform3f(p.u("uKey"), float32(r.key.X), float32(r.key.Y), float32(r.key.Z))
	gl.Uniform3f(p.u("uFill"), float32(r.fill.X), float32(r.fill.Y), float32(r.fill.Z))
	gl.BindVertexArray(r.impVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.impVBO)
	attrib(1, 4, sphereFloats, 0, 1)
	attrib(2, 4, sphereFloats, 4, 1)
	gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(r.f.nSpheres))
	r.stats.DrawCalls++
}

// drawLines draws the unlit lines: bounding spheres and wall outlines,
// depth-tested without depth writes (the shared edge of two walls is blended
// twice rather than raced for by equal depths).
func (r *Renderer) drawLines() {
	gl.Enable(gl.BLEND)
	gl.DepthMask(false)
	defer gl.DepthMask(true)
	lp := r.lineProg
	gl.UseProgram(lp.id)
	gl.UniformMatrix4fv(lp.u("uViewProj"), 1, false, &r.vp[0])
	gl.Uniform1f(lp.u("uAlpha"), 1)
	for _, c := range r.f.cmds {
		switch c.kind {
		case cmdSpheres:
			gl.BindVertexArray(r.sphereVAO)
			gl.BindBuffer(gl.ARRAY_BUFFER, r.instVBO)
			setInstanceAttribs(c.first)
			gl.DrawArraysInstanced(gl.LINES, 0, r.sphereN, int32(c.count))
			r.stats.DrawCalls++
		case cmdOutline:
			r.drawEdgesInstanced(c)
		}
	}
}

// drawTranslucent draws the enabled walls and the skin shells back to front
// without depth writes.
func (r *Renderer) drawTranslucent(s *snap.Snapshot) {
	mp := r.useMeshProg()
	gl.Uniform1f(mp.u("uEdge"), 0)
	for _, c := range r.f.cmds {
		switch c.kind {
		case cmdWall:
			gl.Uniform1f(mp.u("uInflate"), 0)
			gl.Uniform1f(mp.u("uEdge"), 0.6)
			setCull(false)
		case cmdSkin:
			gl.Uniform1f(mp.u("uInflate"), float32(s.SkinGap))
			gl.Uniform1f(mp.u("uEdge"), 0)
			setCull(r.meshes[c.mesh].closed)
		default:
			continue
		}
		r.drawMesh(&r.meshes[c.mesh], c)
	}
	gl.Disable(gl.CULL_FACE)
}

// drawContacts draws the force arrows and contact markers: the parts hidden
// behind bodies ghosted at v.OccludedAlpha (skipped at 0), then the visible
// parts; the time since t goes to PassArrows and PassMarkers.
//
// While one body's contacts are isolated (frame.isolated) its hidden
// markers and arrows are drawn at full opacity and its edges through the
// other bodies (drawXray): a body inside the pile still shows them.
func (r *Renderer) drawContacts(v *View, t time.Time) {
	if r.f.isolated {
		r.drawXray()
	}
	for pass := 0; pass < 2; pass++ {
		alpha := float32(1)
		if pass == 0 {
			if v.OccludedAlpha <= 0 && !r.f.isolated {
				continue
			}
			alpha = min(v.OccludedAlpha, 1)
			if r.f.isolated {
				alpha = 1
			}
			gl.DepthFunc(gl.GREATER)
		} else {
			gl.DepthFunc(gl.LEQUAL)
		}
		if r.nContactArrows > 0 {
			r.drawArrows(&r.vp, float32(r.width), float32(r.height), 0, r.nContactArrows, alpha, 2.5, 14, 6.5)
		}
		t = r.endPass(PassArrows, t)
		r.drawMarkers(v, alpha)
		t = r.endPass(PassMarkers, t)
	}
	gl.DepthFunc(gl.LESS)
}

// drawXray draws the isolated body's feature edges (cmdXray) without the
// depth test, over the bodies in front of it.
func (r *Renderer) drawXray() {
	gl.Disable(gl.DEPTH_TEST)
	defer gl.Enable(gl.DEPTH_TEST)
	gl.Enable(gl.BLEND)
	lp := r.lineProg
	gl.UseProgram(lp.id)
	gl.UniformMatrix4fv(lp.u("uViewProj"), 1, false, &r.vp[0])
	gl.Uniform1f(lp.u("uAlpha"), 1)
	for _, c := range r.f.cmds {
		if c.kind == cmdXray {
			r.drawEdgesInstanced(c)
		}
	}
}

// drawEdgesInstanced draws the edge lines of command c's mesh for its
// instances (outlines, x-ray edges), if the mesh has edges.
func (r *Renderer) drawEdgesInstanced(c drawCmd) {
	g := &r.meshes[c.mesh]
	if g.lineVAO == 0 {
		return
	}
	gl.BindVertexArray(g.lineVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.instVBO)
	setInstanceAttribs(c.first)
	gl.DrawElementsInstanced(gl.LINES, g.nLine, gl.UNSIGNED_INT, nil, int32(c.count))
	r.stats.DrawCalls++
}

// drawMarkers draws every contact marker in one instanced draw.
func (r *Renderer) drawMarkers(v *View, alpha float32) {
	if r.f.nMarkers == 0 {
		return
	}
	p := r.markerProg
	gl.UseProgram(p.id)
	gl.UniformMatrix4fv(p.u("uViewProj"), 1, false, &r.vp[0])
	gl.Uniform2f(p.u("uViewport"), float32(r.width), float32(r.height))
	gl.Uniform3f(p.u("uEye"), float32(r.eye.X), float32(r.eye.Y), float32(r.eye.Z))
	gl.Uniform1f(p.u("uPxScale"), float32(2*r.f.proj.t/float64(r.height)))
	gl.Uniform1f(p.u("uAlpha"), alpha)
	gl.BindVertexArray(r.markerVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.markerVBO)
	attrib(1, 3, markerFloats, 0, 1)
	attrib(2, 4, markerFloats, 3, 1)
	attrib(3, 2, markerFloats, 7, 1)
	gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(r.f.nMarkers))
	r.stats.DrawCalls++
}

// drawChains draws the force chains in one instanced draw, over everything
// else (chains run through the bodies they connect).
func (r *Renderer) drawChains() {
	if r.f.nChains == 0 {
		return
	}
	gl.Disable(gl.DEPTH_TEST)
	gl.Enable(gl.BLEND)
	p := r.chainProg
	gl.UseProgram(p.id)
	gl.UniformMatrix4fv(p.u("uViewProj"), 1, false, &r.vp[0])
	gl.Uniform2f(p.u("uViewport"), float32(r.width), float32(r.height))
	gl.Uniform1f(p.u("uAlpha"), 1)
	gl.BindVertexArray(r.chainVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.chainVBO)
	attrib(1, 3, chainFloats, 0, 1)
	attrib(2, 3, chainFloats, 3, 1)
	attrib(3, 4, chainFloats, 6, 1)
	attrib(4, 1, chainFloats, 10, 1)
	gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(r.f.nChains))
	r.stats.DrawCalls++
	gl.Enable(gl.DEPTH_TEST)
}

// drawGizmo draws the axes in the bottom-left corner.
func (r *Renderer) drawGizmo(cam *Camera) {
	if r.nGizmo == 0 {
		return
	}
	size := int32(min(96, r.height/4, r.width/4))
	gl.Viewport(8, 8, size, size)
	gl.Disable(gl.DEPTH_TEST)
	r.gvp = mgl32.Ortho(-1.25, 1.25, -1.25, 1.25, -5, 5).Mul4(r.gizmoView(cam))
	r.drawArrows(&r.gvp, float32(size), float32(size), r.nContactArrows, r.nGizmo, 1, 2, 9, 5)
	gl.Viewport(0, 0, int32(r.width), int32(r.height))
}

// maxVertNorm is the largest vertex distance from the body origin.
func maxVertNorm(vs []geom.Vec3) float64 {
	var r2 float64
	for _, v := range vs {
		r2 = math.Max(r2, v.Norm2())
	}
	return math.Sqrt(r2)
}

func setCull(on bool) {
	if on {
		gl.Enable(gl.CULL_FACE)
		gl.CullFace(gl.BACK)
		gl.FrontFace(gl.CCW)
	} else {
		gl.Disable(gl.CULL_FACE)
	}
}

func (r *Renderer) drawMesh(g *meshGPU, c drawCmd) {
	if g.vao == 0 || c.count == 0 {
		return
	}
	gl.BindVertexArray(g.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.instVBO)
	setInstanceAttribs(c.first)
	gl.DrawArraysInstanced(gl.TRIANGLES, 0, g.nVerts, int32(c.count))
	r.stats.DrawCalls++
}

func (r *Renderer) drawArrows(vp *mgl32.Mat4, w, h float32, first, n int, alpha, shaft, head, headW float32) {
	p := r.arrowProg
	gl.UseProgram(p.id)
	gl.UniformMatrix4fv(p.u("uViewProj"), 1, false, &vp[0])
	gl.Uniform2f(p.u("uViewport"), w, h)
	gl.Uniform1f(p.u("uShaftPx"), shaft)
	gl.Uniform1f(p.u("uHeadPx"), head)
	gl.Uniform1f(p.u("uHeadWPx"), headW)
	gl.Uniform1f(p.u("uAlpha"), alpha)
	gl.BindVertexArray(r.arrowVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.arrowVBO)
	base := first * arrowFloats
	attrib(2, 3, arrowFloats, base, 1)
	attrib(3, 3, arrowFloats, base+3, 1)
	attrib(4, 4, arrowFloats, base+6, 1)
	gl.DrawArraysInstanced(gl.TRIANGLES, 0, 9, int32(n))
	r.stats.DrawCalls++
}

func (r *Renderer) drawGrid(cam *Camera, v *View) {
	p := r.gridProg
	d := math.Max(cam.Dist, 1e-6)
	step := math.Pow(10, math.Floor(math.Log10(d/4)))
	half := d * 12
	eye := cam.Eye()
	if h := math.Abs(eye.Z - v.GridZ); h > d {
		half = h * 12
	}
	gl.UseProgram(p.id)
	gl.UniformMatrix4fv(p.u("uViewProj"), 1, false, &r.vp[0])
	gl.Uniform2f(p.u("uCenter"), float32(cam.Target.X), float32(cam.Target.Y))
	gl.Uniform1f(p.u("uHalf"), float32(half))
	gl.Uniform1f(p.u("uZ"), float32(v.GridZ))
	gl.Uniform1f(p.u("uStep"), float32(step))
	gl.BindVertexArray(r.emptyVAO)
	gl.DrawArrays(gl.TRIANGLE_STRIP, 0, 4)
	r.stats.DrawCalls++
}

// GizmoAxisColors are the colours of the X, Y and Z axes of the corner gizmo.
var GizmoAxisColors = [3][3]float32{{0.92, 0.32, 0.30}, {0.40, 0.85, 0.35}, {0.35, 0.55, 1.00}}

func (r *Renderer) gizmoView(cam *Camera) mgl32.Mat4 {
	fwd, _, up := cam.Basis()
	return mgl32.LookAtV(v32(fwd.Neg()), mgl32.Vec3{}, v32(up))
}

// buildGizmo appends three axis arrows (far first) to r.gizmo.
func (r *Renderer) buildGizmo(cam *Camera) int {
	fwd, _, _ := cam.Basis()
	order := [3]int{0, 1, 2}
	depth := [3]float64{fwd.X, fwd.Y, fwd.Z} // larger = farther from the viewer
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if depth[order[j]] > depth[order[i]] {
				order[i], order[j] = order[j], order[i]
			}
		}
	}
	for _, a := range order {
		var e [3]float32
		e[a] = 1
		c := GizmoAxisColors[a]
		r.gizmo = append(r.gizmo, 0, 0, 0, e[0], e[1], e[2], c[0], c[1], c[2], 1)
	}
	return 3
}

// Screenshot reads the back buffer (width×height from the lower-left corner)
// and returns it top-down with opaque alpha. Call it before SwapBuffers.
func Screenshot(width, height int) *image.RGBA {
	if width <= 0 || height <= 0 {
		return image.NewRGBA(image.Rect(0, 0, 0, 0))
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadBuffer(gl.BACK)
	gl.ReadPixels(0, 0, int32(width), int32(height), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
	stride := img.Stride
	tmp := make([]byte, stride)
	for y := 0; y < height/2; y++ {
		a := img.Pix[y*stride : (y+1)*stride]
		b := img.Pix[(height-1-y)*stride : (height-y)*stride]
		copy(tmp, a)
		copy(a, b)
		copy(b, tmp)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	return img
}
