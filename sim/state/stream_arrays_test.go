package state

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The per-sphere arrays of a final.json (sphere_order, verlet_ref,
// verlet_rad: 5000 spheres in spatial order) streamed a number at a time
// give the bytes of their encoding in the history's head, byte for byte;
// so do those of a run in body order (218 spheres, the reference alone).
func TestStreamArraysSameBytes(t *testing.T) {
	big := []string{"generators[0].count=5000", "generators[0].region.max=[0.0361,0.0361,0.0722]", "walls[0].max=[0.0361,0.0361,0.0722]"}
	for _, c := range []struct {
		sets    []string
		ordered bool
	}{{big, true}, {nil, false}} {
		w, end := started(t, "sphere-box-soft", c.sets...)
		toLazy(t, w, 0.03, end)
		if o, _ := w.SphereOrder(); o != c.ordered {
			t.Fatalf("%v: ordered %v, want %v", c.sets, o, c.ordered)
		}
		dir := t.TempDir()
		write := func(min int, name string) []byte {
			m := streamArrayMin
			streamArrayMin = min
			defer func() { streamArrayMin = m }()
			p := filepath.Join(dir, name)
			if err := WriteInPlace(p, w); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		streamed, whole := write(1, "a.json"), write(math.MaxInt, "b.json")
		if !bytes.Equal(streamed, whole) {
			i := 0
			for i < len(streamed) && i < len(whole) && streamed[i] == whole[i] {
				i++
			}
			t.Fatalf("%v: streamed arrays: %d bytes, in the head %d: first difference at byte %d", c.sets, len(streamed), len(whole), i)
		}
		for _, key := range []string{`"verlet_ref"`, `"verlet_rad"`} {
			if !bytes.Contains(whole, []byte(key)) {
				t.Fatalf("%v: no %s: the case is void", c.sets, key)
			}
		}
		if bytes.Contains(whole, []byte(`"sphere_order"`)) != c.ordered {
			t.Fatalf("%v: sphere_order written: %v, want %v", c.sets, !c.ordered, c.ordered)
		}
	}
}
