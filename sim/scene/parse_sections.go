package scene

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
)

func (d *decoder) decodeIntegrator(top *object) Integrator {
	it := Integrator{Path: "integrator", Name: "explicit", Safety: 0.2, DampLag: true, DampLagEntry: true}
	o := top.sub("integrator")
	o.allow("name", "dt", "dt_min", "dt_max", "safety", "beta", "gamma", "alpha", "tol", "max_iter", "method", "compatible", "restitution", "damp_lag", "damp_lag_entry", "tangent")
	o.boolean("damp_lag", &it.DampLag)
	if o.boolean("damp_lag_entry", &it.DampLagEntry) {
		o.check("damp_lag_entry", !it.DampLagEntry || it.DampLag, "needs damp_lag: true")
	}
	it.Tangent = "analytic"
	o.enum("tangent", &it.Tangent, "fd", "analytic")
	it.Method, it.Compatible = "apgd", true
	o.enum("method", &it.Method, "pgs", "apgd")
	o.boolean("compatible", &it.Compatible)
	if o.num("restitution", &it.Restitution) {
		o.check("restitution", it.Restitution >= 0 && it.Restitution <= 1, fmt.Sprintf("must be in [0, 1], got %v", it.Restitution))
	}
	o.enum("name", &it.Name, "explicit", "newmark", "variational", "variational1", "cd")
	o.need("dt")
	o.num("dt", &it.Dt)
	o.positive("dt", it.Dt)
	it.DtMin, it.DtMax = math.Min(it.Dt, 1e-9), it.Dt
	if o.num("dt_min", &it.DtMin) {
		o.positive("dt_min", it.DtMin)
		o.check("dt_min", it.DtMin <= it.Dt, fmt.Sprintf("must be ≤ dt (%v), got %v", it.Dt, it.DtMin))
	}
	if o.num("dt_max", &it.DtMax) {
		o.check("dt_max", it.DtMax >= it.Dt, fmt.Sprintf("must be ≥ dt (%v), got %v", it.Dt, it.DtMax))
	}
	if o.num("safety", &it.Safety) {
		o.check("safety", it.Safety > 0 && it.Safety <= 1, fmt.Sprintf("must be in (0, 1], got %v", it.Safety))
	}
	if it.Beta = o.optNum("beta"); it.Beta != nil {
		o.nonNeg("beta", *it.Beta)
	}
	if it.Gamma = o.optNum("gamma"); it.Gamma != nil {
		o.nonNeg("gamma", *it.Gamma)
	}
	it.Alpha = o.optNum("alpha")
	if it.Tol = o.optNum("tol"); it.Tol != nil {
		o.positive("tol", *it.Tol)
	}
	var mi int
	if o.integer("max_iter", &mi, 1, 1_000_000) {
		it.MaxIter = &mi
	}
	return it
}

func (d *decoder) decodeContact(top *object) Contact {
	c := Contact{Default: defaultLaw()}
	co := top.sub("contact")
	co.allow("default", "pairs", "skin")
	co.need("default")
	if n := co.get("skin"); n != nil && !(n.Kind == yaml.ScalarNode && n.Value == "auto") && co.num("skin", &c.Skin) {
		co.check("skin", c.Skin > 0 && c.Skin <= math.MaxFloat64, fmt.Sprintf("must be auto or a skin > 0 in metres, got %v", c.Skin))
	}
	def := co.sub("default")
	def.allow(lawKeys...)
	given := d.readLaw(def, &c.Default)
	if d.err == nil && !given[keyModel] && !(given[keyGbar] && given[keyEps1]) {
		def.need(keyGbar, keyEps1) // polyhedra: the barrier law; spheres and superquadrics: model
	}
	c.Default.Poly = given[keyGbar] || given[keyEps1]
	c.Default.Smooth = given[keyModel]
	seen := map[[2]string]string{}
	for i, it := range co.list("pairs") {
		p := d.object(it, it, index("contact.pairs", i))
		p.allow(append([]string{"between"}, lawKeys...)...)
		p.need("between")
		names := p.names("between")
		if d.err != nil {
			return c
		}
		if len(names) != 2 {
			d.errAt(p.val["between"], join(p.path, "between"), "expected two material names [a, b], got %d", len(names))
			return c
		}
		pr := Pair{Path: p.path, Between: [2]string{names[0], names[1]}, Law: c.Default}
		pr.Law.Path = p.path
		pr.Keys = d.readLaw(p, &pr.Law)
		key := pr.Between
		if key[0] > key[1] {
			key[0], key[1] = key[1], key[0]
		}
		if prev, dup := seen[key]; dup {
			d.errAt(p.val["between"], join(p.path, "between"), "pair [%s, %s] already given in %s", names[0], names[1], prev)
			return c
		}
		seen[key] = p.path
		c.Pairs = append(c.Pairs, pr)
	}
	return c
}

func (d *decoder) decodeShapes(top *object) (map[string]Shape, []string) {
	shapes := map[string]Shape{}
	so := top.sub("shapes")
	var order []string
	for _, name := range so.order {
		p := join("shapes", name)
		if !validName(name) {
			d.errAt(so.key[name], p, "shape names must not contain spaces or any of .,;=[]{}#\"'$")
			break
		}
		o := d.object(so.key[name], so.get(name), p)
		sh := Shape{Path: p, Name: name}
		o.need("type")
		o.enum("type", &sh.Type, ShapeBox, ShapeTetrapod, ShapeSTL, ShapeSphere, ShapeSuperquadric)
		switch sh.Type {
		case ShapeBox:
			o.allow("type", "size")
			o.need("size")
			o.vec3("size", &sh.Size)
			o.positiveVec("size", sh.Size)
		case ShapeTetrapod:
			o.allow("type", "leg_length", "base_radius", "tip_radius", "sides", "root_distance")
			o.need("leg_length", "base_radius", "root_distance")
			sh.Sides = 6
			o.num("leg_length", &sh.LegLength)
			o.positive("leg_length", sh.LegLength)
			o.num("base_radius", &sh.BaseRadius)
			o.positive("base_radius", sh.BaseRadius)
			if o.num("tip_radius", &sh.TipRadius) {
				o.nonNeg("tip_radius", sh.TipRadius)
			}
			o.integer("sides", &sh.Sides, 3, shape.MaxTetrapodSides)
			o.num("root_distance", &sh.RootDistance)
			o.nonNeg("root_distance", sh.RootDistance)
		case ShapeSTL:
			o.allow("type", "path", "scale", "weld_tol")
			o.need("path")
			sh.Scale = 1
			o.str("path", &sh.File)
			if o.num("scale", &sh.Scale) {
				o.positive("scale", sh.Scale)
			}
			if o.num("weld_tol", &sh.WeldTol) {
				o.nonNeg("weld_tol", sh.WeldTol)
			}
		case ShapeSphere:
			o.allow("type", "radius")
			o.need("radius")
			o.num("radius", &sh.Radius)
			o.positive("radius", sh.Radius)
		case ShapeSuperquadric:
			o.allow("type", "a", "b", "c", "n1", "n2")
			o.need("a", "b", "c")
			sh.N1, sh.N2 = 2, 2
			for _, k := range []string{"a", "b", "c"} {
				f := map[string]*float64{"a": &sh.A, "b": &sh.B, "c": &sh.C}[k]
				o.num(k, f)
				o.positive(k, *f)
			}
			if o.num("n1", &sh.N1) {
				o.check("n1", sh.N1 >= 2 && sh.N1 <= sq.MaxBlockiness, fmt.Sprintf("must be in [2, %d], got %v", sq.MaxBlockiness, sh.N1))
			}
			if o.num("n2", &sh.N2) {
				o.check("n2", sh.N2 >= 2 && sh.N2 <= sq.MaxBlockiness, fmt.Sprintf("must be in [2, %d], got %v", sq.MaxBlockiness, sh.N2))
			}
		}
		if d.err != nil {
			break
		}
		shapes[name] = sh
		order = append(order, name)
	}
	return shapes, order
}

// ref checks that name is one of known (a map key set) and reports a
// suggestion otherwise.
func (d *decoder) ref(o *object, k, what, name string, known []string) bool {
	for _, n := range known {
		if n == name {
			return true
		}
	}
	hint := ""
	if s := suggest(name, known); s != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", s)
	} else if len(known) == 0 {
		hint = fmt.Sprintf(" (no %ss are defined)", what)
	} else {
		k := append([]string(nil), known...)
		sort.Strings(k)
		if len(k) > 12 {
			k = append(k[:12], "…")
		}
		hint = fmt.Sprintf(" (%ss: %s)", what, strings.Join(k, ", "))
	}
	n := o.val[k]
	if n == nil {
		n = o.at
	}
	d.errAt(n, join(o.path, k), "unknown %s %q%s", what, name, hint)
	return false
}

func shapeNames(shapes map[string]Shape) []string {
	out := make([]string, 0, len(shapes))
	for k := range shapes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// massOrDensity reads exactly one of density and mass (none allowed if optional).
func (d *decoder) massOrDensity(o *object, density, mass *float64, optional bool) {
	switch o.oneOf(optional, "density", "mass") {
	case "density":
		o.num("density", density)
		o.positive("density", *density)
	case "mass":
		o.num("mass", mass)
		o.positive("mass", *mass)
	}
}

func (d *decoder) decodeBodies(top *object, shapes map[string]Shape) []Body {
	var out []Body
	names := map[string]string{}
	known := shapeNames(shapes)
	for i, it := range top.list("bodies") {
		p := index("bodies", i)
		o := d.object(it, it, p)
		o.allow("name", "shape", "material", "density", "mass", "position", "orientation",
			"velocity", "angular_velocity", "fixed", "rest_on_ground")
		b := Body{Path: p, Name: fmt.Sprintf("body%d", i), Material: "default", Orientation: geom.QIdent()}
		o.name("name", &b.Name)
		o.need("shape")
		if o.name("shape", &b.Shape) {
			d.ref(o, "shape", "shape", b.Shape, known)
		}
		o.name("material", &b.Material)
		o.boolean("fixed", &b.Fixed)
		o.boolean("rest_on_ground", &b.RestOnGround)
		d.massOrDensity(o, &b.Density, &b.Mass, b.Fixed)
		o.vec3("position", &b.Position)
		o.vec3("velocity", &b.Velocity)
		o.vec3("angular_velocity", &b.AngularVelocity)
		if o.has("orientation") {
			b.Orientation = d.orientation(o.sub("orientation"))
		}
		if prev, dup := names[b.Name]; dup && d.err == nil {
			d.errAt(o.val["name"], join(p, "name"), "duplicate body name %q (also %s)", b.Name, prev)
		}
		if d.err != nil {
			return nil
		}
		names[b.Name] = p
		out = append(out, b)
	}
	return out
}

// orientation decodes one of the four orientation forms into a unit quaternion.
func (d *decoder) orientation(o *object) geom.Quat {
	q := geom.QIdent()
	o.allow("quaternion", "axis_angle", "euler_deg", "rotations")
	switch o.oneOf(false, "quaternion", "axis_angle", "euler_deg", "rotations") {
	case "quaternion":
		var a [4]float64
		if d.floats(o.get("quaternion"), join(o.path, "quaternion"), a[:], "[w, x, y, z]") {
			q = geom.Quat{W: a[0], X: a[1], Y: a[2], Z: a[3]}
			o.check("quaternion", q.Norm() > 1e-12, "must not be zero")
			q = q.Normalize()
		}
	case "axis_angle":
		q = d.axisAngle(o.sub("axis_angle"))
	case "euler_deg":
		var e geom.Vec3
		if o.vec3("euler_deg", &e) {
			// Extrinsic x, then y, then z about the fixed world axes.
			rx := geom.QAxisAngle(geom.Vec3{X: 1}, e.X*math.Pi/180)
			ry := geom.QAxisAngle(geom.Vec3{Y: 1}, e.Y*math.Pi/180)
			rz := geom.QAxisAngle(geom.Vec3{Z: 1}, e.Z*math.Pi/180)
			q = rz.Mul(ry).Mul(rx).Normalize()
		}
	case "rotations":
		for i, it := range o.list("rotations") {
			r := d.axisAngle(d.object(it, it, index(join(o.path, "rotations"), i)))
			q = r.Mul(q).Normalize() // each about the fixed world axes, in order
		}
	}
	return q
}

func (d *decoder) axisAngle(o *object) geom.Quat {
	o.allow("axis", "deg")
	o.need("axis", "deg")
	var axis geom.Vec3
	var deg float64
	o.vec3("axis", &axis)
	o.check("axis", axis.Norm() > 1e-12, "must not be zero")
	o.num("deg", &deg)
	if d.err != nil {
		return geom.QIdent()
	}
	return geom.QAxisAngle(axis, deg*math.Pi/180)
}

func (d *decoder) decodeGenerators(top *object, shapes map[string]Shape) []Generator {
	var out []Generator
	names := map[string]string{}
	known := shapeNames(shapes)
	for i, it := range top.list("generators") {
		p := index("generators", i)
		o := d.object(it, it, p)
		o.allow("name", "shape", "count", "region", "seed", "density", "mass", "material",
			"random_orientation", "orientation", "velocity")
		g := Generator{Path: p, Material: "default", Seed: 1, RandomOrientation: true, Orientation: geom.QIdent()}
		o.need("name", "shape", "count", "region")
		o.name("name", &g.Name)
		if o.name("shape", &g.Shape) {
			d.ref(o, "shape", "shape", g.Shape, known)
		}
		o.integer("count", &g.Count, 0, MaxBodies)
		r := o.sub("region")
		r.allow("min", "max")
		r.need("min", "max")
		r.vec3("min", &g.Min)
		r.vec3("max", &g.Max)
		r.check("max", g.Max.X > g.Min.X && g.Max.Y > g.Min.Y && g.Max.Z > g.Min.Z,
			"every component must exceed region.min's")
		var seed int
		if o.integer("seed", &seed, 0, min(1<<53, math.MaxInt)) {
			g.Seed = int64(seed)
		}
		d.massOrDensity(o, &g.Density, &g.Mass, false)
		o.name("material", &g.Material)
		o.boolean("random_orientation", &g.RandomOrientation)
		if o.has("orientation") {
			o.check("orientation", !g.RandomOrientation, "is used only with random_orientation: false")
			g.Orientation = d.orientation(o.sub("orientation"))
		}
		o.vec3("velocity", &g.Velocity)
		if prev, dup := names[g.Name]; dup && d.err == nil {
			d.errAt(o.val["name"], join(p, "name"), "duplicate generator name %q (also %s)", g.Name, prev)
		}
		if d.err != nil {
			return nil
		}
		names[g.Name] = p
		out = append(out, g)
	}
	return out
}

// boxSides are the faces of a box wall: name, inward normal.
var boxSides = []struct {
	name string
	n    geom.Vec3
}{
	{"left", geom.Vec3{X: 1}}, {"right", geom.Vec3{X: -1}},
	{"front", geom.Vec3{Y: 1}}, {"back", geom.Vec3{Y: -1}},
	{"bottom", geom.Vec3{Z: 1}}, {"top", geom.Vec3{Z: -1}},
}

func (d *decoder) decodeWalls(top *object) []Wall {
	var out []Wall
	entry := map[string]string{}      // entry name → path
	wallAt := map[string]*yaml.Node{} // expanded name → node for errors
	wallPath := map[string]string{}
	add := func(w Wall, at *yaml.Node, atPath string) {
		if prev, dup := wallPath[w.Name]; dup {
			d.errAt(at, atPath, "duplicate wall name %q (also %s)", w.Name, prev)
			return
		}
		wallPath[w.Name], wallAt[w.Name] = w.Path, at
		out = append(out, w)
	}
	for i, it := range top.list("walls") {
		p := index("walls", i)
		o := d.object(it, it, p)
		var typ string
		o.need("type")
		o.enum("type", &typ, "plane", "box", "stl")
		w := Wall{Path: p, Type: typ, Material: "default", Enabled: true}
		switch typ {
		case "plane":
			o.allow("type", "name", "point", "normal", "size", "material", "enabled")
			o.need("name", "point", "normal")
			w.Size = [2]float64{100, 100}
			o.vec3("point", &w.Point)
			o.vec3("normal", &w.Normal)
			o.check("normal", w.Normal.Norm() > 1e-12, "must not be zero")
			w.Normal = w.Normal.Unit()
			if o.vec2("size", &w.Size, "[w, h]") {
				o.check("size", w.Size[0] > 0 && w.Size[1] > 0, "both extents must be > 0")
			}
		case "stl":
			o.allow("type", "name", "path", "scale", "material", "enabled")
			o.need("name", "path")
			w.Scale = 1
			o.str("path", &w.File)
			if o.num("scale", &w.Scale) {
				o.positive("scale", w.Scale)
			}
		case "box":
			o.allow("type", "name", "min", "max", "open_top", "names", "floor_size", "material", "enabled")
			o.need("min", "max")
		}
		o.name("name", &w.Name)
		o.name("material", &w.Material)
		o.boolean("enabled", &w.Enabled)
		if d.err != nil {
			return nil
		}
		if w.Name != "" {
			if prev, dup := entry[w.Name]; dup {
				d.errAt(o.val["name"], join(p, "name"), "duplicate wall name %q (also %s)", w.Name, prev)
				return nil
			}
			entry[w.Name] = p
		}
		if typ != "box" {
			add(w, it, p)
			continue
		}
		var lo, hi geom.Vec3
		openTop := true
		floor := [2]float64{100, 100}
		o.vec3("min", &lo)
		o.vec3("max", &hi)
		o.check("max", hi.X > lo.X && hi.Y > lo.Y && hi.Z > lo.Z, "every component must exceed min's")
		o.boolean("open_top", &openTop)
		if o.vec2("floor_size", &floor, "[w, h]") {
			o.check("floor_size", floor[0] >= hi.X-lo.X && floor[1] >= hi.Y-lo.Y,
				"must be at least the box's bottom extent")
		}
		rn := o.sub("names")
		rn.allow("left", "right", "front", "back", "bottom", "top")
		c := lo.Add(hi).Scale(0.5)
		ext := hi.Sub(lo)
		for _, side := range boxSides {
			if side.name == "top" && openTop {
				continue
			}
			pw := w
			pw.Type, pw.Box, pw.Side, pw.Name, pw.Normal = "plane", w.Name, side.name, side.name, side.n
			at, atPath := it, p
			if rn.name(side.name, &pw.Name) {
				at, atPath = rn.val[side.name], join(rn.path, side.name)
			}
			pw.Point = c
			switch side.name {
			case "left":
				pw.Point.X, pw.Size = lo.X, [2]float64{ext.Y, ext.Z}
			case "right":
				pw.Point.X, pw.Size = hi.X, [2]float64{ext.Y, ext.Z}
			case "front":
				pw.Point.Y, pw.Size = lo.Y, [2]float64{ext.X, ext.Z}
			case "back":
				pw.Point.Y, pw.Size = hi.Y, [2]float64{ext.X, ext.Z}
			case "bottom":
				pw.Point.Z, pw.Size = lo.Z, floor
			case "top":
				pw.Point.Z, pw.Size = hi.Z, [2]float64{ext.X, ext.Y}
			}
			if d.err == nil {
				add(pw, at, atPath)
			}
		}
		if d.err != nil {
			return nil
		}
	}
	return out
}

func wallNames(walls []Wall) []string {
	out := make([]string, len(walls))
	for i, w := range walls {
		out[i] = w.Name
	}
	return out
}

func bodyNames(bodies []Body) []string {
	out := make([]string, len(bodies))
	for i, b := range bodies {
		out[i] = b.Name
	}
	return out
}

func (d *decoder) decodeLoads(top *object, bodies []Body) []ExternalLoad {
	var out []ExternalLoad
	known := bodyNames(bodies)
	for i, it := range top.list("loads") {
		p := index("loads", i)
		o := d.object(it, it, p)
		o.allow("name", "body", "point", "frame", "force", "moment")
		l := ExternalLoad{Path: p, Frame: "world"}
		o.name("name", &l.Name)
		o.need("body")
		if o.name("body", &l.Body) {
			d.ref(o, "body", "body", l.Body, known)
		}
		o.vec3("point", &l.Point)
		o.enum("frame", &l.Frame, "world", "body")
		if !o.has("force") && !o.has("moment") {
			d.errAt(it, p, "a load needs a force or a moment (or both)")
		}
		if o.has("force") {
			l.Force = d.ramp(o.sub("force"))
		}
		if o.has("moment") {
			l.Moment = d.ramp(o.sub("moment"))
		}
		if d.err != nil {
			return nil
		}
		out = append(out, l)
	}
	return out
}

func (d *decoder) ramp(o *object) Ramp {
	var r Ramp
	o.allow("from", "to", "t0", "t1", "value")
	if o.has("value") {
		for _, k := range []string{"from", "to", "t0", "t1"} {
			if o.has(k) {
				d.errAt(o.key[k], join(o.path, k), "give either value (constant) or from/to/t0/t1 (ramp), not both")
				return r
			}
		}
		o.vec3("value", &r.From)
		r.To = r.From
		return r
	}
	o.need("to")
	o.vec3("from", &r.From)
	o.vec3("to", &r.To)
	o.num("t0", &r.T0)
	r.T1 = r.T0
	if o.num("t1", &r.T1) {
		o.check("t1", r.T1 >= r.T0, fmt.Sprintf("must be ≥ t0 (%v), got %v", r.T0, r.T1))
	}
	return r
}

func (d *decoder) decodeOutput(top *object) Output {
	out := Output{Every: 0.01, Contacts: "final"}
	o := top.sub("output")
	o.allow("every", "contacts", "checkpoint")
	if o.num("every", &out.Every) {
		o.positive("every", out.Every)
	}
	if o.num("checkpoint", &out.Checkpoint) {
		o.positive("checkpoint", out.Checkpoint)
	}
	o.enum("contacts", &out.Contacts, "final", "every")
	return out
}

func (d *decoder) decodeRecord(top *object) Record {
	r := Record{Keyframes: 1}
	o := top.sub("record")
	o.allow("every", "keyframes")
	if o.num("every", &r.Every) {
		o.positive("every", r.Every)
	}
	if o.num("keyframes", &r.Keyframes) {
		o.positive("keyframes", r.Keyframes)
	}
	return r
}

var (
	bodyQuantities = []string{"position", "velocity", "angular_velocity", "force", "contact_force"}
	wallQuantities = []string{"force", "contact_force"}
)

func (d *decoder) decodeProbes(top *object, bodies []Body, walls []Wall) []Probe {
	var out []Probe
	names := map[string]string{}
	for i, it := range top.list("probes") {
		p := index("probes", i)
		o := d.object(it, it, p)
		o.allow("name", "body", "wall", "quantity")
		pr := Probe{Path: p}
		o.need("quantity")
		var target string
		switch o.oneOf(false, "body", "wall") {
		case "body":
			if o.name("body", &pr.Body) {
				d.ref(o, "body", "body", pr.Body, bodyNames(bodies))
			}
			o.enum("quantity", &pr.Quantity, bodyQuantities...)
			target = pr.Body
		case "wall":
			if o.name("wall", &pr.Wall) {
				d.ref(o, "wall", "wall", pr.Wall, wallNames(walls))
			}
			o.enum("quantity", &pr.Quantity, wallQuantities...)
			target = pr.Wall
		}
		pr.Name = target + "_" + pr.Quantity
		o.name("name", &pr.Name)
		if prev, dup := names[pr.Name]; dup && d.err == nil {
			d.errAt(it, p, "duplicate probe name %q (also %s); give a name", pr.Name, prev)
		}
		if d.err != nil {
			return nil
		}
		names[pr.Name] = p
		out = append(out, pr)
	}
	return out
}

func (d *decoder) decodePeriodic(top *object) Periodic {
	p := Periodic{Path: "periodic"}
	if !top.has("periodic") {
		return p
	}
	o := top.sub("periodic")
	o.allow("x", "y", "min", "max")
	o.boolean("x", &p.X)
	o.boolean("y", &p.Y)
	o.need("min", "max")
	o.vec3("min", &p.Min)
	o.vec3("max", &p.Max)
	if p.X {
		o.check("max", p.Max.X > p.Min.X, "max.x must exceed min.x")
	}
	if p.Y {
		o.check("max", p.Max.Y > p.Min.Y, "max.y must exceed min.y")
	}
	return p
}
