package render

import (
	"math"

	"grainlab/sim/snap"
)

// KindColors are the contact-marker colours (linear RGB) per snap.ContactKind.
var KindColors = [snap.NumContactKinds][3]float32{
	snap.VF: {0.20, 0.55, 1.00}, // blue
	snap.EE: {1.00, 0.25, 0.85}, // magenta
	snap.VE: {1.00, 0.90, 0.10}, // yellow
	snap.VV: {1.00, 0.15, 0.15}, // red
	snap.SQ: {0.15, 0.90, 0.35}, // green
}

// SuppressedColor is the marker colour of suppressed contacts.
var SuppressedColor = [3]float32{0.55, 0.55, 0.55}

// NormalArrowColor is the colour of the normal-force part of a contact arrow.
var NormalArrowColor = [3]float32{1.00, 0.50, 0.00} // orange

// FrictionArrowColor is the colour of the friction part of a contact arrow.
var FrictionArrowColor = [3]float32{0.00, 0.95, 0.95} // cyan

// SpringColor is the colour of the Ctrl-drag spring arrow.
var SpringColor = [3]float32{1.00, 1.00, 1.00}

// BodyColor is the base colour of free bodies when ColorBy is ColorNone.
var BodyColor = [3]float32{0.74, 0.70, 0.64}

// FixedBodyColor is the base colour of fixed (non-wall) bodies.
var FixedBodyColor = [3]float32{0.45, 0.48, 0.55}

// SelectedColor tints the selected body.
var SelectedColor = [3]float32{1.00, 0.78, 0.20}

// WallColor is the colour of walls (translucent or outlined when enabled,
// dimly outlined when disabled).
var WallColor = [3]float32{0.55, 0.68, 0.85}

// WallOutlineAlpha is the opacity of enabled walls drawn as outlines (View.WallOutline).
const WallOutlineAlpha = 0.35

// DisabledWallAlpha is the opacity of disabled walls' outlines, drawn only
// while enabled walls are translucent (View.WallOutline off): below
// View.WallAlpha's default, so a removed wall is the faintest wall drawn.
const DisabledWallAlpha = 0.12

// ChainColors are the force-chain colours at the threshold (0) and at the
// largest pair force (1); ChainColor interpolates them.
var ChainColors = [2][3]float32{{1.00, 0.80, 0.25}, {0.95, 0.12, 0.05}}

// ChainColor returns the force-chain colour for t = F/F_max ∈ [0, 1] (clamped).
func ChainColor(t float64) [3]float32 {
	t = math.Max(0, math.Min(1, t))
	if math.IsNaN(t) {
		t = 0
	}
	var c [3]float32
	for k := range c {
		c[k] = ChainColors[0][k] + float32(t)*(ChainColors[1][k]-ChainColors[0][k])
	}
	return c
}

// SkinColor is the colour of the contact-skin shell overlay.
var SkinColor = [3]float32{0.40, 0.95, 0.85}

// SphereColor is the colour of bounding-sphere wireframes.
var SphereColor = [3]float32{0.85, 0.85, 0.55}

// viridis polynomial fit (degree 6) per channel, after Matt Zucker's fit.
var vc0 = [3]float64{0.2777273272234177, 0.005407344544966578, 0.3340998053353061}
var vc1 = [3]float64{0.1050930431085774, 1.404613529898575, 1.384590162594685}
var vc2 = [3]float64{-0.3308618287255563, 0.214847559468213, 0.09509516302823659}
var vc3 = [3]float64{-4.634230498983486, -5.799100973351585, -19.33244095627987}
var vc4 = [3]float64{6.228269936347081, 14.17993336680509, 56.69055260068105}
var vc5 = [3]float64{4.776384997670288, -13.74514537774601, -65.35303263337234}
var vc6 = [3]float64{-5.435455855934631, 4.645852612178535, 26.3124352495832}

// Colormap maps t ∈ [0,1] (clamped; NaN → 0) to a viridis-like RGB colour.
func Colormap(t float64) [3]float32 {
	if !(t > 0) {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	var out [3]float32
	for i := 0; i < 3; i++ {
		v := vc0[i] + t*(vc1[i]+t*(vc2[i]+t*(vc3[i]+t*(vc4[i]+t*(vc5[i]+t*vc6[i])))))
		out[i] = float32(math.Min(1, math.Max(0, v)))
	}
	return out
}

// bodyScalar is the value ColorBy maps for body b.
func bodyScalar(by ColorBy, b *snap.Body) float64 {
	switch by {
	case ColorSpeed:
		return b.Vel.Norm()
	case ColorForce:
		return b.ContactForce
	}
	return 0
}

// ScalarRange returns the automatic colour range of the non-wall bodies of s
// for by: [0, max] (or [min, max] when min < 0), never empty.
func ScalarRange(s *snap.Snapshot, by ColorBy) (lo, hi float64) {
	if s == nil || by == ColorNone {
		return 0, 1
	}
	return scalarRange(s, by, wallMask(s, nil))
}

func scalarRange(s *snap.Snapshot, by ColorBy, walls []bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range s.Bodies {
		if walls[i] {
			continue
		}
		x := bodyScalar(by, &s.Bodies[i])
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		lo = math.Min(lo, x)
		hi = math.Max(hi, x)
	}
	if lo > hi {
		return 0, 1
	}
	if lo > 0 {
		lo = 0
	}
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// hashTint returns a small deterministic brightness variation for body i.
func hashTint(i int) float32 {
	x := uint32(i)*2654435761 + 0x9e3779b9
	x ^= x >> 15
	x *= 0x85ebca6b
	x ^= x >> 13
	return 0.86 + 0.22*float32(x&0xffff)/65535
}
