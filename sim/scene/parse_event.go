package scene

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// pendingSet is an event assignment whose path is checked after decoding,
// by applying it to a copy of the scene.
type pendingSet struct {
	src setSrc // label "file:line: events[i].set path"
	a   Assignment
}

// The event string grammar (docs/scenes.md):
//
//	event  = "at" time ["s"] action {";" action}
//	action = ("disable" | "enable") ("walls" | "wall") name {"," name}
//	       | "set" path "=" value
var (
	eventHeadRE = regexp.MustCompile(`^at\s+([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\s*(?:s\b)?\s*(.*)$`)
	eventWallRE = regexp.MustCompile(`^(disable|enable)\s+walls?\s+(.+)$`)
	eventSetRE  = regexp.MustCompile(`^set\s+([^\s=]+)\s*=\s*(.*)$`)
)

const eventGrammar = `expected "at <time> s <action>[; <action>...]" where an action is ` +
	`"disable walls a,b", "enable walls a,b" or "set key.path = value"`

// parseEventString parses the string form of an event; the error is the message only.
func parseEventString(s string) (Event, string) {
	var ev Event
	m := eventHeadRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return ev, eventGrammar
	}
	t, err := strconv.ParseFloat(m[1], 64)
	if err != nil || math.IsInf(t, 0) || math.IsNaN(t) {
		return ev, fmt.Sprintf("bad time %q; %s", m[1], eventGrammar)
	}
	if t < 0 {
		return ev, fmt.Sprintf("time must be ≥ 0, got %v", t)
	}
	ev.At = t
	if strings.TrimSpace(m[2]) == "" {
		return ev, "no action after the time; " + eventGrammar
	}
	for _, act := range strings.Split(m[2], ";") {
		act = strings.TrimSpace(act)
		if w := eventWallRE.FindStringSubmatch(act); w != nil {
			var names []string
			for _, n := range strings.Split(w[2], ",") {
				n = strings.TrimSpace(n)
				if !validName(n) {
					return ev, fmt.Sprintf("bad wall name %q in %q; names are separated by commas", n, act)
				}
				names = append(names, n)
			}
			if w[1] == "disable" {
				ev.DisableWalls = append(ev.DisableWalls, names...)
			} else {
				ev.EnableWalls = append(ev.EnableWalls, names...)
			}
			continue
		}
		if st := eventSetRE.FindStringSubmatch(act); st != nil {
			v := strings.TrimSpace(st[2])
			if v == "" {
				return ev, fmt.Sprintf("missing value in %q", act)
			}
			ev.Set = append(ev.Set, Assignment{Path: st[1], Value: v})
			continue
		}
		return ev, fmt.Sprintf("cannot read action %q; %s", act, eventGrammar)
	}
	return ev, ""
}

func (d *decoder) decodeEvents(top *object, walls []Wall) ([]Event, []pendingSet) {
	var out []Event
	var pending []pendingSet
	known := wallNames(walls)
	for i, it := range top.list("events") {
		p := index("events", i)
		var ev Event
		// wallRefs pairs each wall name with the node and path to blame.
		type ref struct {
			name string
			n    *yaml.Node
			path string
		}
		var refs []ref
		var setAt []*yaml.Node
		if it.Kind == yaml.ScalarNode && it.Tag != "!!null" {
			var msg string
			ev, msg = parseEventString(it.Value)
			if msg != "" {
				d.errAt(it, p, "%s", msg)
				return nil, nil
			}
			for _, n := range append(append([]string(nil), ev.DisableWalls...), ev.EnableWalls...) {
				refs = append(refs, ref{n, it, p})
			}
			for range ev.Set {
				setAt = append(setAt, it)
			}
		} else {
			o := d.object(it, it, p)
			o.allow("at", "disable_walls", "enable_walls", "set")
			o.need("at")
			o.num("at", &ev.At)
			o.nonNeg("at", ev.At)
			for _, k := range []string{"disable_walls", "enable_walls"} {
				names := o.names(k)
				items := o.list(k)
				for j, n := range names {
					refs = append(refs, ref{n, items[j], index(join(p, k), j)})
				}
				if k == "disable_walls" {
					ev.DisableWalls = names
				} else {
					ev.EnableWalls = names
				}
			}
			if o.has("set") {
				so := o.sub("set")
				for _, k := range so.order {
					v := so.get(k)
					if d.err == nil && (v.Kind != yaml.ScalarNode || v.Tag == "!!null") {
						d.errAt(v, join(so.path, k), "set values must be single numbers, booleans or names, got %s", kindName(v))
					}
					ev.Set = append(ev.Set, Assignment{Path: k, Value: v.Value})
					setAt = append(setAt, so.key[k])
				}
			}
			if d.err == nil && len(ev.DisableWalls)+len(ev.EnableWalls)+len(ev.Set) == 0 {
				d.errAt(it, p, "an event needs disable_walls, enable_walls or set")
			}
		}
		if d.err != nil {
			return nil, nil
		}
		for _, r := range refs {
			found := false
			for _, k := range known {
				found = found || k == r.name
			}
			if !found {
				hint := ""
				if s := suggest(r.name, known); s != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", s)
				} else {
					hint = fmt.Sprintf(" (walls: %s)", strings.Join(known, ", "))
				}
				d.errAt(r.n, r.path, "unknown wall %q%s", r.name, hint)
				return nil, nil
			}
		}
		for j, a := range ev.Set {
			src := setSrc{label: fmt.Sprintf("%s:%d: %s.set %s", d.file, setAt[j].Line, p, a.Path), file: d.file, line: setAt[j].Line}
			if o, ok := d.origin[setAt[j]]; ok {
				src = setSrc{label: fmt.Sprintf("%s: %s.set %s", o.label, p, a.Path), file: o.file, line: o.line}
			}
			pending = append(pending, pendingSet{src: src, a: a})
		}
		ev.Path = p
		out = append(out, ev)
	}
	return out, pending
}
