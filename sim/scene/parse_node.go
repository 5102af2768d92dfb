package scene

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"grainlab/sim/geom"
)

// decoder walks a yaml.Node tree. The first error sticks: every method is a
// no-op once d.err is set, so section decoders read straight through.
type decoder struct {
	file    string
	src     map[string]Source
	origin  map[*yaml.Node]setSrc // nodes inserted by overrides
	params  map[string]float64
	err     error
	derefs  int
	noParam bool // while decoding params themselves
}

// setSrc marks a node inserted by an override: label is what errors print
// ("--set contact.default.mu_s" or "scene.yaml:40: events[0].set ...");
// line is the scene line for event assignments, 0 for command-line overrides.
type setSrc struct {
	label string
	file  string
	line  int
}

const maxDerefs = 100000 // alias expansions per document (billion-laughs guard)

func newDecoder(file string, origin map[*yaml.Node]setSrc) *decoder {
	if origin == nil {
		origin = map[*yaml.Node]setSrc{}
	}
	return &decoder{file: file, src: map[string]Source{}, origin: origin}
}

// errAt records an error about the value at node n, whose key path is path.
func (d *decoder) errAt(n *yaml.Node, path, format string, args ...any) {
	if d.err != nil {
		return
	}
	e := &Error{File: d.file, Path: path, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		if o, ok := d.origin[n]; ok {
			e.Set, e.Line = o.label, o.line
		} else {
			e.Line = n.Line
		}
	}
	d.err = e
}

func (d *decoder) record(path string, key, val *yaml.Node) {
	if o, ok := d.origin[val]; ok {
		d.src[path] = Source{Set: o.label, Line: o.line}
		return
	}
	if o, ok := d.origin[key]; ok {
		d.src[path] = Source{Set: o.label, Line: o.line}
		return
	}
	if key != nil {
		d.src[path] = Source{Line: key.Line}
	} else if val != nil {
		d.src[path] = Source{Line: val.Line}
	}
}

// deref follows aliases.
func (d *decoder) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		d.derefs++
		if d.derefs > maxDerefs {
			d.errAt(n, "", "too many alias expansions")
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: n.Line}
		}
		if n.Alias == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: n.Line}
		}
		n = n.Alias
	}
	return n
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func index(parent string, i int) string { return fmt.Sprintf("%s[%d]", parent, i) }

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		v := n.Value
		if len(v) > 60 {
			v = v[:57] + "..."
		}
		return strconv.Quote(v)
	}
	return "an unsupported node"
}

// object is a decoded mapping with its keys indexed.
type object struct {
	d     *decoder
	at    *yaml.Node // where "missing key" errors point (the key or list item)
	path  string
	order []string
	key   map[string]*yaml.Node
	val   map[string]*yaml.Node
}

// object decodes n (already the value node) as a mapping; at is the node
// reported for errors about the mapping as a whole (its key, or n itself).
// A null value (a key with nothing after it) is an empty mapping.
func (d *decoder) object(at, n *yaml.Node, path string) *object {
	o := &object{d: d, at: at, path: path, key: map[string]*yaml.Node{}, val: map[string]*yaml.Node{}}
	if d.err != nil {
		return o
	}
	n = d.deref(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return o
	}
	if n.Kind != yaml.MappingNode {
		d.errAt(n, path, "expected a mapping (key: value lines), got %s", kindName(n))
		return o
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!null" {
			d.errAt(k, path, "keys must be plain names")
			return o
		}
		if k.Tag == "!!merge" || k.Value == "<<" && k.Style == 0 {
			merges = append(merges, v)
			continue
		}
		if prev, dup := o.key[k.Value]; dup {
			d.errAt(k, join(path, k.Value), "duplicate key (first given at line %d)", prev.Line)
			return o
		}
		o.order = append(o.order, k.Value)
		o.key[k.Value], o.val[k.Value] = k, v
	}
	// YAML merge keys (<<: *anchor): keys given directly win.
	for _, m := range merges {
		m = d.deref(m)
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, s := range srcs {
			s = d.deref(s)
			if s.Kind != yaml.MappingNode {
				d.errAt(s, path, "a merge key (<<) needs a mapping")
				return o
			}
			for i := 0; i+1 < len(s.Content); i += 2 {
				k, v := s.Content[i], s.Content[i+1]
				if k.Kind != yaml.ScalarNode || k.Value == "<<" {
					continue
				}
				if _, ok := o.key[k.Value]; !ok {
					o.order = append(o.order, k.Value)
					o.key[k.Value], o.val[k.Value] = k, v
				}
			}
		}
	}
	return o
}

// allow reports the first key not in keys as unknown, with a suggestion.
func (o *object) allow(keys ...string) bool {
	if o.d.err != nil {
		return false
	}
	ok := make(map[string]bool, len(keys))
	for _, k := range keys {
		ok[k] = true
	}
	for _, k := range o.order {
		if !ok[k] {
			o.d.unknownKey(o.key[k], o.path, k, keys)
			return false
		}
	}
	return true
}

func (d *decoder) unknownKey(kn *yaml.Node, parent, key string, valid []string) {
	if d.err != nil {
		return
	}
	hint := ""
	if s := suggest(key, valid); s != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", s)
	} else if len(valid) > 0 {
		v := append([]string(nil), valid...)
		sort.Strings(v)
		hint = " (valid keys: " + strings.Join(v, ", ") + ")"
	}
	if o, ok := d.origin[kn]; ok {
		lbl := o.label
		in := parent
		if in == "" {
			in = "the top level"
		}
		e := &Error{File: d.file, Line: o.line, Set: lbl, Msg: fmt.Sprintf("unknown key %q in %s%s", key, in, hint)}
		if parent == "" {
			e.Msg = fmt.Sprintf("unknown key %q at the top level%s", key, hint)
		}
		d.err = e
		return
	}
	d.err = &Error{File: d.file, Line: kn.Line, Path: join(parent, key), Msg: "unknown key" + hint}
}

// suggest returns the valid key closest to key, if close enough.
func suggest(key string, valid []string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	best, bestD := "", 1<<30
	for _, v := range valid {
		if norm(v) == norm(key) {
			return v
		}
		if len(key) >= 4 && (strings.HasPrefix(v, key) || strings.HasPrefix(key, v) && len(v) >= 4) {
			return v
		}
		if dd := levenshtein(key, v); dd < bestD {
			best, bestD = v, dd
		}
	}
	limit := 1
	if len(key) >= 4 {
		limit = 2
	}
	if len(key) >= 8 {
		limit = 3
	}
	if bestD <= limit {
		return best
	}
	return ""
}

func levenshtein(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (o *object) has(k string) bool { _, ok := o.val[k]; return ok }

// get returns the value node of k (nil if absent) and records its source.
func (o *object) get(k string) *yaml.Node {
	v, ok := o.val[k]
	if !ok {
		return nil
	}
	o.d.record(join(o.path, k), o.key[k], v)
	return o.d.deref(v)
}

// need reports a missing required key at the object's line.
func (o *object) need(keys ...string) bool {
	for _, k := range keys {
		if !o.has(k) {
			o.d.errAt(o.at, o.path, "missing required key %q", k)
			return false
		}
	}
	return o.d.err == nil
}

// oneOf requires exactly one of keys (or at most one when optional).
func (o *object) oneOf(optional bool, keys ...string) string {
	var got []string
	for _, k := range keys {
		if o.has(k) {
			got = append(got, k)
		}
	}
	switch {
	case len(got) > 1:
		a, b := got[0], got[1] // blame the override, or the one given later in the file
		_, aOver := o.d.origin[o.key[a]]
		_, bOver := o.d.origin[o.key[b]]
		if aOver && !bOver || aOver == bOver && o.key[a].Line > o.key[b].Line {
			a, b = b, a
		}
		o.d.errAt(o.key[b], join(o.path, b), "give only one of %s (also got %q)", quoteList(keys), a)
		return ""
	case len(got) == 0 && !optional:
		o.d.errAt(o.at, o.path, "missing one of %s", quoteList(keys))
		return ""
	case len(got) == 0:
		return ""
	}
	return got[0]
}

func quoteList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	if len(q) == 2 {
		return q[0] + " or " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// num reads an optional number into dst; returns whether the key was present.
func (o *object) num(k string, dst *float64) bool {
	n := o.get(k)
	if n == nil || o.d.err != nil {
		return false
	}
	if f, ok := o.d.number(n, join(o.path, k)); ok {
		*dst = f
		return true
	}
	return false
}

func (o *object) optNum(k string) *float64 {
	var f float64
	if o.num(k, &f) {
		return &f
	}
	return nil
}

// number converts a scalar to a finite float64 (with ${param} substitution).
func (d *decoder) number(n *yaml.Node, path string) (float64, bool) {
	if d.err != nil {
		return 0, false
	}
	n = d.deref(n)
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" || n.Tag == "!!bool" {
		d.errAt(n, path, "expected a number, got %s", kindName(n))
		return 0, false
	}
	v := strings.TrimSpace(n.Value)
	var f float64
	var err error
	switch {
	case strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}"):
		name := strings.TrimSpace(v[2 : len(v)-1])
		p, ok := d.params[name]
		if d.noParam || !ok {
			names := make([]string, 0, len(d.params))
			for k := range d.params {
				names = append(names, k)
			}
			hint := ""
			if s := suggest(name, names); s != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", s)
			}
			d.errAt(n, path, "unknown parameter %q%s", name, hint)
			return 0, false
		}
		return p, true
	case n.Tag == "!!int" || n.Tag == "!!float":
		err = n.Decode(&f)
	default:
		f, err = strconv.ParseFloat(v, 64)
	}
	if err != nil {
		d.errAt(n, path, "expected a number, got %s", kindName(n))
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		d.errAt(n, path, "must be a finite number, got %s", n.Value)
		return 0, false
	}
	return f, true
}

// integer reads an optional whole number within [lo, hi].
func (o *object) integer(k string, dst *int, lo, hi int) bool {
	var f float64
	if !o.num(k, &f) {
		return false
	}
	p := join(o.path, k)
	if f != math.Trunc(f) {
		o.d.errAt(o.val[k], p, "expected a whole number, got %v", f)
		return false
	}
	if f < float64(lo) || f > float64(hi) {
		o.d.errAt(o.val[k], p, "must be between %d and %d, got %v", lo, hi, f)
		return false
	}
	*dst = int(f)
	return true
}

func (o *object) str(k string, dst *string) bool {
	n := o.get(k)
	if n == nil || o.d.err != nil {
		return false
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		o.d.errAt(n, join(o.path, k), "expected a string, got %s", kindName(n))
		return false
	}
	*dst = n.Value
	return true
}

// name reads a non-empty single-line identifier-like string.
func (o *object) name(k string, dst *string) bool {
	var s string
	if !o.str(k, &s) {
		return false
	}
	if !validName(s) {
		o.d.errAt(o.val[k], join(o.path, k), "must be a name without spaces or any of .,;=[]{}#\"'$, got %q", s)
		return false
	}
	*dst = s
	return true
}

func (o *object) boolean(k string, dst *bool) bool {
	n := o.get(k)
	if n == nil || o.d.err != nil {
		return false
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		if err := n.Decode(dst); err == nil {
			return true
		}
	}
	o.d.errAt(n, join(o.path, k), "expected true or false, got %s", kindName(n))
	return false
}

func (o *object) enum(k string, dst *string, options ...string) bool {
	var s string
	if !o.str(k, &s) {
		return false
	}
	for _, opt := range options {
		if s == opt {
			*dst = s
			return true
		}
	}
	hint := ""
	if sg := suggest(s, options); sg != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", sg)
	}
	o.d.errAt(o.val[k], join(o.path, k), "must be one of %s, got %q%s", strings.Join(options, " | "), s, hint)
	return false
}

// floats reads a list of exactly len(dst) numbers.
func (d *decoder) floats(n *yaml.Node, path string, dst []float64, what string) bool {
	if d.err != nil {
		return false
	}
	n = d.deref(n)
	if n.Kind != yaml.SequenceNode {
		d.errAt(n, path, "expected %d numbers %s, got %s", len(dst), what, kindName(n))
		return false
	}
	if len(n.Content) != len(dst) {
		d.errAt(n, path, "expected %d numbers %s, got %d", len(dst), what, len(n.Content))
		return false
	}
	for i, c := range n.Content {
		f, ok := d.number(c, index(path, i))
		if !ok {
			return false
		}
		dst[i] = f
	}
	return true
}

func (o *object) vec3(k string, dst *geom.Vec3) bool {
	n := o.get(k)
	if n == nil || o.d.err != nil {
		return false
	}
	var a [3]float64
	if !o.d.floats(n, join(o.path, k), a[:], "[x, y, z]") {
		return false
	}
	*dst = geom.Vec3{X: a[0], Y: a[1], Z: a[2]}
	return true
}

func (o *object) vec2(k string, dst *[2]float64, what string) bool {
	n := o.get(k)
	if n == nil || o.d.err != nil {
		return false
	}
	return o.d.floats(n, join(o.path, k), dst[:], what)
}

// list returns the items of an optional list value (null → empty).
func (o *object) list(k string) []*yaml.Node {
	n := o.get(k)
	if n == nil || o.d.err != nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		o.d.errAt(n, join(o.path, k), "expected a list (lines starting with \"- \"), got %s", kindName(n))
		return nil
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		out[i] = o.d.deref(c)
		o.d.record(index(join(o.path, k), i), nil, c)
	}
	return out
}

// names reads a list of names.
func (o *object) names(k string) []string {
	items := o.list(k)
	var out []string
	for i, it := range items {
		p := index(join(o.path, k), i)
		if it.Kind != yaml.ScalarNode || it.Tag == "!!null" || strings.TrimSpace(it.Value) == "" {
			o.d.errAt(it, p, "expected a name, got %s", kindName(it))
			return nil
		}
		out = append(out, it.Value)
	}
	return out
}

// positive and nonNeg check a value read from key k.
func (o *object) check(k string, ok bool, msg string) {
	if !ok && o.d.err == nil {
		n := o.val[k]
		if n == nil {
			n = o.at
		}
		o.d.errAt(n, join(o.path, k), "%s", msg)
	}
}

func (o *object) positive(k string, v float64) {
	o.check(k, v > 0, fmt.Sprintf("must be > 0, got %v", v))
}

func (o *object) nonNeg(k string, v float64) {
	o.check(k, v >= 0, fmt.Sprintf("must be ≥ 0, got %v", v))
}

func (o *object) positiveVec(k string, v geom.Vec3) {
	o.check(k, v.X > 0 && v.Y > 0 && v.Z > 0, fmt.Sprintf("every component must be > 0, got [%v, %v, %v]", v.X, v.Y, v.Z))
}

// sub returns the mapping under key k; an absent key gives an empty object
// whose errors point at o (so "missing required key" names the parent's line).
func (o *object) sub(k string) *object {
	n := o.get(k)
	if n == nil || o.d.err != nil {
		return &object{d: o.d, at: o.at, path: join(o.path, k), key: map[string]*yaml.Node{}, val: map[string]*yaml.Node{}}
	}
	return o.d.object(o.key[k], n, join(o.path, k))
}

// validName reports whether s can be used as a name that key paths,
// --set overrides and event strings can address.
func validName(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\n\r.,;=[]{}#\"'$")
}
