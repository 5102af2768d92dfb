// Package assets embeds the built-in scenes (scenes/*.yaml) and the meshes
// they reference (meshes/*.stl). Scene paths such as "meshes/tetrapod.stl"
// resolve inside FS.
package assets

import "embed"

// FS holds scenes/ and meshes/. meshes/ is embedded with all: so that its
// .keep placeholder keeps the pattern valid before any mesh exists.
//
//go:embed scenes all:meshes
var FS embed.FS
