package render

// MeshGLNames returns the GL buffer and vertex-array names the renderer
// holds for its meshes (tests check that replaced meshes free theirs).
func MeshGLNames(r *Renderer) (buffers, arrays []uint32) {
	for i := range r.meshes {
		g := &r.meshes[i]
		for _, b := range []uint32{g.vbo, g.lineVBO, g.lineEBO} {
			if b != 0 {
				buffers = append(buffers, b)
			}
		}
		for _, a := range []uint32{g.vao, g.lineVAO} {
			if a != 0 {
				arrays = append(arrays, a)
			}
		}
	}
	return buffers, arrays
}
