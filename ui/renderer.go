package ui

import (
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/render"
)

// Renderer is the imgui renderer backend for OpenGL 3.2+ / 4.1 core.
type Renderer struct {
	prog, vao, vbo, ebo, font uint32
	locTex, locProj           int32
	locPos, locUV, locCol     uint32
}

// NewRenderer creates the GL objects and the font atlas texture for the
// current imgui context. A GL context must be current.
func NewRenderer() (*Renderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("ui: gl.Init: %w", err)
	}
	r := &Renderer{}
	prog, err := linkProgram("imgui.vert", "imgui.frag")
	if err != nil {
		return nil, err
	}
	r.prog = prog
	r.locTex = gl.GetUniformLocation(prog, gl.Str("Texture\x00"))
	r.locProj = gl.GetUniformLocation(prog, gl.Str("ProjMtx\x00"))
	r.locPos = uint32(gl.GetAttribLocation(prog, gl.Str("Position\x00")))
	r.locUV = uint32(gl.GetAttribLocation(prog, gl.Str("UV\x00")))
	r.locCol = uint32(gl.GetAttribLocation(prog, gl.Str("Color\x00")))

	var lastVAO, lastBuf, lastTex int32
	gl.GetIntegerv(gl.VERTEX_ARRAY_BINDING, &lastVAO)
	gl.GetIntegerv(gl.ARRAY_BUFFER_BINDING, &lastBuf)
	gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &lastTex)

	gl.GenVertexArrays(1, &r.vao)
	gl.GenBuffers(1, &r.vbo)
	gl.GenBuffers(1, &r.ebo)
	gl.BindVertexArray(r.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.ebo)
	size, posOff, uvOff, colOff := imgui.VertexBufferLayout()
	gl.EnableVertexAttribArray(r.locPos)
	gl.EnableVertexAttribArray(r.locUV)
	gl.EnableVertexAttribArray(r.locCol)
	gl.VertexAttribPointerWithOffset(r.locPos, 2, gl.FLOAT, false, int32(size), uintptr(posOff))
	gl.VertexAttribPointerWithOffset(r.locUV, 2, gl.FLOAT, false, int32(size), uintptr(uvOff))
	gl.VertexAttribPointerWithOffset(r.locCol, 4, gl.UNSIGNED_BYTE, true, int32(size), uintptr(colOff))

	io := imgui.CurrentIO()
	img := io.Fonts().TextureDataRGBA32()
	gl.GenTextures(1, &r.font)
	gl.BindTexture(gl.TEXTURE_2D, r.font)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA, int32(img.Width), int32(img.Height), 0, gl.RGBA, gl.UNSIGNED_BYTE, img.Pixels)
	io.Fonts().SetTextureID(imgui.TextureID(r.font))
	io.SetBackendFlags(io.GetBackendFlags() | imgui.BackendFlagsRendererHasVtxOffset)

	gl.BindVertexArray(uint32(lastVAO))
	gl.BindBuffer(gl.ARRAY_BUFFER, uint32(lastBuf))
	gl.BindTexture(gl.TEXTURE_2D, uint32(lastTex))
	if e := gl.GetError(); e != gl.NO_ERROR {
		r.Close()
		return nil, fmt.Errorf("ui: GL error 0x%x creating the imgui renderer", e)
	}
	return r, nil
}

// Close deletes the GL objects.
func (r *Renderer) Close() {
	if r.font != 0 {
		gl.DeleteTextures(1, &r.font)
		imgui.CurrentIO().Fonts().SetTextureID(0)
	}
	if r.vbo != 0 {
		gl.DeleteBuffers(1, &r.vbo)
	}
	if r.ebo != 0 {
		gl.DeleteBuffers(1, &r.ebo)
	}
	if r.vao != 0 {
		gl.DeleteVertexArrays(1, &r.vao)
	}
	if r.prog != 0 {
		gl.DeleteProgram(r.prog)
	}
	*r = Renderer{}
}

// Render draws data over the current framebuffer; displaySize is the window
// size in screen coordinates, fbSize in pixels. GL state is restored afterwards.
func (r *Renderer) Render(displaySize, fbSize [2]float32, data imgui.DrawData) {
	if !data.Valid() || r.prog == 0 {
		return
	}
	dw, dh := displaySize[0], displaySize[1]
	fw, fh := fbSize[0], fbSize[1]
	if fw <= 0 || fh <= 0 || dw <= 0 || dh <= 0 {
		return
	}
	data.ScaleClipRects(imgui.Vec2{X: fw / dw, Y: fh / dh})

	// back up state
	var lastActiveTex, lastProg, lastTex, lastSampler, lastBuf, lastVAO int32
	var lastPoly [2]int32
	var lastViewport, lastScissor [4]int32
	var lbSrcRGB, lbDstRGB, lbSrcA, lbDstA, lbEqRGB, lbEqA int32
	gl.GetIntegerv(gl.ACTIVE_TEXTURE, &lastActiveTex)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.GetIntegerv(gl.CURRENT_PROGRAM, &lastProg)
	gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &lastTex)
	gl.GetIntegerv(gl.SAMPLER_BINDING, &lastSampler)
	gl.GetIntegerv(gl.ARRAY_BUFFER_BINDING, &lastBuf)
	gl.GetIntegerv(gl.VERTEX_ARRAY_BINDING, &lastVAO)
	gl.GetIntegerv(gl.POLYGON_MODE, &lastPoly[0])
	gl.GetIntegerv(gl.VIEWPORT, &lastViewport[0])
	gl.GetIntegerv(gl.SCISSOR_BOX, &lastScissor[0])
	gl.GetIntegerv(gl.BLEND_SRC_RGB, &lbSrcRGB)
	gl.GetIntegerv(gl.BLEND_DST_RGB, &lbDstRGB)
	gl.GetIntegerv(gl.BLEND_SRC_ALPHA, &lbSrcA)
	gl.GetIntegerv(gl.BLEND_DST_ALPHA, &lbDstA)
	gl.GetIntegerv(gl.BLEND_EQUATION_RGB, &lbEqRGB)
	gl.GetIntegerv(gl.BLEND_EQUATION_ALPHA, &lbEqA)
	blend, cull := gl.IsEnabled(gl.BLEND), gl.IsEnabled(gl.CULL_FACE)
	depth, scissor := gl.IsEnabled(gl.DEPTH_TEST), gl.IsEnabled(gl.SCISSOR_TEST)

	gl.Enable(gl.BLEND)
	gl.BlendEquation(gl.FUNC_ADD)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	gl.Disable(gl.CULL_FACE)
	gl.Disable(gl.DEPTH_TEST)
	gl.Enable(gl.SCISSOR_TEST)
	gl.PolygonMode(gl.FRONT_AND_BACK, gl.FILL)
	gl.Viewport(0, 0, int32(fw), int32(fh))

	pos := data.DisplayPos()
	l, rr, t, b := pos.X, pos.X+dw, pos.Y, pos.Y+dh
	proj := [16]float32{
		2 / (rr - l), 0, 0, 0,
		0, 2 / (t - b), 0, 0,
		0, 0, -1, 0,
		(rr + l) / (l - rr), (t + b) / (b - t), 0, 1,
	}
	gl.UseProgram(r.prog)
	gl.Uniform1i(r.locTex, 0)
	gl.UniformMatrix4fv(r.locProj, 1, false, &proj[0])
	gl.BindSampler(0, 0)
	gl.BindVertexArray(r.vao)

	idxSize := imgui.IndexBufferLayout()
	idxType := uint32(gl.UNSIGNED_SHORT)
	if idxSize == 4 {
		idxType = gl.UNSIGNED_INT
	}
	scale := imgui.Vec2{X: fw / dw, Y: fh / dh}
	for _, list := range data.CommandLists() {
		vb, vbSize := list.VertexBuffer()
		ib, ibSize := list.IndexBuffer()
		if vbSize == 0 || ibSize == 0 {
			continue
		}
		gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
		gl.BufferData(gl.ARRAY_BUFFER, vbSize, vb, gl.STREAM_DRAW)
		gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.ebo)
		gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, ibSize, ib, gl.STREAM_DRAW)
		for _, cmd := range list.Commands() {
			if cmd.HasUserCallback() {
				cmd.CallUserCallback(list)
				continue
			}
			c := cmd.ClipRect() // already scaled to framebuffer pixels
			x0, y0 := (c.X - pos.X*scale.X), (c.Y - pos.Y*scale.Y)
			x1, y1 := (c.Z - pos.X*scale.X), (c.W - pos.Y*scale.Y)
			if x1 <= x0 || y1 <= y0 {
				continue
			}
			gl.Scissor(int32(x0), int32(fh-y1), int32(x1-x0), int32(y1-y0))
			gl.BindTexture(gl.TEXTURE_2D, uint32(cmd.TextureID()))
			gl.DrawElementsBaseVertexWithOffset(gl.TRIANGLES, int32(cmd.ElementCount()), idxType,
				uintptr(cmd.IndexOffset()*idxSize), int32(cmd.VertexOffset()))
		}
	}

	// restore state
	gl.UseProgram(uint32(lastProg))
	gl.BindTexture(gl.TEXTURE_2D, uint32(lastTex))
	gl.BindSampler(0, uint32(lastSampler))
	gl.ActiveTexture(uint32(lastActiveTex))
	gl.BindVertexArray(uint32(lastVAO))
	gl.BindBuffer(gl.ARRAY_BUFFER, uint32(lastBuf))
	gl.BlendEquationSeparate(uint32(lbEqRGB), uint32(lbEqA))
	gl.BlendFuncSeparate(uint32(lbSrcRGB), uint32(lbDstRGB), uint32(lbSrcA), uint32(lbDstA))
	setEnabled(gl.BLEND, blend)
	setEnabled(gl.CULL_FACE, cull)
	setEnabled(gl.DEPTH_TEST, depth)
	setEnabled(gl.SCISSOR_TEST, scissor)
	gl.PolygonMode(gl.FRONT_AND_BACK, uint32(lastPoly[0]))
	gl.Viewport(lastViewport[0], lastViewport[1], lastViewport[2], lastViewport[3])
	gl.Scissor(lastScissor[0], lastScissor[1], lastScissor[2], lastScissor[3])
}

func setEnabled(cap uint32, on bool) {
	if on {
		gl.Enable(cap)
	} else {
		gl.Disable(cap)
	}
}

func linkProgram(vert, frag string) (uint32, error) { return render.LinkProgram(vert, frag) }
