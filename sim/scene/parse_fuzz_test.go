package scene

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"grainlab/assets"
)

// FuzzParse: no input (scene text and one override) makes the parser panic,
// and every failure is an *Error. Seeded with the built-in scenes and testdata.
func FuzzParse(f *testing.F) {
	seeds, _ := fs.Glob(assets.FS, "scenes/*.yaml")
	for _, p := range seeds {
		data, _ := fs.ReadFile(assets.FS, p)
		f.Add(data, "")
		f.Add(data, "generators.0.count=3")
	}
	files, _ := filepath.Glob("testdata/*/*.yaml")
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data, "bodies.0.position=[0,0,1]")
	}
	f.Add([]byte("a: &a [*a]\n"), "a.b=1")
	f.Add([]byte("time: 1\nbodies: [*x]\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		s, err := ParseWithOverrides(data, "fuzz.yaml", sets)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is not an *Error: %v", err)
			}
			_ = err.Error()
			return
		}
		if s == nil {
			t.Fatal("nil spec without error")
		}
	})
}
