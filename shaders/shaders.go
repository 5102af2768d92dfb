// Package shaders embeds the GLSL sources of the renderer and the imgui backend.
package shaders

import (
	"embed"
	"fmt"
)

//go:embed *.vert *.frag
var files embed.FS

// Source returns the text of the shader file name (for example "mesh.vert").
func Source(name string) (string, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("shaders: %w", err)
	}
	return string(b), nil
}
