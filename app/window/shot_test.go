package window

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/app"
	"grainlab/render"
	"grainlab/render/mainthread"
	"grainlab/sim/snap"
)

// shotArgs is the default scene cut to 40 tetrapods, 1 s in: the first
// ones have landed, so there are contacts and forces to draw.
var shotArgs = []string{"--time", "1", "--set", "generators.fill.count=40", "--size", "640x400", "--quiet"}

// countColor counts the pixels within tol (per 8-bit channel) of c.
func countColor(img *image.RGBA, c [3]float32, tol int) int {
	want := [3]int{int(math.Round(float64(c[0]) * 255)), int(math.Round(float64(c[1]) * 255)), int(math.Round(float64(c[2]) * 255))}
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		ok := true
		for k := 0; k < 3; k++ {
			if d := int(img.Pix[i+k]) - want[k]; d > tol || d < -tol {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

func countDiff(a, b *image.RGBA, tol int) int {
	n := 0
	for i := 0; i+3 < len(a.Pix) && i+3 < len(b.Pix); i += 4 {
		for k := 0; k < 3; k++ {
			if d := int(a.Pix[i+k]) - int(b.Pix[i+k]); d > tol || d < -tol {
				n++
				break
			}
		}
	}
	return n
}

func distinctColors(img *image.RGBA) int {
	seen := map[[3]uint8]bool{}
	for i := 0; i+3 < len(img.Pix); i += 4 {
		seen[[3]uint8{img.Pix[i], img.Pix[i+1], img.Pix[i+2]}] = true
	}
	return len(seen)
}

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok {
		return r
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

// TestShotDefaultScene runs `grainlab shot` on the default scene and checks
// the picture: right size, not blank, bodies, contact markers and force
// arrows in their colours.
func TestShotDefaultScene(t *testing.T) {
	mainthread.NeedDisplay(t)
	out := filepath.Join(t.TempDir(), "shot.png")
	if d := os.Getenv("GRAINLAB_SHOT_DIR"); d != "" {
		out = filepath.Join(d, "shot.png")
	}
	var stderr bytes.Buffer
	var code int
	onMain(func() {
		code = app.Main(append([]string{"shot", app.DefaultScene, "--out", out}, shotArgs...), &stderr, &stderr)
	})
	if code != app.ExitOK {
		if strings.Contains(stderr.String(), "cannot open a window") {
			mainthread.NoWindow(t, stderr.String())
		}
		t.Fatalf("grainlab shot: exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	img := toRGBA(dec)
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 400 {
		t.Fatalf("size %v, want 640x400", b.Size())
	}

	// the same state again (the simulation is deterministic), drawn without bodies
	s, err := app.Load(app.Options{Scene: app.DefaultScene, Time: 1, Sets: []string{"generators.fill.count=40"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StepTo(1, nil); err != nil {
		t.Fatal(err)
	}
	sn := s.World.Snapshot(nil)
	v := AppView()
	v.AutoArrowScale(sn)
	v.ShowBodies = false
	var noBodies *image.RGBA
	onMain(func() { noBodies, err = RenderShot(sn, ShotOptions{Width: 640, Height: 400, View: &v}) })
	if err != nil {
		t.Fatal(err)
	}

	distinct := distinctColors(img)
	bodies := countDiff(img, noBodies, 12)
	vf := countColor(img, render.KindColors[snap.VF], 10)
	kinds := 0
	for k := snap.ContactKind(0); k < snap.NumContactKinds; k++ {
		kinds += countColor(img, render.KindColors[k], 10)
	}
	normal := countColor(img, render.NormalArrowColor, 12)
	friction := countColor(img, render.FrictionArrowColor, 12)
	t.Logf("%d contacts (%v); %d distinct colours, %d body pixels, %d VF / %d marker pixels, %d normal / %d friction arrow pixels",
		sn.Stats.Contacts, sn.Stats.ByKind, distinct, bodies, vf, kinds, normal, friction)
	if sn.Stats.Contacts == 0 {
		t.Fatal("no contacts at t=1 s: the test scene no longer exercises the overlays")
	}
	if distinct < 200 {
		t.Errorf("blank picture: %d distinct colours", distinct)
	}
	if bodies < 3000 {
		t.Errorf("only %d body pixels", bodies)
	}
	if vf < 40 {
		t.Errorf("only %d pixels of the VF marker colour %v", vf, render.KindColors[snap.VF])
	}
	if normal < 20 {
		t.Errorf("only %d pixels of the normal-force arrow colour %v", normal, render.NormalArrowColor)
	}
	if friction < 3 {
		t.Errorf("only %d pixels of the friction arrow colour %v", friction, render.FrictionArrowColor)
	}
}

func TestShotBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"shot"},
		{"shot", app.DefaultScene},
		{"shot", app.DefaultScene, "--out", "x.png", "--size", "12"},
		{"shot", app.DefaultScene, "--out", "x.png", "--size", "0x100"},
		{"shot", app.DefaultScene, "--out", "x.png", "--time", "-1"},
		{"shot", app.DefaultScene, "--out", "x.png", "--time", "NaN"},
		{"shot", app.DefaultScene, "--out", "x.png", "--camera", "1"},
		{"shot", "no-such-scene", "--out", "x.png"},
		{"view", "no-such-scene"},
		{"view", app.DefaultScene, "--speed", "0"},
	} {
		var out bytes.Buffer
		if code := app.Main(args, &out, &out); code != app.ExitInput {
			t.Errorf("%q: exit %d, want %d: %s", args, code, app.ExitInput, out.String())
		}
	}
	for _, c := range []struct {
		in   string
		w, h int
		ok   bool
	}{{"1280x800", 1280, 800, true}, {" 640X400 ", 640, 400, true}, {"x", 0, 0, false}, {"10x10", 0, 0, false}, {"1e3x5", 0, 0, false}} {
		w, h, err := parseSize(c.in)
		if (err == nil) != c.ok || (c.ok && (w != c.w || h != c.h)) {
			t.Errorf("parseSize(%q) = %d, %d, %v", c.in, w, h, err)
		}
	}
}

// TestShotAtStateTime: a shot at exactly the restart state's time draws
// that state (the packed box is at t = 6 s); an earlier --time is refused
// naming the closed interval [0, T] the state's time must lie in (exit 2).
func TestShotAtStateTime(t *testing.T) {
	restart := "builtin:" + app.DefaultPacked
	var stderr bytes.Buffer
	if code := app.Main([]string{"shot", app.DefaultScene, "--restart", restart, "--time", "5", "--out", filepath.Join(t.TempDir(), "x.png")}, &stderr, &stderr); code != app.ExitInput ||
		!strings.Contains(stderr.String(), "outside [0, 5]") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("--time 5 before the state's 6 s: exit %d, %q; want exit 2 and one line naming [0, 5]", code, stderr.String())
	}
	mainthread.NeedDisplay(t)
	stderr.Reset()
	out := filepath.Join(t.TempDir(), "shot.png")
	var code int
	onMain(func() {
		code = app.Main([]string{"shot", app.DefaultScene, "--restart", restart, "--time", "6", "--size", "320x200", "--quiet", "--out", out}, &stderr, &stderr)
	})
	if code != app.ExitOK {
		if strings.Contains(stderr.String(), "cannot open a window") {
			mainthread.NoWindow(t, stderr.String())
		}
		t.Fatalf("--time 6 at the state's time: exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}
