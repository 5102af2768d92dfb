// Package assets embeds the built-in scenes (scenes/*.yaml), the meshes
// they reference (meshes/*.stl) and saved packed states (states/*.json, the
// final.json of a fill run) that benchmarks and the window start from. Scene
// paths such as "meshes/tetrapod.stl" resolve inside FS.
package assets

import "embed"

// FS holds scenes/, meshes/ and states/ (the latter two with all: so that
// their .keep placeholders keep the patterns valid).
//
//go:embed scenes all:meshes all:states
var FS embed.FS
