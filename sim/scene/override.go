package scene

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseWithOverrides decodes a scene after applying overrides, each
// "key.path=value" (the --set syntax of docs/scenes.md). Overrides edit the
// YAML tree before decoding, so any key the schema allows can be set, whether
// or not the file gives it, and the decoder checks the result: an error about
// an overridden value reads "--set key.path: message".
func ParseWithOverrides(data []byte, file string, sets []string) (*Spec, error) {
	doc, err := parseYAML(data, file)
	if err != nil {
		return nil, err
	}
	origin := map[*yaml.Node]setSrc{}
	for _, s := range sets {
		path, value, ok := strings.Cut(s, "=")
		path = strings.TrimSpace(path)
		if !ok || path == "" {
			return nil, &Error{Set: "--set " + s, Msg: "expected key.path=value"}
		}
		if err := applySet(doc, path, strings.TrimSpace(value), setSrc{label: "--set " + path}, origin, false); err != nil {
			return nil, err
		}
	}
	spec, pending, err := decode(doc, file, origin, true)
	if err != nil {
		return nil, err
	}
	spec.data, spec.sets = data, append([]string(nil), sets...)
	// Check event assignments by applying them to a copy of the scene
	// without its events; assignments to the same path go in later rounds.
	for len(pending) > 0 {
		seen := map[string]bool{}
		var round, next []pendingSet
		for _, p := range pending {
			if seen[p.a.Path] {
				next = append(next, p)
			} else {
				seen[p.a.Path] = true
				round = append(round, p)
			}
		}
		memo := map[*yaml.Node]*yaml.Node{}
		cp := copyWithout(doc, "events", memo)
		cpOrigin := map[*yaml.Node]setSrc{}
		for n, o := range origin {
			if c, ok := memo[n]; ok {
				cpOrigin[c] = o
			}
		}
		for _, p := range round {
			if err := applySet(cp, p.a.Path, p.a.Value, p.src, cpOrigin, true); err != nil {
				return nil, err
			}
		}
		if _, _, err := decode(cp, file, cpOrigin, false); err != nil {
			return nil, err
		}
		pending = next
	}
	return spec, nil
}

// listKeys hold lists; an absent one cannot be descended into.
var listKeys = map[string]bool{"bodies": true, "generators": true, "walls": true, "loads": true,
	"events": true, "probes": true, "pairs": true, "rotations": true}

// splitPath turns "generators.fill.count" or "bodies[0].mass" into segments.
func splitPath(p string) ([]string, bool) {
	p = strings.ReplaceAll(strings.ReplaceAll(p, "[", "."), "]", "")
	segs := strings.Split(p, ".")
	for _, s := range segs {
		if strings.TrimSpace(s) == "" {
			return nil, false
		}
	}
	return segs, true
}

// applySet replaces (or adds) the value at path in the document. List
// entries are addressed by index or by their name key. Every node it adds
// is tagged with label in origin so errors about it name the override.
func applySet(doc *yaml.Node, path, value string, src setSrc, origin map[*yaml.Node]setSrc, scalarOnly bool) error {
	fail := func(format string, args ...any) error {
		return &Error{File: src.file, Set: src.label, Line: src.line, Msg: fmt.Sprintf(format, args...)}
	}
	segs, ok := splitPath(path)
	if !ok {
		return fail("bad key path %q (use names separated by dots, e.g. contact.default.mu_s)", path)
	}
	val, err := parseValue(value)
	if err != nil {
		return fail("cannot read value %q: %v", value, err)
	}
	if scalarOnly && val.Kind != yaml.ScalarNode {
		return fail("set values must be single numbers, booleans or names")
	}
	mark(val, src, origin)

	if doc.Kind != yaml.DocumentNode {
		return fail("internal: not a document")
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1}
		if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null" {
			doc.Content[0] = m
		} else if len(doc.Content) == 0 {
			doc.Content = []*yaml.Node{m}
		} else {
			return fail("the scene file is not a mapping of sections")
		}
	}
	cur := doc.Content[0]
	walked := ""
	for i, seg := range segs {
		last := i == len(segs)-1
		var slot **yaml.Node
		switch cur.Kind {
		case yaml.MappingNode:
			j := findKey(cur, seg)
			if j < 0 && !last {
				// Keys may contain dots (event "set" maps): try the rest whole.
				if k := findKey(cur, strings.Join(segs[i:], ".")); k >= 0 {
					cur.Content[k+1] = val
					return nil
				}
			}
			if j < 0 {
				if !last && listKeys[seg] {
					return fail("%s has no entries to address", join(walked, seg))
				}
				k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg}
				origin[k] = src
				var v *yaml.Node = val
				if !last {
					v = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
					origin[v] = src
				}
				cur.Content = append(cur.Content, k, v)
				j = len(cur.Content) - 2
			}
			slot = &cur.Content[j+1]
		case yaml.SequenceNode:
			j := -1
			if n, err := strconv.Atoi(seg); err == nil {
				if n < 0 || n >= len(cur.Content) {
					return fail("index %d out of range: %s has %d entries", n, walked, len(cur.Content))
				}
				j = n
			} else {
				var names []string
				for k, it := range cur.Content {
					it = derefNode(it)
					if it.Kind != yaml.MappingNode {
						continue
					}
					if nk := findKey(it, "name"); nk >= 0 {
						nm := derefNode(it.Content[nk+1]).Value
						names = append(names, nm)
						if nm == seg && j < 0 {
							j = k
						}
					}
				}
				if j < 0 {
					hint := ""
					if s := suggest(seg, names); s != "" {
						hint = fmt.Sprintf(" (did you mean %q?)", s)
					} else if len(names) > 0 {
						hint = " (names: " + strings.Join(names, ", ") + ")"
					}
					return fail("no entry named %q in %s%s; address entries by name or index", seg, walked, hint)
				}
			}
			slot = &cur.Content[j]
		default:
			return fail("%s is a single value; it has no key %q", walked, seg)
		}
		if last {
			*slot = val
			return nil
		}
		child := *slot
		if child.Kind == yaml.AliasNode { // copy on write: do not edit the anchor
			child = copyTree(derefNode(child), map[*yaml.Node]*yaml.Node{})
			*slot = child
		}
		if child.Kind == yaml.ScalarNode && child.Tag == "!!null" {
			child = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: child.Line}
			*slot = child
		}
		cur = child
		walked = join(walked, seg)
	}
	return nil
}

var valueLineRE = regexp.MustCompile(`^line \d+: (.*)$`)

// parseValue reads an override value as YAML ("0.5", "[0, 0, 1]", "{deg: 3}").
func parseValue(value string) (n *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("%v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(value), &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if m := valueLineRE.FindStringSubmatch(msg); m != nil {
			msg = m[1]
		}
		return nil, fmt.Errorf("%s", msg)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}, nil
	}
	v := doc.Content[0]
	if hasAlias(v, 0) {
		return nil, fmt.Errorf("anchors and aliases are not supported in --set values")
	}
	return v, nil
}

func hasAlias(n *yaml.Node, depth int) bool {
	if n.Kind == yaml.AliasNode || depth > 100 {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c, depth+1) {
			return true
		}
	}
	return false
}

func mark(n *yaml.Node, src setSrc, origin map[*yaml.Node]setSrc) {
	origin[n] = src
	for _, c := range n.Content {
		mark(c, src, origin)
	}
}

func derefNode(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 1000; i++ {
		n = n.Alias
	}
	return n
}

func findKey(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return i
		}
	}
	return -1
}

// copyWithout deep-copies a document, leaving out one top-level key.
func copyWithout(doc *yaml.Node, key string, memo map[*yaml.Node]*yaml.Node) *yaml.Node {
	c := *doc
	c.Content = nil
	for _, root := range doc.Content {
		if root.Kind != yaml.MappingNode {
			c.Content = append(c.Content, copyTree(root, memo))
			continue
		}
		m := *root
		m.Content = nil
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
				continue
			}
			m.Content = append(m.Content, copyTree(root.Content[i], memo), copyTree(root.Content[i+1], memo))
		}
		memo[root] = &m
		c.Content = append(c.Content, &m)
	}
	return &c
}

// copyTree deep-copies a node tree; memo maps originals to copies so that
// aliases inside the tree point at the copied anchors.
func copyTree(n *yaml.Node, memo map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if c, ok := memo[n]; ok {
		return c
	}
	c := new(yaml.Node)
	*c = *n
	memo[n] = c
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, ch := range n.Content {
			c.Content[i] = copyTree(ch, memo)
		}
	}
	if n.Alias != nil {
		c.Alias = copyTree(n.Alias, memo)
	}
	return c
}
