package scene

import (
	"errors"
	"io/fs"
	"testing"

	"grainlab/assets"
)

// fuzzMaxBodies keeps each FuzzBuild iteration cheap: specs with more bodies
// are not built.
const fuzzMaxBodies = 2000

// FuzzBuild: no scene text and override make parse → override → Build
// panic, and every failure is an *Error that carries a file:line or the
// override it blames. Seeded with every built-in scene, with and without a
// few overrides of extreme values. STL paths resolve in the embedded assets
// only, so the fuzzer reads no file of the machine.
func FuzzBuild(f *testing.F) {
	seeds, _ := fs.Glob(assets.FS, "scenes/*.yaml")
	sets := []string{"", "shapes.cube.size=[1e6,1e-6,1]", "generators.0.count=3", "bodies.0.density=1e-300",
		"contact.default.kn=1e300", "gravity=[0,0,1e300]", "shapes.tetrapod.sides=48", "periodic.x=true"}
	for _, p := range seeds {
		data, _ := fs.ReadFile(assets.FS, p)
		for _, s := range sets {
			f.Add(data, s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		s, err := ParseWithOverrides(data, "fuzz.yaml", sets)
		if err != nil {
			return // FuzzParse checks parse errors
		}
		n := len(s.Bodies)
		for _, g := range s.Generators {
			n += g.Count
		}
		if n > fuzzMaxBodies {
			return
		}
		s.fsys = assets.FS
		w, err := Build(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is not an *Error: %v", err)
			}
			if e.Line <= 0 && e.Set == "" {
				t.Fatalf("error names no line and no override: %v", err)
			}
			return
		}
		if w == nil {
			t.Fatal("nil world without error")
		}
	})
}
