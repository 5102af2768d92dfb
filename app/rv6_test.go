package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"grainlab/sim/world"
)

// r6: the last good state by reference with a renumbering at every list
// build and 1/2/3 workers, with checkpoints and output rows every few
// steps: final.json must equal the one a copy-every-step guard writes
// (Save instead of SaveRef: saveEveryStep).
func TestRV6LastGoodReorder(t *testing.T) {
	m, e := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 64, 1
	t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
	for _, wk := range []string{"1", "2", "3"} {
		for _, extra := range [][]string{nil, {"--checkpoint", "1.34e-6"}, {"--checkpoint", "1e-8"}, {"--set", "output.every=1e-9"}} {
			run := func(save bool) ([]byte, string) {
				saveEveryStep = save
				defer func() { saveEveryStep = false }()
				dir := t.TempDir()
				var stderr bytes.Buffer
				args := append([]string{"run", "sphere-box-soft", "--set", "gravity=[0,0,1e160]", "--workers", wk, "--out", dir, "--quiet"}, extra...)
				code := Main(args, &bytes.Buffer{}, &stderr)
				if code != ExitFailure {
					t.Fatalf("exit %d %s", code, stderr.String())
				}
				b, err := os.ReadFile(filepath.Join(dir, FinalFile))
				if err != nil {
					t.Fatal(err)
				}
				return b, regexp.MustCompile(`step \d+`).FindString(stderr.String())
			}
			a, sa := run(false)
			b, sb := run(true)
			if !bytes.Equal(a, b) || sa != sb {
				t.Errorf("workers %s %v: SaveRef's final.json differs from Save's (%d vs %d bytes) %s %s", wk, extra, len(a), len(b), sa, sb)
			} else {
				fmt.Println("ok", wk, extra, sa, len(a))
			}
		}
	}
}
