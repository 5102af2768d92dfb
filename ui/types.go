// Package ui holds the imgui-go backends for GLFW and OpenGL 3.2+/4.1 core and
// the Grainlab control panel. The panel's logic (edit buffers and validation,
// ring buffers, formatting) needs no GL context and is unit-tested headless.
package ui

import (
	"grainlab/render"
	"grainlab/sim/law"
	"grainlab/sim/snap"
)

// LawParams is the polyhedral contact law the panel shows and edits: its
// numbers are those of the embedded law.Set, read and written through
// law.Params' accessors (a parameter added to the table needs no edit
// here); the law's name is Kind.
type LawParams struct {
	Kind     string  // law name, one of PanelInput.LawKinds (Set.Normal.Kind is not read)
	law.Set          // the barrier law and friction (S0 eq. 49–57); Smooth unused
	Eps2, C2 float64 // derived by the law (read-only in the panel)
}

// Material mirrors the smooth shape (sphere or superquadric, S1 eq. 1) of
// one material's bodies; the Shapes section edits it.
type Material struct {
	Index   int     // material index in the world
	Name    string  // material name
	Kind    string  // "sphere" or "superquadric"; "" (polyhedra) is not shown
	Count   int     // bodies of this material with the shape
	A, B, C float64 // half-lengths (m)
	N1, N2  float64 // blockiness exponents (2 = ellipsoid, large = box)
	// Varied: the bodies are not all of this shape (polydisperse); the
	// half-lengths are the first body's, and an edit scales every body's by
	// the same factors, keeping each one's size relative to the first.
	Varied bool
}

// MaterialEdit is a validated change of the shape of material Index
// (Material.Index).
type MaterialEdit struct {
	Index    int
	Material Material
}

// SmoothLaw is the spring–dashpot law of smooth bodies (spheres,
// superquadrics) of the default material pair: the embedded law.Set's
// Smooth, read and written through law.Params' accessors; the model's name
// is Model. Which fields apply depends on Model (law.Param.Models).
type SmoothLaw struct {
	Model   string // law.SmoothModel's name (Set.Smooth.Model is not read)
	law.Set        // Smooth; the polyhedral parts unused
}

// ParamEdit is one validated contact-parameter change by scene key
// (contact.default.<Key>, see world.SetParam).
type ParamEdit struct {
	Key   string
	Value float64
}

// WallToggle requests enabling or disabling wall Index (Name for logging).
type WallToggle struct {
	Index   int
	Name    string
	Enabled bool
}

// PanelInput is everything the panel reads in one frame.
type PanelInput struct {
	Snap          *snap.Snapshot // snapshot shown (latest, or a past frame), may be nil
	Live          *snap.Snapshot // newest snapshot for the plots when Snap is a past frame (nil: Snap)
	HasCursor     bool           // Snap is a past frame: the plots show a cursor at Cursor
	Cursor        float64        // its time (s)
	View          *render.View   // edited in place by the View section
	Camera        *render.Camera // the 3D view's camera: the inspector draws the selected contact's features with it (nil: not drawn)
	ColorRange    [2]float64     // Renderer.ColorRange() of the last frame
	Scenes        []string       // scene names for the picker
	Integrators   []string       // integrator names
	Integrator    string         // current integrator
	LawKinds      []string       // contact-law names
	Law           LawParams      // current contact law (Eps2, C2 as derived by sim)
	Materials     []Material     // smooth shapes per material (Shapes section)
	SmoothLaw     SmoothLaw      // smooth contact law of the default pair
	HasSmooth     bool           // the scene has smooth bodies: show the smooth law
	SmoothOnly    bool           // no polyhedral law: hide the barrier and friction sections
	HasCompatible bool           // the integrator can switch classic/compatible forces
	Compatible    bool           // its current setting
	Playing       bool           // the simulation runs
	// RunRate and RunRTF are the simulation's own steps per wall second
	// and real-time factor while it runs (app.LoopState.StepsPerSecond,
	// RealTime); 0: the stats section measures them from the snapshots it
	// sees, which a loop that publishes only for drawn frames gives too
	// rarely (10⁵ spheres: one per few seconds).
	RunRate, RunRTF float64
	Speed           float64 // simulated seconds per real second when !AsFast
	AsFast          bool    // run as fast as possible
	Status          string  // one status line from the app (errors shown in red)
	StatusIsError   bool
	Scale           float32 // UI scale of fonts and widgets (0: 1)
	Clean           bool    // clean mode is on (the Window section's toggle)

	// Render is Renderer.Stats() of the last frame (force chains, per-pass times).
	Render render.FrameStats

	Compare *CompareInput // the Compare section (nil: not offered)

	// ValidateLaw checks a candidate law (sim's rules); nil accepts everything finite.
	ValidateLaw func(LawParams) error
	// DeriveLaw fills the derived fields (Eps2, C2) of a candidate; optional.
	DeriveLaw func(LawParams) (LawParams, error)
	// LawCurve samples f_n(g) and the critical Δt(g) on evenly spaced gaps g; optional.
	LawCurve func(LawParams) (g, fn, dtc []float32, err error)
	// ValidateMaterial checks a candidate material; optional.
	ValidateMaterial func(Material) error
	// ValidateSmooth checks a candidate smooth law (sim's rules); optional.
	ValidateSmooth func(SmoothLaw) error
}

// Actions are the changes the user requested in one Draw. Slices alias panel
// buffers and stay valid until the next Draw.
type Actions struct {
	Play, Pause, Step, Reset bool
	Fit, Screenshot          bool

	SpeedChanged bool    // Speed/AsFast below are new
	Speed        float64 // simulated seconds per real second
	AsFast       bool

	LoadScene  string // scene name to load, "" for none
	OpenFile   string // scene file path to open, "" for none
	Integrator string // integrator to switch to, "" for none

	Law      *LawParams    // validated new contact law, nil for none
	Material *MaterialEdit // validated material change, nil for none
	Params   []ParamEdit   // validated smooth-law changes
	Walls    []WallToggle  // wall enable toggles

	Compatible *bool // switch classic (false) / compatible (true) contact forces, nil for none

	AddMesh     *MeshAdd       // add bodies from an STL mesh, nil for none
	Scale       float32        // new UI scale, 0 for no change
	ToggleClean bool           // switch clean mode on or off
	Clipboard   string         // text the inspector's Copy puts on the clipboard, "" for none
	Compare     CompareActions // start or stop a comparison run (compare.go)

	ViewChanged      bool // a View field was edited (already applied)
	SelectionChanged bool // View.SelectedBody / SelectedContact changed (already applied)
}

// MeshAdd asks for Count bodies of the STL mesh at Path, added above the pile.
type MeshAdd struct {
	Path  string
	Count int
}

// Any reports whether a requires the app to do something.
func (a *Actions) Any() bool {
	return a.Play || a.Pause || a.Step || a.Reset || a.Fit || a.Screenshot || a.SpeedChanged ||
		a.LoadScene != "" || a.OpenFile != "" || a.Integrator != "" || a.Law != nil ||
		a.Material != nil || len(a.Params) > 0 || a.Compatible != nil || len(a.Walls) > 0 || a.SelectionChanged ||
		a.AddMesh != nil || a.Scale > 0 || a.ToggleClean ||
		a.Clipboard != "" ||
		a.Compare.Start != nil || a.Compare.Stop
}
