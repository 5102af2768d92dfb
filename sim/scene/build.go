package scene

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"

	"grainlab/sim/body"
	"grainlab/sim/cd"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// Build turns a parsed scene into a ready-to-run world: shapes, materials
// and their contact laws, bodies, generated bodies, walls, loads, events and
// probes. Every error names the scene file, line and key.
func Build(s *Spec) (*world.World, error) {
	b := &builder{s: s, w: world.New(s.Name), shapes: map[string]*shape.Polyhedron{}, smooth: map[string]smoothShape{}, names: map[string]string{}}
	w := b.w
	w.Gravity = s.Gravity
	steps := []func() error{b.integrator, b.contact, b.walls, b.memory, b.bodies, b.generators, b.skin, b.criticalStep, b.loads, b.events, b.probes}
	for _, f := range steps {
		if err := f(); err != nil {
			return nil, err
		}
	}
	if ps := s.Periodic; ps.X || ps.Y {
		w.Periodic = world.Periodic{X: ps.X, Y: ps.Y, Lo: ps.Min, Hi: ps.Max}
	}
	if err := w.Check(); err != nil {
		if strings.HasPrefix(err.Error(), "periodic") {
			return nil, s.Errorf("periodic", "%v", err)
		}
		if strings.HasPrefix(err.Error(), "contact ") {
			return nil, s.Errorf("contact.default", "%v", err)
		}
		return nil, &Error{File: s.File, Line: 1, Msg: err.Error()}
	}
	return w, nil
}

type builder struct {
	s      *Spec
	w      *world.World
	shapes map[string]*shape.Polyhedron
	smooth map[string]smoothShape
	names  map[string]string // body name → key path of the entry that makes it
}

// smoothShape is a sphere or superquadric shape of the scene.
type smoothShape struct {
	kind body.Kind
	sq   sq.Shape
}

func (b *builder) integrator() error {
	in := b.s.Integrator
	st := &b.w.Settings
	st.Dt, st.DtMin, st.DtMax, st.Safety = in.Dt, in.DtMin, in.DtMax, in.Safety
	st.DampLag, st.DampLagEntry = in.DampLag, in.DampLagEntry
	b.w.Dt = in.Dt
	it, err := integrate.New(in.Name)
	if err != nil {
		return b.s.Errorf(in.Path+".name", "%v", err)
	}
	switch x := it.(type) {
	case *integrate.Newmark:
		x.FDProducts = in.Tangent != "analytic"
		if in.Beta != nil {
			x.Beta = *in.Beta
		}
		if in.Gamma != nil {
			x.Gamma = *in.Gamma
		}
		if in.Tol != nil {
			x.Tol = *in.Tol
		}
		if in.MaxIter != nil {
			x.MaxIter = *in.MaxIter
		}
	case *integrate.Variational:
		if in.Alpha != nil {
			x.Alpha = *in.Alpha
		}
		if in.Tol != nil {
			x.Tol = *in.Tol
		}
		if in.MaxIter != nil {
			x.MaxNewton = *in.MaxIter
		}
	case *integrate.CD:
		x.Dt = in.DtMax
		x.Method = cd.APGD
		if in.Method == "pgs" {
			x.Method = cd.PGS
		}
		x.SetCompatibleForces(in.Compatible)
		x.Restitution = in.Restitution
		if in.Tol != nil {
			x.Tol = *in.Tol
		}
		if in.MaxIter != nil {
			x.MaxIter = *in.MaxIter
		}
	}
	b.w.Integrator = it
	return nil
}

// lawParams converts a scene law into world contact parameters.
func (b *builder) lawParams(l Law) (world.ContactParams, error) {
	var k law.Kind
	switch l.Law {
	case "barrier", "":
		k = law.Barrier
	case "linear":
		k = law.Linear
	case "hertz":
		k = law.Hertz
	default:
		return world.ContactParams{}, b.s.Errorf(l.Path+".law", "unknown law %q (barrier, linear, hertz)", l.Law)
	}
	p := world.ContactParams{HasPoly: l.Poly || l.Set.Normal.GBar > 0}
	s := l.Set // the numbers and flags, by law.Params
	s.Normal.Kind = k
	if l.Model == "" {
		s.Smooth = law.Smooth{}
	} else {
		m, err := law.ParseSmoothModel(l.Model)
		if err != nil {
			return p, b.s.Errorf(l.Path+".model", "%v", err)
		}
		p.HasSmooth = true
		s.Smooth.Model, s.Smooth.Radius = m, l.Curvature
	}
	p.SetLawSet(s)
	if !p.HasPoly && !p.HasSmooth {
		return p, b.s.Errorf(l.Path, "give the barrier law (gbar, eps1) for polyhedra or a smooth model for spheres and superquadrics")
	}
	if err := p.Validate(); err != nil {
		return p, b.s.Errorf(l.Path, "%v", err)
	}
	return p, nil
}

// skin sets the Verlet skin asked for (contact.skin), from World.MinSkin
// to World.MaxSkin.
func (b *builder) skin() error {
	sk := b.s.Contact.Skin
	if sk == 0 {
		return nil
	}
	if mn := b.w.MinSkin(); !(sk >= mn) {
		return b.s.Errorf("contact.skin", "must be at least a hundredth of the smallest body's radius (%v m): a smaller skin shortens the step of bodies far from any contact; got %v", mn, sk)
	}
	if mx := b.w.MaxSkin(); !(sk <= mx) {
		return b.s.Errorf("contact.skin", "must be at most the smallest body's diameter (%v m), got %v", mx, sk)
	}
	b.w.Settings.Skin = sk
	return nil
}

func (b *builder) contact() error {
	p, err := b.lawParams(b.s.Contact.Default)
	if err != nil {
		return err
	}
	if err := b.w.SetParams(0, 0, p); err != nil {
		return b.s.Errorf(b.s.Contact.Default.Path, "%v", err)
	}
	for _, pr := range b.s.Contact.Pairs {
		p, err := b.lawParams(pr.Law)
		if err != nil {
			return err
		}
		ma, mb := b.w.Material(pr.Between[0]), b.w.Material(pr.Between[1])
		if err := b.w.SetParams(ma, mb, p); err != nil {
			return b.s.Errorf(pr.Path, "%v", err)
		}
	}
	return nil
}

// shape returns the polyhedron of a named shape, building it once.
func (b *builder) shape(name, refPath string) (*shape.Polyhedron, error) {
	if p, ok := b.shapes[name]; ok {
		return p, nil
	}
	sh, ok := b.s.Shapes[name]
	if !ok {
		return nil, b.s.Errorf(refPath, "unknown shape %q", name)
	}
	var p *shape.Polyhedron
	var err error
	switch sh.Type {
	case ShapeBox:
		if p, err = shape.NewBox(sh.Size.X, sh.Size.Y, sh.Size.Z); err != nil {
			return nil, b.s.Errorf(sh.Path+".size", "%v", err)
		}
	case ShapeTetrapod:
		p, err = shape.Tetrapod(shape.TetrapodParams{LegLength: sh.LegLength, BaseRadius: sh.BaseRadius,
			TipRadius: sh.TipRadius, Sides: sh.Sides, RootDistance: sh.RootDistance})
	case ShapeSTL:
		data, rerr := b.s.ReadFile(sh.File)
		if rerr != nil {
			return nil, b.s.Errorf(sh.Path+".path", "%v", rerr)
		}
		vs, tris, rerr := shape.ReadSTL(bytes.NewReader(data), sh.File, sh.WeldTol)
		if rerr != nil {
			return nil, b.s.Errorf(sh.Path+".path", "%v", rerr)
		}
		scale := sh.Scale
		if scale == 0 {
			scale = 1
		}
		for i := range vs {
			vs[i] = vs[i].Scale(scale)
		}
		p, err = shape.NewPolyhedron(sh.File, vs, tris)
	default:
		return nil, b.s.Errorf(sh.Path+".type", "shape type %q is not available yet (box, tetrapod, stl)", sh.Type)
	}
	if err != nil {
		return nil, b.s.Errorf(sh.Path, "%v", err)
	}
	p.Name = name
	b.shapes[name] = p
	return p, nil
}

func (b *builder) bodies() error {
	for i, bs := range b.s.Bodies {
		name := bs.Name
		if name == "" {
			name = "body" + strconv.Itoa(i)
		}
		if err := b.claim(name, bs.Path+".name", bs.Path); err != nil {
			return err
		}
		var bd *body.Body
		if ss, ok, err := b.smoothShape(bs.Shape, bs.Path+".shape"); err != nil {
			return err
		} else if ok {
			if bs.Fixed {
				// An immovable sphere or superquadric: no mass (InvMass = 0), as
				// body.NewFixed for polyhedra; density and mass are ignored.
				bd = b.newFixedSmooth(name, ss, bs.Position, bs.Orientation)
			} else {
				bd, err = b.newSmooth(name, ss, bs.Density, bs.Mass, bs.Position, bs.Orientation, bs.Path)
				if err != nil {
					return err
				}
			}
		} else {
			p, err := b.shape(bs.Shape, bs.Path+".shape")
			if err != nil {
				return err
			}
			if bs.Fixed {
				bd = body.NewFixed(name, p, bs.Position, bs.Orientation)
			} else {
				bd, err = b.newBody(name, p, bs.Density, bs.Mass, bs.Position, bs.Orientation, bs.Path)
				if err != nil {
					return err
				}
			}
		}
		bd.V, bd.W = bs.Velocity, bs.AngularVelocity
		bd.Material = b.w.Material(bs.Material)
		if bs.RestOnGround {
			if err := b.restOnGround(bd, bs.Path); err != nil {
				return err
			}
		}
		b.w.AddBody(bd)
	}
	return nil
}

// smoothShape reports whether the named shape is a sphere or superquadric and returns it.
func (b *builder) smoothShape(name, refPath string) (smoothShape, bool, error) {
	if ss, ok := b.smooth[name]; ok {
		return ss, true, nil
	}
	sh, ok := b.s.Shapes[name]
	if !ok {
		return smoothShape{}, false, b.s.Errorf(refPath, "unknown shape %q", name)
	}
	var ss smoothShape
	switch sh.Type {
	case ShapeSphere:
		ss = smoothShape{body.Sphere, sq.Sphere(sh.Radius)}
	case ShapeSuperquadric:
		ss = smoothShape{body.Superquadric, sq.Shape{A: sh.A, B: sh.B, C: sh.C, N1: sh.N1, N2: sh.N2}}
	default:
		return smoothShape{}, false, nil
	}
	if err := ss.sq.Validate(); err != nil {
		return ss, false, b.s.Errorf(sh.Path, "%v", err)
	}
	lo, hi := 2*math.Min(ss.sq.A, math.Min(ss.sq.B, ss.sq.C)), 2*ss.sq.BoundingRadius()
	if !(lo >= shape.MinSize && hi <= shape.MaxSize) {
		return ss, false, b.s.Errorf(sh.Path, "size out of range: extents %.3g…%.3g m, want %g…%g m", lo, hi, shape.MinSize, shape.MaxSize)
	}
	b.smooth[name] = ss
	return ss, true, nil
}

// newFixedSmooth makes an immovable sphere or superquadric (zero density and
// mass, Fixed).
func (b *builder) newFixedSmooth(name string, ss smoothShape, x geom.Vec3, q geom.Quat) *body.Body {
	var bd *body.Body
	if ss.kind == body.Sphere {
		bd = body.NewSphere(name, ss.sq.A, 0, x)
	} else {
		bd = body.NewSuperquadric(name, ss.sq, 0, x, q)
	}
	bd.Fixed = true
	bd.SetMass(0, geom.Mat3{})
	return bd
}

// newSmooth makes a sphere or superquadric body from a density or a mass.
func (b *builder) newSmooth(name string, ss smoothShape, density, mass float64, x geom.Vec3, q geom.Quat, path string) (*body.Body, error) {
	switch {
	case mass > 0 && !math.IsInf(mass, 0):
		density = mass / ss.sq.Volume()
	case density > 0 && !math.IsInf(density, 0):
	default:
		return nil, b.s.Errorf(path, "needs a finite density > 0 or mass > 0")
	}
	if mass > 0 {
		path += ".mass"
	} else {
		path += ".density"
	}
	var bd *body.Body
	if ss.kind == body.Sphere {
		bd = body.NewSphere(name, ss.sq.A, density, x)
	} else {
		bd = body.NewSuperquadric(name, ss.sq, density, x, q)
	}
	return bd, b.checkMass(bd, path)
}

// checkMass refuses a body whose mass or inertia is not a positive finite
// number with a finite inverse (a density or size at the end of the float
// range: density 1e300 times a volume overflows).
func (b *builder) checkMass(bd *body.Body, path string) error {
	ok := bd.Mass() > 0 && !math.IsInf(bd.Mass(), 0) && !math.IsInf(bd.InvMass(), 0)
	ib, ibi := bd.IBody(), bd.IBodyInv()
	for i := 0; i < 3 && ok; i++ {
		for j := 0; j < 3; j++ {
			ok = ok && !math.IsNaN(ib[i][j]) && !math.IsInf(ib[i][j], 0) &&
				!math.IsNaN(ibi[i][j]) && !math.IsInf(ibi[i][j], 0)
		}
		ok = ok && ib[i][i] > 0
	}
	if !ok {
		return b.s.Errorf(path, "mass %g kg (inertia diagonal %g, %g, %g kg·m²) is out of the float range: check density/mass and the shape's size",
			bd.Mass(), bd.IBody()[0][0], bd.IBody()[1][1], bd.IBody()[2][2])
	}
	return nil
}

// claim records that the entry at path makes a body named name and refuses
// a name already made by another entry (an explicit body "fill0" beside a
// generator "fill"), naming both: keyPath (the entry's name key) is where
// the error points and where a later clash points back to.
func (b *builder) claim(name, keyPath, path string) error {
	if prev, ok := b.names[name]; ok {
		return b.s.Errorf(keyPath, "body name %q is also made by %s (%s): body names must be unique", name, parentPath(prev), b.where(prev))
	}
	b.names[name] = keyPath
	return nil
}

// claimGenerated refuses generator g when one of the names it makes
// (g.Name+"0", g.Name+"1", …) is a body's or an earlier generator's, naming
// the first such name as claim does; the generated names are tested by
// their form (prefix and index), not stored, so that a million bodies need
// no map.
func (b *builder) claimGenerated(g *Generator) error {
	first, prev := -1, ""
	for name, path := range b.names {
		if i, ok := generatedIndex(name, g.Name, g.Count); ok && (first < 0 || i < first) {
			first, prev = i, path
		}
	}
	for k := range b.s.Generators {
		p := &b.s.Generators[k]
		if p == g {
			break
		}
		// Two names of the forms a+digits and c+digits can only be equal
		// when one of a, c begins the other.
		if p.Count <= 0 || !strings.HasPrefix(g.Name, p.Name) && !strings.HasPrefix(p.Name, g.Name) {
			continue
		}
		for i := 0; i < g.Count && (first < 0 || i < first); i++ {
			if _, ok := generatedIndex(g.Name+strconv.Itoa(i), p.Name, p.Count); ok {
				first, prev = i, p.Path+".name"
				break
			}
		}
	}
	if first < 0 {
		return nil
	}
	return b.s.Errorf(g.Path+".name", "body name %q is also made by %s (%s): body names must be unique",
		g.Name+strconv.Itoa(first), parentPath(prev), b.where(prev))
}

// generatedIndex reports whether name is prefix+strconv.Itoa(i) for some
// 0 ≤ i < count, and i.
func generatedIndex(name, prefix string, count int) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" || len(rest) > 1 && rest[0] == '0' {
		return 0, false
	}
	for _, c := range []byte(rest) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(rest)
	return i, err == nil && i < count
}

// where renders the origin of the value at path: "scene.yaml:12" or "--set …".
func (b *builder) where(path string) string {
	src := b.s.Lookup(path)
	if src.Set != "" {
		return src.Set
	}
	return fmt.Sprintf("%s:%d", b.s.File, src.Line)
}

func (b *builder) newBody(name string, p *shape.Polyhedron, density, mass float64, x geom.Vec3, q geom.Quat, path string) (*body.Body, error) {
	switch {
	case mass > 0 && !math.IsInf(mass, 0):
		bd := body.New(name, p, mass/p.Volume, x, q) // Density() = mass/volume; SetMass sets the mass and inertia exactly
		bd.SetMass(mass, p.InertiaUnit.Scale(mass/p.Volume))
		return bd, b.checkMass(bd, path+".mass")
	case density > 0 && !math.IsInf(density, 0):
		bd := body.New(name, p, density, x, q)
		return bd, b.checkMass(bd, path+".density")
	}
	return nil, b.s.Errorf(path, "needs a finite density > 0 or mass > 0")
}

// restOnGround moves bd vertically so that its lowest vertex is 0.9·ḡ above
// the highest upward-facing plane wall below it.
func (b *builder) restOnGround(bd *body.Body, path string) error {
	zmin := math.Inf(1)
	lift := 0.0
	if bd.Kind == body.Polyhedral {
		for _, v := range bd.Poly().Verts {
			zmin = math.Min(zmin, bd.Q.Rotate(v).Z)
		}
		lift = 0.9 * b.w.Params(bd.Material, 0).Normal.GBar
	} else {
		lo, _ := bd.SQ().SupportWorld(sq.Pose{X: bd.X, Q: bd.Q}, geom.V(0, 0, -1))
		zmin = lo.Z - bd.X.Z
	}
	ground := math.Inf(-1)
	for _, wl := range b.w.Walls {
		if wl.Planar && wl.N.Z > 0.999 && wl.P.Z <= bd.X.Z+zmin+1e-9 && wl.P.Z > ground {
			ground = wl.P.Z
		}
	}
	if math.IsInf(ground, -1) {
		return b.s.Errorf(path+".rest_on_ground", "no horizontal plane wall (normal +z) below the body")
	}
	bd.X.Z = ground + lift - zmin
	return nil
}

// generators places bodies without overlap: the region is divided into a
// lattice of cells one inflated bounding diameter wide; bodies fill the
// lowest layers (the top one at random cells), each jittered within its cell
// slack and randomly oriented, all from the generator's seed. When the
// region is too short for Count bodies its top is raised.
func (b *builder) generators() error {
	for k := range b.s.Generators {
		g := &b.s.Generators[k]
		if g.Count <= 0 {
			continue
		}
		if err := b.claimGenerated(g); err != nil {
			return err
		}
		ss, smooth, err := b.smoothShape(g.Shape, g.Path+".shape")
		if err != nil {
			return err
		}
		var p *shape.Polyhedron
		mat := b.w.Material(g.Material)
		var cell float64
		if smooth {
			r := ss.sq.A
			if ss.kind == body.Superquadric {
				r = ss.sq.BoundingRadius()
			}
			cell = 2.1 * r
		} else {
			if p, err = b.shape(g.Shape, g.Path+".shape"); err != nil {
				return err
			}
			gbar := b.w.Params(mat, mat).Normal.GBar
			cell = 2*p.Radius + 2*gbar
		}
		ext := g.Max.Sub(g.Min)
		nx, ny := cells(ext.X/cell), cells(ext.Y/cell)
		if nx < 1 || ny < 1 {
			return b.s.Errorf(g.Path+".region", "region %.4g × %.4g m is narrower than one body (bounding diameter %.4g m)", ext.X, ext.Y, cell)
		}
		// A layer wider than maxLayerCells cells (far more than the bodies)
		// is divided into fewer, larger cells: the rest goes to the slack.
		for float64(nx)*float64(ny) > maxLayerCells {
			nx, ny = max(1, nx/2), max(1, ny/2)
		}
		nz := cells(ext.Z / cell)
		layers := (g.Count + nx*ny - 1) / (nx * ny)
		if layers > nz {
			nz = layers // raise the top of the region
		}
		rng := rand.New(rand.NewSource(g.Seed))
		slack := geom.V(ext.X/float64(nx)-cell, ext.Y/float64(ny)-cell, math.Max(0, ext.Z/float64(max(nz, 1))-cell))
		if layers > cells(ext.Z/cell) {
			slack.Z = 0
		}
		placed := 0
		// The generator's first body is made and checked by newBody or
		// newSmooth; the others are copies of it placed and named: the same
		// record (shape, mass, group), the same bits as making each anew.
		var first body.Body
		var name []byte
		// The copies take their names from one string (body.GenNames): one
		// allocation a generator instead of one a body, the same names.
		// Each body stays an allocation of its own (208 B): one array of
		// them all made set-up ≈ 0.1 CPU-s cheaper at 10⁶ spheres, but the
		// collector scans objects over 512 B (type header) slower — 75
		// instead of 50 ms CPU a collection of that world — and pairs
		// (416 B) waste 3.5% of their spans against 208 B's 1%
		// (docs/performance.md, "Session 21: set-up, garbage and memory").
		var names string
		off := len(g.Name) + 1 // the start of body placed's name in names (after prefix+"0")
		// Spheres become a block (world.AddSphereBlock): no record a
		// sphere, only its centre; the records are made if a reader
		// asks for them (World.Bodies), as this loop made them.
		block := smooth && ss.kind == body.Sphere && !makeEachGenerated
		var xs []geom.Vec3
		if block {
			xs = make([]geom.Vec3, 0, g.Count) // a block: no room in the world's records (World.AddSphereBlock)
		} else {
			b.w.GrowBodies(g.Count) // room for the generator's records at once
		}
		if !block && !makeEachGenerated && g.Count > 1 {
			names = body.GenNames(g.Name, g.Count)
		}
		for k := 0; k < layers; k++ {
			perm := rng.Perm(nx * ny)
			for _, c := range perm {
				if placed == g.Count {
					break
				}
				i, j := c%nx, c/nx
				lo := g.Min.Add(geom.V(float64(i)*(cell+slack.X), float64(j)*(cell+slack.Y), float64(k)*(cell+slack.Z)))
				x := lo.Add(geom.V(cell/2+rng.Float64()*slack.X, cell/2+rng.Float64()*slack.Y, cell/2+rng.Float64()*slack.Z))
				q := g.Orientation
				if g.RandomOrientation {
					q = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
				}
				var bd *body.Body
				switch {
				case placed > 0 && block:
					xs = append(xs, x)
					placed++
					continue
				case placed > 0 && !makeEachGenerated:
					bd = new(body.Body)
					*bd = first
					n := body.GenNameLen(g.Name, placed)
					bd.Name, bd.X = names[off:off+n], x
					off += n
					if bd.Kind != body.Sphere {
						bd.Q = q.Normalize() // as body.New and body.NewSuperquadric do
					}
				case smooth:
					name = strconv.AppendInt(append(name[:0], g.Name...), int64(placed), 10)
					bd, err = b.newSmooth(string(name), ss, g.Density, g.Mass, x, q, g.Path)
				default:
					name = strconv.AppendInt(append(name[:0], g.Name...), int64(placed), 10)
					bd, err = b.newBody(string(name), p, g.Density, g.Mass, x, q, g.Path)
				}
				if err != nil {
					return err
				}
				if placed == 0 || makeEachGenerated {
					bd.Material = mat
					bd.SetGroup(g.Name)
					bd.V = g.Velocity
					first = *bd
				}
				placed++
				if block {
					xs = append(xs, bd.X)
					continue
				}
				b.w.AddBody(bd)
			}
		}
		if block {
			b.w.AddSphereBlock(g.Name, &first, xs)
		}
	}
	return nil
}

// makeEachGenerated makes generators build every body anew, as they did
// before they copied their first (the tests' reference).
var makeEachGenerated = false

// maxLayerCells bounds the cells of one generator layer (the random
// permutation of a layer's cells is allocated whole).
const maxLayerCells = 1 << 20

// cells converts a cell count ≥ 0 to an int without overflow (NaN → 0).
func cells(x float64) int {
	if !(x > 0) {
		return 0
	}
	return int(math.Min(x, 1<<40))
}

func (b *builder) walls() error {
	for _, ws := range b.s.Walls {
		var surf *shape.Polyhedron
		var err error
		switch ws.Type {
		case "plane":
			u, v := ws.Axes()
			hu, hv := u.Scale(ws.Size[0]/2), v.Scale(ws.Size[1]/2)
			c := ws.Point
			vs := []geom.Vec3{c.Sub(hu).Sub(hv), c.Add(hu).Sub(hv), c.Add(hu).Add(hv), c.Sub(hu).Add(hv)}
			tris := [][3]int32{{0, 1, 2}, {0, 2, 3}}
			if u.Cross(v).Dot(ws.Normal) < 0 {
				tris = [][3]int32{{0, 2, 1}, {0, 3, 2}}
			}
			surf, err = shape.NewSurface(ws.Name, vs, tris)
		case "stl":
			data, rerr := b.s.ReadFile(ws.File)
			if rerr != nil {
				return b.s.Errorf(ws.Path+".path", "%v", rerr)
			}
			vs, tris, rerr := shape.ReadSTL(bytes.NewReader(data), ws.File, 0)
			if rerr != nil {
				return b.s.Errorf(ws.Path+".path", "%v", rerr)
			}
			if ws.Scale != 0 && ws.Scale != 1 {
				for i := range vs {
					vs[i] = vs[i].Scale(ws.Scale)
				}
			}
			surf, err = shape.NewSurface(ws.Name, vs, tris)
		default:
			return b.s.Errorf(ws.Path+".type", "unknown wall type %q", ws.Type)
		}
		if err != nil {
			return b.s.Errorf(ws.Path, "%v", err)
		}
		if _, err := b.w.AddWall(ws.Name, surf, b.w.Material(ws.Material), ws.Enabled); err != nil {
			return b.s.Errorf(ws.Path, "%v", err)
		}
	}
	return nil
}

func (b *builder) loads() error {
	for _, l := range b.s.Loads {
		bi := b.w.BodyByName(l.Body)
		if bi < 0 || b.w.Bodies()[bi].Wall >= 0 {
			return b.s.Errorf(l.Path+".body", "no body named %q", l.Body)
		}
		fr := body.World
		if l.Frame == "body" {
			fr = body.BodyFrame
		}
		b.w.Loads = append(b.w.Loads, body.Load{
			Name: l.Name, Body: bi, Point: l.Point, Frame: fr,
			Force:  body.Ramp(l.Force),
			Moment: body.Ramp(l.Moment),
		})
	}
	return nil
}

func (b *builder) events() error {
	for _, ev := range b.s.Events {
		e := world.Event{At: ev.At, Disable: ev.DisableWalls, Enable: ev.EnableWalls,
			Source: fmt.Sprintf("%s:%d: %s", b.s.File, b.s.Line(ev.Path), ev.Path)}
		for _, n := range append(append([]string(nil), ev.DisableWalls...), ev.EnableWalls...) {
			if b.w.WallByName(n) < 0 {
				return b.s.Errorf(ev.Path, "no wall named %q", n)
			}
		}
		for _, a := range ev.Set {
			v, err := strconv.ParseFloat(a.Value, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return b.s.Errorf(ev.Path+".set", "%s: expected a finite number, got %q", a.Path, a.Value)
			}
			e.Set = append(e.Set, world.Assign{Path: b.eventParamPath(a.Path), Value: v})
		}
		b.w.Events = append(b.w.Events, e)
	}
	return nil
}

// eventParamPath returns an event's parameter path in World.SetParam's
// grammar: the scene names a material pair's law by its index,
// contact.pairs[<i>].<key> or contact.pairs.<i>.<key>, the running world by its
// materials, contact.<matA>.<matB>.<key>; other paths are returned as
// they are. (A pair's index passed the scene's checks, so it is in range;
// before session 16 the event failed when it came: review r3.)
func (b *builder) eventParamPath(path string) string {
	// contact.pairs[<i>].<key> or contact.pairs.<i>.<key>
	rest, ok := strings.CutPrefix(path, "contact.pairs")
	if !ok {
		return path
	}
	var idx, key string
	if r, ok := strings.CutPrefix(rest, "["); ok {
		idx, key, ok = strings.Cut(r, "].")
		if !ok {
			return path
		}
	} else if r, ok := strings.CutPrefix(rest, "."); ok {
		if idx, key, ok = strings.Cut(r, "."); !ok {
			return path
		}
	} else {
		return path
	}
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= len(b.s.Contact.Pairs) || key == "" || strings.Contains(key, ".") {
		return path
	}
	bt := b.s.Contact.Pairs[i].Between
	return "contact." + bt[0] + "." + bt[1] + "." + key
}

func (b *builder) probes() error {
	for _, p := range b.s.Probes {
		pr := world.Probe{Name: p.Name, Body: -1, Wall: -1, Quantity: p.Quantity}
		if p.Wall != "" {
			if pr.Wall = b.w.WallByName(p.Wall); pr.Wall < 0 {
				return b.s.Errorf(p.Path+".wall", "no wall named %q", p.Wall)
			}
		} else if pr.Body = b.w.BodyByName(p.Body); pr.Body < 0 {
			return b.s.Errorf(p.Path+".body", "no body named %q", p.Body)
		}
		if _, err := b.w.ProbeValue(&pr); err != nil {
			return b.s.Errorf(p.Path+".quantity", "%v", err)
		}
		b.w.Probes = append(b.w.Probes, pr)
	}
	return nil
}
