package render

import (
	"math"
	"slices"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// ColorBy selects what the body colour encodes.
type ColorBy int

const (
	// ColorNone paints bodies in a neutral per-body tint.
	ColorNone ColorBy = iota
	// ColorSpeed maps |v| (m/s) through Colormap.
	ColorSpeed
	// ColorForce maps Body.ContactForce, the sum of the magnitudes of the
	// contact forces on the body (N), through Colormap.
	ColorForce
)

// ColorByNames are display names of the ColorBy values, indexed by value.
var ColorByNames = []string{"none", "speed |v|", "contact force Σ|F|"}

// ContactKey identifies a contact across snapshots (indices change every step).
type ContactKey struct {
	A, B         int
	FeatA, FeatB int32
	Kind         snap.ContactKind
}

// KeyOf returns the key of contact c.
func KeyOf(c *snap.Contact) ContactKey {
	return ContactKey{A: c.A, B: c.B, FeatA: c.FeatA, FeatB: c.FeatB, Kind: c.Kind}
}

// FindContact returns the index of the contact with key k in s, or −1.
func FindContact(s *snap.Snapshot, k ContactKey) int {
	if s == nil {
		return -1
	}
	for i := range s.Contacts {
		c := &s.Contacts[i]
		if c.A == k.A && c.B == k.B && c.FeatA == k.FeatA && c.FeatB == k.FeatB && c.Kind == k.Kind {
			return i
		}
	}
	return -1
}

// View holds every display toggle; the panel edits it directly.
type View struct {
	ShowBodies, ShowWalls, ShowGrid, ShowAxes bool
	ShowEdges                                 bool // dark feature edges on bodies
	ShowContacts                              bool // contact markers
	ShowSuppressed                            bool // suppressed contacts in grey
	KindFilter                                [snap.NumContactKinds]bool
	ShowNormal, ShowFriction                  bool    // force arrow parts
	ArrowScale                                float64 // arrow length per newton (m/N)
	LogArrows                                 bool    // L = ArrowScale·ArrowRef·ln(1+|F|/ArrowRef)
	ArrowRef                                  float64 // knee of the log mapping (N)
	ShowSpheres                               bool    // bounding spheres (wireframe)
	ShowSkin                                  bool    // contact-skin shell inflated by SkinGap
	ColorBy                                   ColorBy
	AutoRange                                 bool       // colour range from the current snapshot
	Range                                     [2]float64 // manual colour range when !AutoRange
	MarkerPx                                  float32    // contact marker radius in pixels
	OccludedAlpha                             float32    // opacity of hidden markers/arrows (0 hides them)
	WallAlpha                                 float32    // opacity of enabled walls
	GridZ                                     float64    // height of the ground grid

	ThinMarkers bool // markers sized by the bodies' screen size and at most one per marker-sized screen cell
	WallOutline bool // enabled walls drawn as faint outlines once the bodies are inside them

	ArrowPinned bool // keep ArrowScale; otherwise Renderer.Draw re-fits it continuously (RefitArrows)

	ShowChains     bool    // force chains: lines between the centres of contacting bodies
	ChainThreshold float64 // chains are drawn above this pair normal force (N); ≤ 0: the mean pair force
	ChainWidthPx   float32 // line width of the strongest chain (px)

	SpringActive bool      // draw the Ctrl-drag spring from SpringFrom to SpringTo
	SpringFrom   geom.Vec3 // attachment point on the body (world)
	SpringTo     geom.Vec3 // mouse point (world)

	SelectedBody       int        // body index or −1
	SelectedContact    ContactKey // valid when HasSelectedContact
	HasSelectedContact bool
}

// DefaultView returns the toggles a fresh window starts with.
func DefaultView() View {
	v := View{
		ShowBodies: true, ShowWalls: true, ShowGrid: true, ShowAxes: true, ShowEdges: true,
		ShowContacts: true, ShowNormal: true, ShowFriction: true,
		ArrowScale: 1e-3, ArrowRef: 1,
		AutoRange: true, Range: [2]float64{0, 1},
		MarkerPx: 5, OccludedAlpha: 0, WallAlpha: 0.22,
		ThinMarkers: true, WallOutline: true, ChainWidthPx: 6,
		SelectedBody: -1,
	}
	for k := range v.KindFilter {
		v.KindFilter[k] = true
	}
	return v
}

// SelectContact selects contact i of s (−1 clears the contact selection).
func (v *View) SelectContact(s *snap.Snapshot, i int) {
	if s == nil || i < 0 || i >= len(s.Contacts) {
		v.HasSelectedContact = false
		return
	}
	v.SelectedContact = KeyOf(&s.Contacts[i])
	v.HasSelectedContact = true
}

// SelectedContactIndex resolves the selected contact in s (−1 when absent).
func (v *View) SelectedContactIndex(s *snap.Snapshot) int {
	if !v.HasSelectedContact {
		return -1
	}
	return FindContact(s, v.SelectedContact)
}

// ContactVisible reports whether contact c passes the kind and suppression filters.
func (v *View) ContactVisible(c *snap.Contact) bool {
	if c.Suppressed && !v.ShowSuppressed {
		return false
	}
	return int(c.Kind) < len(v.KindFilter) && v.KindFilter[c.Kind]
}

// ArrowLength maps a force magnitude (N) to an arrow length (m).
func (v *View) ArrowLength(mag float64) float64 {
	if !(mag > 0) || math.IsInf(mag, 0) {
		return 0
	}
	if v.LogArrows {
		ref := v.ArrowRef
		if !(ref > 0) {
			ref = 1
		}
		return v.ArrowScale * ref * math.Log1p(mag/ref)
	}
	return v.ArrowScale * mag
}

// Arrow fit: the force drawn ArrowFitLength mean body radii long is the
// ArrowFitQuantile of the contact force magnitudes max(|Fn|, |Ft|), so that
// one outlier neither shrinks the other arrows nor vanishes them; the log
// mapping's knee ArrowRef is the median.
const (
	ArrowFitQuantile = 0.9
	ArrowFitLength   = 1.5
	arrowFitSamples  = 4096 // contacts sampled (evenly strided) for the quantiles
	// arrowFitSnap: a re-fit within this log ratio of the fit takes it
	// exactly (0.1 % of an arrow's length), so that a still snapshot's
	// scale stops moving and its arrows are not rebuilt every frame
	// (frame.thinKey)
	arrowFitSnap = 1e-3
)

// ArrowFit returns the arrow scale and knee that AutoArrowScale would set for
// s (log selects the logarithmic mapping); ok is false without bodies or forces.
func ArrowFit(s *snap.Snapshot, log bool) (scale, ref float64, ok bool) {
	var b fitBuf
	return b.fit(s, log)
}

// fitBuf holds ArrowFit's scratch slices (the renderer reuses one per frame).
type fitBuf struct {
	walls []bool
	fs    []float64
}

func (b *fitBuf) fit(s *snap.Snapshot, log bool) (scale, ref float64, ok bool) {
	if s == nil {
		return 0, 0, false
	}
	b.walls = wallMask(s, b.walls)
	walls := b.walls
	var rsum float64
	var n int
	for i := range s.Bodies {
		if !walls[i] && s.Bodies[i].Radius > 0 {
			rsum += s.Bodies[i].Radius
			n++
		}
	}
	if n == 0 || len(s.Contacts) == 0 {
		return 0, 0, false
	}
	stride := max(1, len(s.Contacts)/arrowFitSamples)
	fs := b.fs[:0]
	defer func() { b.fs = fs }()
	for i := 0; i < len(s.Contacts); i += stride {
		c := &s.Contacts[i]
		if c.Suppressed {
			continue
		}
		f := math.Max(math.Abs(c.Fn), c.Ft.Norm())
		if f > 0 && !math.IsInf(f, 0) {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return 0, 0, false
	}
	slices.Sort(fs)
	ref = fs[len(fs)/2]
	fq := fs[min(len(fs)-1, int(ArrowFitQuantile*float64(len(fs))))]
	target := ArrowFitLength * rsum / float64(n)
	if log {
		return target / (ref * math.Log1p(fq/ref)), ref, true
	}
	return target / fq, ref, true
}

// AutoArrowScale sets ArrowScale (and ArrowRef) from ArrowFit; it keeps them
// when s has no forces.
func (v *View) AutoArrowScale(s *snap.Snapshot) {
	if sc, ref, ok := ArrowFit(s, v.LogArrows); ok {
		v.ArrowScale, v.ArrowRef = sc, ref
	}
}

// RefitArrows moves ArrowScale and ArrowRef a fraction alpha ∈ [0, 1] of the
// way (geometrically) towards ArrowFit of s, unless ArrowPinned: called every
// frame, it follows the forces smoothly (a settling pile keeps visible arrows).
func (v *View) RefitArrows(s *snap.Snapshot, alpha float64) {
	var b fitBuf
	v.refitArrows(s, alpha, &b)
}

func (v *View) refitArrows(s *snap.Snapshot, alpha float64, b *fitBuf) {
	if v.ArrowPinned || !(alpha > 0) {
		return
	}
	sc, ref, ok := b.fit(s, v.LogArrows)
	if !ok {
		return
	}
	alpha = math.Min(alpha, 1)
	lerp := func(old, new float64) float64 {
		d := math.Log(new) - math.Log(old)
		if !(old > 0) || math.IsInf(old, 0) || alpha == 1 || math.Abs(d) < arrowFitSnap {
			return new
		}
		return math.Exp(math.Log(old) + alpha*d)
	}
	v.ArrowScale, v.ArrowRef = lerp(v.ArrowScale, sc), lerp(v.ArrowRef, ref)
}

// wallMask returns, in buf (grown as needed), which bodies are walls.
func wallMask(s *snap.Snapshot, buf []bool) []bool {
	n := len(s.Bodies)
	if cap(buf) < n {
		buf = make([]bool, n)
	}
	buf = buf[:n]
	clear(buf)
	for i := range s.Walls {
		if b := s.Walls[i].Body; b >= 0 && b < n {
			buf[b] = true
		}
	}
	return buf
}
