package render

import (
	"github.com/go-gl/gl/v4.1-core/gl"

	"grainlab/sim/snap"
)

// GhostColor is the colour of the comparison run's bodies (the ghost
// overlay of two integrators side by side, issue 18 item 7).
var GhostColor = [3]float32{0.30, 0.85, 1.00}

// GhostAlpha is the ghost bodies' opacity.
const GhostAlpha = 0.5

// DrawGhost draws the free bodies of g — a second run of the scene drawn
// last by Draw — as translucent GhostColor bodies over the frame Draw left,
// from the same camera. It must follow Draw in the same frame: it reuses
// Draw's uploaded meshes (a body of g takes the mesh of the same index when
// its name and size match; other bodies are skipped) and depth buffer. The
// ghost is depth-tested against the drawn bodies with a small offset away
// from the camera, so a ghost body that coincides with its counterpart
// leaves the frame unchanged and only the differences show. It returns the
// number of ghost bodies drawn.
func (r *Renderer) DrawGhost(g *snap.Snapshot, v *View, cam *Camera, width, height int) int {
	if g == nil || v == nil || cam == nil || !v.ShowBodies || width <= 0 || height <= 0 || r.meshProg == nil {
		return 0
	}
	// instances grouped by mesh, in Draw's instance layout
	inst := make([]float32, 0, instFloats*len(g.Bodies))
	type run struct{ mesh, first, count int }
	var runs []run
	col := rgba(GhostColor, GhostAlpha)
	for m := range g.Meshes {
		if m >= len(r.meshes) || r.meshes[m].vao == 0 || !sameMesh(r.meshes[m].key, &g.Meshes[m]) {
			continue
		}
		first := len(inst) / instFloats
		for i := range g.Bodies {
			if b := &g.Bodies[i]; b.Mesh == m && !b.Fixed && b.Pos.IsFinite() {
				inst = appendModel(inst, b.Pos, b.Rot, 1, col)
			}
		}
		if n := len(inst)/instFloats - first; n > 0 {
			runs = append(runs, run{m, first, n})
		}
	}
	if len(runs) == 0 {
		return 0
	}
	// Draw's instance buffer is free again once Draw has issued its calls
	upload(gl.ARRAY_BUFFER, r.instVBO, &r.instCap, inst)

	aspect := float64(width) / float64(height)
	vp := cam.ViewProj(aspect)
	eye := cam.Eye()
	fwd, right, up := cam.Basis()
	key := fwd.Neg().AddScaled(0.55, up).AddScaled(-0.45, right).Unit() // Draw's lights
	fill := fwd.Neg().AddScaled(-0.3, up).AddScaled(0.8, right).Unit()

	gl.Viewport(0, 0, int32(width), int32(height))
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	gl.DepthMask(false)
	gl.Enable(gl.BLEND)
	gl.BlendEquation(gl.FUNC_ADD)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	gl.Enable(gl.POLYGON_OFFSET_FILL)
	gl.PolygonOffset(2, 4) // behind its coincident counterpart: only the differences show
	mp := r.meshProg
	gl.UseProgram(mp.id)
	gl.UniformMatrix4fv(mp.u("uViewProj"), 1, false, &vp[0])
	gl.Uniform3f(mp.u("uEye"), float32(eye.X), float32(eye.Y), float32(eye.Z))
	gl.Uniform3f(mp.u("uKey"), float32(key.X), float32(key.Y), float32(key.Z))
	gl.Uniform3f(mp.u("uFill"), float32(fill.X), float32(fill.Y), float32(fill.Z))
	gl.Uniform1f(mp.u("uInflate"), 0)
	gl.Uniform1f(mp.u("uLit"), 1)
	gl.Uniform1f(mp.u("uEdge"), 0.5)
	for _, c := range runs {
		g := &r.meshes[c.mesh]
		setCull(g.closed) // one translucent layer per closed body
		r.drawMesh(g, drawCmd{kind: cmdOpaque, mesh: c.mesh, first: c.first, count: c.count})
	}
	n := len(inst) / instFloats

	// leave Draw's final state for the UI pass
	gl.Disable(gl.POLYGON_OFFSET_FILL)
	gl.Disable(gl.CULL_FACE)
	gl.DepthMask(true)
	gl.Disable(gl.BLEND)
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gl.UseProgram(0)
	return n
}

// sameMesh reports whether the uploaded mesh k has the content size and
// name of m (the same scene builds its meshes in the same order).
func sameMesh(k meshKey, m *snap.Mesh) bool {
	return k.name == m.Name && k.nVerts == len(m.Verts) && k.nTris == len(m.Tris)
}
