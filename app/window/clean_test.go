package window

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// bodyBox is the bounding box of the pixels where a and b differ (b drawn
// without bodies), their count and their mean luminance in a (0..255).
func bodyBox(a, b *image.RGBA) (box image.Rectangle, n int, lum float64) {
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			if a.RGBAAt(x, y) != b.RGBAAt(x, y) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
				n++
				c := a.RGBAAt(x, y)
				lum += (float64(c.R) + float64(c.G) + float64(c.B)) / 3
			}
		}
	}
	if n > 0 {
		lum /= float64(n)
	}
	return box, n, lum
}

// TestCleanModeFramesWindow: clean mode (C) frames the bodies in the whole
// window, not in the part the panel left free: the bodies' pixel bounding
// box is centred in the 800×500 window within 10 % of its size (framed for
// the panel it sat about a panel half-width, ~19 %, left of the centre).
// Leaving clean mode with the camera unmoved restores the panel's framing.
func TestCleanModeFramesWindow(t *testing.T) {
	withWindow(t, smallScene("8"), 800, 500, func(w *window, fail func(string, ...any)) {
		w.shotFrame()
		w.fit(w.shown) // framed for the panel, as at start
		before := *w.cam
		w.key(glfw.KeyC, 0, glfw.Press, 0)
		with := w.shotFrame()
		w.view.ShowBodies, w.view.ShowChains = false, false
		without := w.shotFrame()
		w.view.ShowBodies, w.view.ShowChains = true, true
		if d := os.Getenv("GRAINLAB_SHOT_DIR"); d != "" {
			writePNG(filepath.Join(d, "clean-800x500.png"), with)
		}
		box, n, lum := bodyBox(with, without)
		W, H := with.Rect.Dx(), with.Rect.Dy()
		cx, cy := float64(box.Min.X+box.Max.X)/2, float64(box.Min.Y+box.Max.Y)/2
		dx, dy := (cx-float64(W)/2)/float64(W), (cy-float64(H)/2)/float64(H)
		t.Logf("clean mode: %d body pixels (mean luminance %.0f) in %v of %d×%d; centre off by %.1f %% and %.1f %%", n, lum, box, W, H, 100*dx, 100*dy)
		if n < 200 || dx < -0.1 || dx > 0.1 || dy < -0.1 || dy > 0.1 {
			fail("clean mode: %d body pixels in %v, centre off by %.1f %% × %.1f %% of the %d×%d window (want within 10 %%)", n, box, 100*dx, 100*dy, W, H)
		}
		w.key(glfw.KeyC, 0, glfw.Press, 0)
		if *w.cam != before {
			fail("leaving clean mode: camera %+v, want the one before %+v", *w.cam, before)
		}
	})
}
