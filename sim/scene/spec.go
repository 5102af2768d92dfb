// Package scene reads Grainlab scene files: a documented YAML format
// (docs/scenes.md) decoded into a Spec whose every value remembers where it
// came from, so that later validation can say "scene.yaml:23:
// bodies[2].density: must be > 0".
package scene

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// Spec is a decoded scene. Defaults are filled in; Src maps dotted key paths
// to their source so that errors can name file, line and key.
//
// Key paths use the same notation as error messages: "time",
// "contact.default.gbar", "contact.pairs[0].mu_s", "shapes.cube.size",
// "bodies[2].density", "walls[1]". Every list element and section struct
// carries its own Path, so a builder writes s.Errorf(b.Path+".density", ...).
type Spec struct {
	File string // file name used in messages (as given to Parse/Load)
	Dir  string // directory that relative paths (stl) resolve against; "" for built-ins

	Name        string
	Description string
	Time        float64   // default end time, s
	Gravity     geom.Vec3 // m/s², default (0, 0, −9.81)

	Params     map[string]float64 // named scalars referenced as "${name}"
	Integrator Integrator
	Contact    Contact
	Shapes     map[string]Shape
	ShapeOrder []string // shape names in file order
	Bodies     []Body
	Generators []Generator
	Walls      []Wall // box walls are already expanded into planes
	Loads      []ExternalLoad
	Events     []Event
	Output     Output
	Record     Record
	Probes     []Probe
	Periodic   Periodic

	// Src maps a key path to where its value came from. Only keys present in
	// the file (or set by an override) appear; use Lookup, Line or Errorf,
	// which fall back to the nearest present parent.
	Src map[string]Source

	fsys fs.FS    // non-nil for built-ins: the embedded assets
	data []byte   // the scene text, for With
	sets []string // the overrides it was parsed with
}

// With returns the scene decoded again with extra assignments applied after
// its own overrides: the scene as it stands after events' set actions,
// s.With(ev.Set...). Errors name the assignment ("--set key.path: ...").
func (s *Spec) With(as ...Assignment) (*Spec, error) {
	sets := append([]string(nil), s.sets...)
	for _, a := range as {
		sets = append(sets, a.Path+"="+a.Value)
	}
	out, err := ParseWithOverrides(s.data, s.File, sets)
	if err != nil {
		return nil, err
	}
	out.Dir, out.fsys = s.Dir, s.fsys
	return out, nil
}

// Periodic makes x and/or y periodic over [Min, Max) (spheres and superquadrics).
type Periodic struct {
	Path     string // "periodic"
	X, Y     bool
	Min, Max geom.Vec3
}

// Source is the origin of one value.
type Source struct {
	Line int    // 1-based line in Spec.File; 0 when the value came from --set
	Set  string // override label, e.g. "--set integrator.dt"; "" for file values
}

// Integrator selects and tunes the time integrator.
type Integrator struct {
	Path    string  // "integrator"
	Name    string  // explicit | newmark | variational | cd
	Dt      float64 // initial (and, unless DtMax is set, maximum) step, s
	DtMin   float64 // s; default min(dt, 1e-9)
	DtMax   float64 // s; default dt
	Safety  float64 // s in Δt ≤ s·2√(m/k); default 0.2
	Beta    *float64
	Gamma   *float64
	Alpha   *float64
	Tol     *float64
	MaxIter *int
	// DampLag: newmark takes the dashpot coefficient of S0 eq. (52) at the
	// start of each step (world.Settings.DampLag); other integrators ignore
	// it. Default true.
	DampLag bool
	// DampLagEntry: with DampLag, a contact new in a step gets the fraction
	// of the step it spent in the skin (world.Settings.DampLagEntry). Default true.
	DampLagEntry bool
	// Tangent: newmark's Newton systems, "analytic" (the assembled contact
	// tangent, Newmark.FDProducts false; the default) or "fd"
	// (finite-difference products of the world).
	Tangent string

	Method      string  // cd: pgs | apgd (default apgd)
	Compatible  bool    // cd: compatibility post-processing (S3 §6–7)
	Restitution float64 // cd: restitution coefficient (0: perfectly inelastic)
}

// Law is one contact interface law (S0 §2.5, eq. 50 and 53–55).
type Law struct {
	Path string // "contact.default" or "contact.pairs[i]"
	Law  string // barrier | linear | hertz
	// Set holds the law's numbers and flags, read and written through
	// law.Params' accessors (its Kind, Model and Radius stay zero: the
	// text fields Law, Model and Curvature name them); DampBand defaults to
	// 0 (S0 eq. (52) as written), CapQ to 10, the rest as law.DefaultSet.
	Set law.Set

	// Smooth bodies (spheres, superquadrics): spring–dashpot law (law.Smooth).
	Model        string // hooke | hertz (LAMMPS gran/hooke, gran/hertz) | hertz-material (E, ν, e)
	Curvature    string // mean | gaussian | volume: particle radius in R_eff (S1 eq. 38–40)
	Poly, Smooth bool   // which law sets the default block gives
}

// Contact holds the default law and per-material-pair overrides.
type Contact struct {
	Default Law
	Pairs   []Pair
	// Skin is the Verlet skin of the contact search, m (contact.skin;
	// 0 for auto: World.VerletSkin chooses), at most World.MaxSkin.
	Skin float64
}

// Pair overrides the default law for contacts between two materials.
type Pair struct {
	Path    string
	Between [2]string
	Law     Law             // the default with this pair's keys applied
	Keys    map[string]bool // law keys given explicitly for this pair (e.g. "mu_s")
}

// Shape types.
const (
	ShapeBox          = "box"
	ShapeTetrapod     = "tetrapod"
	ShapeSTL          = "stl"
	ShapeSphere       = "sphere"
	ShapeSuperquadric = "superquadric"
)

// Shape is a named body geometry. Only the fields of its Type are meaningful.
type Shape struct {
	Path string // "shapes.<name>"
	Name string
	Type string

	Size geom.Vec3 // box: edge lengths, m

	LegLength    float64 // tetrapod, m
	BaseRadius   float64 // tetrapod, m
	TipRadius    float64 // tetrapod, m (default 0: pointed)
	Sides        int     // tetrapod: polygon sides of each leg (default 6)
	RootDistance float64 // tetrapod, m

	File    string  // stl: path as written (see Spec.ReadFile)
	Scale   float64 // stl: default 1
	WeldTol float64 // stl: vertex weld tolerance, m (0: loader default)

	Radius float64 // sphere, m

	A, B, C float64 // superquadric half-lengths, m
	N1, N2  float64 // superquadric blockiness (default 2)
}

// Body is one explicitly placed rigid body.
type Body struct {
	Path            string // "bodies[i]"
	Name            string // default "body<i>"
	Shape           string
	Material        string    // default "default"
	Density         float64   // kg/m³; 0 when Mass is given
	Mass            float64   // kg; 0 when Density is given
	Position        geom.Vec3 // centre of mass, m
	Orientation     geom.Quat // body → world
	Velocity        geom.Vec3 // m/s
	AngularVelocity geom.Vec3 // rad/s, world frame
	Fixed           bool
	// RestOnGround asks the builder to move the body vertically so that its
	// lowest vertex sits 0.9·ḡ_n above the ground.
	RestOnGround bool
}

// Generator places Count bodies at random, without overlap, inside Region.
type Generator struct {
	Path              string // "generators[i]"
	Name              string
	Shape             string
	Count             int
	Min, Max          geom.Vec3 // region: every generated body lies inside
	Seed              int64     // default 1
	Density           float64   // kg/m³ (0 when Mass is given)
	Mass              float64   // kg (0 when Density is given)
	Material          string    // default "default"
	RandomOrientation bool      // default true
	Orientation       geom.Quat // used when RandomOrientation is false
	Velocity          geom.Vec3
}

// Wall is one boundary surface. Box walls in the file are expanded into one
// plane per face, named left (−x), right (+x), front (−y), back (+y),
// bottom (−z), top (+z) unless renamed.
type Wall struct {
	Path     string // the file entry, "walls[i]"
	Name     string
	Type     string    // "plane" or "stl"
	Point    geom.Vec3 // plane: a point on it (centre of its finite extent)
	Normal   geom.Vec3 // plane: unit normal pointing to where the bodies are
	Size     [2]float64
	File     string  // stl: path as written (see Spec.ReadFile)
	Scale    float64 // stl: default 1
	Material string
	Enabled  bool
	Box      string // for planes from a box entry: the entry's name (may be "")
	Side     string // for planes from a box entry: left|right|front|back|bottom|top
}

// Axes returns the in-plane unit axes (u, v) of a plane wall; Size[0] is the
// extent along u and Size[1] along v. u = ẑ×n normalised, or the x axis
// projected onto the plane when n is within ~25° of ±z; v = n×u.
func (w Wall) Axes() (u, v geom.Vec3) {
	n := w.Normal.Unit()
	if n.Z > 0.9 || n.Z < -0.9 {
		x := geom.Vec3{X: 1}
		u = x.AddScaled(-x.Dot(n), n).Unit()
	} else {
		u = geom.Vec3{Z: 1}.Cross(n).Unit()
	}
	return u, n.Cross(u)
}

// Ramp is a vector that is From before T0, To after T1 and linear between.
type Ramp struct {
	From, To geom.Vec3
	T0, T1   float64
}

// At returns the ramp value at time t.
func (r Ramp) At(t float64) geom.Vec3 {
	switch {
	case t <= r.T0:
		return r.From
	case t >= r.T1:
		return r.To
	}
	return geom.Lerp(r.From, r.To, (t-r.T0)/(r.T1-r.T0))
}

// ExternalLoad is an external force and moment on a body.
type ExternalLoad struct {
	Path   string
	Name   string // optional; names the load's series.csv columns
	Body   string
	Point  geom.Vec3 // body frame, relative to the centre of mass, m
	Frame  string    // "world" or "body": frame of Force and Moment
	Force  Ramp      // N
	Moment Ramp      // N·m
}

// Event changes the scene at time At.
type Event struct {
	Path         string
	At           float64
	DisableWalls []string
	EnableWalls  []string
	Set          []Assignment
}

// Assignment sets the scalar at a key path (override syntax, e.g.
// "contact.default.mu_s") to Value, the YAML scalar text ("0.5").
type Assignment struct {
	Path  string
	Value string
}

// Output controls what a run writes.
type Output struct {
	Every      float64 // s between series rows, default 0.01
	Contacts   string  // "final" or "every"
	Checkpoint float64 // s of simulated time between final.json checkpoints; 0 (default): only at the end
}

// Record controls what `grainlab run --record FILE` writes (docs/recording.md).
type Record struct {
	Every     float64 // s between recorded frames; 0 (default): output.every
	Keyframes float64 // s between full-state keyframes, default 1
}

// Probe records one quantity per output row.
type Probe struct {
	Path     string
	Name     string
	Body     string // exactly one of Body and Wall is set
	Wall     string
	Quantity string // position|velocity|angular_velocity|force|contact_force
}

// Error is a scene error. It prints as "file:line: key.path: message", or,
// when the offending value came from an override, as "<Set>: key.path:
// message" where Set is "--set key.path" or, for an event's set action,
// "file:line: events[i].set key.path".
type Error struct {
	File string // scene file as given to Parse/Load
	Line int    // 1-based; 0 for command-line overrides
	Set  string // override label, printed instead of file:line when non-empty
	Path string // key path, e.g. "bodies[2].density"; may be ""
	Msg  string
}

func (e *Error) Error() string {
	var where string
	switch {
	case e.Set != "":
		where = e.Set
	case e.Line > 0:
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	default:
		where = e.File
	}
	if e.Path == "" || e.Set != "" && strings.HasSuffix(e.Set, " "+e.Path) {
		return where + ": " + e.Msg
	}
	return where + ": " + e.Path + ": " + e.Msg
}

// Lookup returns the source of the value at path, or of its nearest parent
// present in the file ("bodies[2].density" → "bodies[2]" → "bodies").
func (s *Spec) Lookup(path string) Source {
	for p := path; p != ""; p = parentPath(p) {
		if src, ok := s.Src[p]; ok {
			return src
		}
	}
	return Source{Line: 1}
}

// Line returns the line of the value at path (see Lookup); 0 if it came
// from an override.
func (s *Spec) Line(path string) int { return s.Lookup(path).Line }

// Errorf returns an *Error for the value at path:
// "scene.yaml:23: bodies[2].density: must be > 0". When the value at path
// comes from the file but keys below it were set by overrides (an error
// about "shapes.cube" after --set shapes.cube.size=…), the error names
// those overrides instead of the file line, since they changed the entry.
func (s *Spec) Errorf(path, format string, args ...any) error {
	src := s.Lookup(path)
	if src.Set == "" {
		src.Set = s.setsBelow(path)
	}
	return &Error{File: s.File, Line: src.Line, Set: src.Set, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// setsBelow returns the labels of the overrides that set keys below path,
// sorted and joined by ", "; "" when there are none.
func (s *Spec) setsBelow(path string) string {
	var labels []string
	seen := map[string]bool{}
	for k, src := range s.Src {
		if src.Set == "" || seen[src.Set] || path == "" ||
			!(strings.HasPrefix(k, path+".") || strings.HasPrefix(k, path+"[")) {
			continue
		}
		seen[src.Set] = true
		labels = append(labels, src.Set)
	}
	sort.Strings(labels)
	return strings.Join(labels, ", ")
}

// ReadFile reads a file named in the scene (an stl path): relative to the
// scene file's directory, or to assets/ for built-in scenes.
func (s *Spec) ReadFile(name string) ([]byte, error) {
	if s.fsys != nil {
		return fs.ReadFile(s.fsys, strings.TrimPrefix(filepath.ToSlash(name), "./"))
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(s.Dir, name)
	}
	return os.ReadFile(name)
}

// parentPath strips the last ".key" or "[i]" from a key path.
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}
