//go:build !amd64 || purego || amd64.v3

package contact

// edgeEdges is edgeEdgesGo (on amd64 below GOAMD64=v3, its loop in SSE2
// assembly: edge_amd64.s).
func edgeEdges(a, b *Posed, ee [][2]int32, dee []float64, lim, gbar float64, out []Contact) []Contact {
	return edgeEdgesGo(a, b, ee, dee, lim, gbar, out)
}

// edgeAsm reports whether edgeEdges runs the assembly.
const edgeAsm = false
