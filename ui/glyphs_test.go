package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// inFont reports whether the fonts ui.New loads (imgui's default font,
// AddFontDefault and AddFontDefaultV: GlyphRangesDefault, U+0020–U+00FF)
// draw r; a newline or tab is layout, not a glyph.
func inFont(r rune) bool {
	return r == '\n' || r == '\t' || (r >= 0x20 && r <= 0xFF)
}

// Every string literal the ui's drawing code holds (the inspector's text,
// the plots' legends, the overlays, the panel) is drawable by the loaded
// font: a character outside it shows as "?" (the review found "vertex–face"
// with an en dash in the inspector's hierarchy text). Comments are not
// drawn and are not checked.
func TestDrawnStringsInFont(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "renderer.go" || name == "platform.go" {
			continue // the GL backend's strings are shader names, not drawn
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || (lit.Kind != token.STRING && lit.Kind != token.CHAR) {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return true
			}
			checked++
			for _, r := range s {
				if !inFont(r) {
					t.Errorf("%s: %q holds %q (U+%04X), not in the font (U+0020-U+00FF)", fset.Position(lit.Pos()), s, r, r)
					break
				}
			}
			return true
		})
	}
	if checked < 100 {
		t.Fatalf("only %d string literals checked: the ui's sources were not found", checked)
	}
	t.Logf("%d string literals in the font", checked)
}
