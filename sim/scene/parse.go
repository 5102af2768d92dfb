package scene

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"grainlab/assets"
)

// Parse decodes a scene. file names the source in error messages and is the
// base for relative paths in the scene.
func Parse(data []byte, file string) (*Spec, error) {
	return ParseWithOverrides(data, file, nil)
}

// Load reads and decodes a scene file, applying "key.path=value" overrides.
func Load(path string, sets ...string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseWithOverrides(data, path, sets)
}

// Builtin describes one scene embedded in the binary.
type Builtin struct {
	Name        string // e.g. "cube-drop-a"
	Description string
}

// LoadBuiltin decodes an embedded scene by name ("cube-drop-a" or
// "cube-drop-a.yaml"), applying overrides. Paths in it resolve inside assets/.
func LoadBuiltin(name string, sets ...string) (*Spec, error) {
	name = strings.TrimSuffix(name, ".yaml")
	file := "scenes/" + name + ".yaml"
	data, err := fs.ReadFile(assets.FS, file)
	if err != nil || strings.ContainsAny(name, "/\\") {
		var names []string
		for _, b := range Builtins() {
			names = append(names, b.Name)
		}
		hint := ""
		if s := suggest(name, names); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, fmt.Errorf("no built-in scene %q%s; built-ins: %s", name, hint, strings.Join(names, ", "))
	}
	s, err := ParseWithOverrides(data, file, sets)
	if err != nil {
		return nil, err
	}
	s.Dir = ""
	s.fsys = assets.FS
	return s, nil
}

// Find loads a scene file if nameOrPath names an existing file, otherwise
// the built-in scene of that name. A name that looks like a path (it
// contains a '/' or ends in .yaml or .yml) and is not a built-in scene gets
// the file system's error: "no such file or directory", "is a directory".
func Find(nameOrPath string, sets ...string) (*Spec, error) {
	st, err := os.Stat(nameOrPath)
	if err == nil && !st.IsDir() {
		return Load(nameOrPath, sets...)
	}
	builtin := !strings.ContainsAny(nameOrPath, "/\\")
	if builtin {
		_, berr := fs.Stat(assets.FS, "scenes/"+strings.TrimSuffix(nameOrPath, ".yaml")+".yaml")
		builtin = berr == nil
	}
	switch {
	case builtin:
	case err == nil: // a directory
		return nil, &fs.PathError{Op: "read scene", Path: nameOrPath, Err: syscall.EISDIR}
	case looksLikePath(nameOrPath):
		return nil, err
	}
	return LoadBuiltin(nameOrPath, sets...)
}

// looksLikePath reports whether a scene argument is meant as a file path.
func looksLikePath(s string) bool {
	return strings.ContainsAny(s, "/\\") || strings.HasSuffix(s, ".yaml") || strings.HasSuffix(s, ".yml")
}

// Builtins lists the embedded scenes sorted by name.
func Builtins() []Builtin {
	entries, _ := fs.ReadDir(assets.FS, "scenes")
	var out []Builtin
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".yaml" {
			continue
		}
		b := Builtin{Name: strings.TrimSuffix(e.Name(), ".yaml")}
		if data, err := fs.ReadFile(assets.FS, "scenes/"+e.Name()); err == nil {
			if s, err := Parse(data, e.Name()); err == nil {
				b.Description = s.Description
			}
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

var (
	yamlLineRE      = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlParserErrRE = regexp.MustCompile(`^(did not find expected (key|node content|<document start>|'-' indicator|',' or '\]'|',' or '\}')|found undefined tag handle)`)
	yamlAnchorRE    = regexp.MustCompile(`^unknown anchor '(.*)' referenced`)
)

// parseYAML parses data into a node tree without panicking, turning YAML
// syntax errors into "file:line: message". A scene is a single document.
func parseYAML(data []byte, file string) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{File: file, Line: 1, Msg: fmt.Sprintf("YAML error: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if e := dec.Decode(&doc); e != nil {
		if e == io.EOF {
			return &yaml.Node{Kind: yaml.DocumentNode}, nil
		}
		return nil, yamlError(e, data, file)
	}
	var extra yaml.Node
	if e := dec.Decode(&extra); e != io.EOF {
		if e != nil {
			return nil, yamlError(e, data, file)
		}
		return nil, &Error{File: file, Line: extra.Line, Msg: "a scene file holds one YAML document; remove this \"---\" and what follows"}
	}
	return &doc, nil
}

func yamlError(e error, data []byte, file string) error {
	msg := strings.ReplaceAll(e.Error(), "\n", "; ")
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		text := m[2]
		lines := bytes.Split(data, []byte("\n"))
		switch {
		case yamlParserErrRE.MatchString(text):
			// yaml.v3 reports parser (not scanner) errors with 0-based lines.
			line = min(line+1, len(lines))
		case strings.Contains(text, "tab character"):
			for i, l := range lines {
				if indent := bytes.TrimLeft(l, " \t"); len(indent) > 0 && bytes.ContainsRune(l[:len(l)-len(indent)], '\t') {
					line = i + 1
					break
				}
			}
		}
		return &Error{File: file, Line: line, Msg: "YAML syntax: " + text}
	}
	text := strings.TrimPrefix(msg, "yaml: ")
	if a := yamlAnchorRE.FindStringSubmatch(text); a != nil {
		for i, l := range bytes.Split(data, []byte("\n")) {
			if bytes.Contains(l, []byte("*"+a[1])) {
				return &Error{File: file, Line: i + 1, Msg: "YAML syntax: " + text}
			}
		}
	}
	// Errors without a line (bad bytes): point at the first offending byte.
	line := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			break
		}
		if r == '\n' {
			line++
		}
		i += size
	}
	return &Error{File: file, Line: line, Msg: "YAML syntax: " + text}
}

// topKeys are the sections of a scene file.
var topKeys = []string{"name", "description", "time", "gravity", "params", "integrator", "contact",
	"shapes", "bodies", "generators", "walls", "loads", "events", "output", "record", "probes", "periodic"}

// decode turns the document into a Spec; withEvents=false skips events
// (used to validate event "set" paths against the rest of the scene).
func decode(doc *yaml.Node, file string, origin map[*yaml.Node]setSrc, withEvents bool) (*Spec, []pendingSet, error) {
	d := newDecoder(file, origin)
	root := doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil, &Error{File: file, Line: 1, Msg: "empty scene file"}
		}
		root = root.Content[0]
	}
	if root.Kind == 0 {
		return nil, nil, &Error{File: file, Line: 1, Msg: "empty scene file"}
	}
	s := &Spec{File: file, Dir: filepath.Dir(file), Src: d.src}
	top := d.object(root, root, "")
	top.allow(topKeys...)
	d.params = map[string]float64{}
	d.decodeParams(top)
	s.Params = d.params

	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	s.Name = base
	if top.has("name") {
		top.name("name", &s.Name)
	}
	if top.str("description", &s.Description) {
		s.Description = strings.TrimSpace(s.Description)
		top.check("description", !strings.ContainsAny(s.Description, "\n\r"), "must be one line")
	}
	top.need("time")
	top.num("time", &s.Time)
	top.positive("time", s.Time)
	s.Gravity.Z = -9.81
	top.vec3("gravity", &s.Gravity)

	top.need("integrator")
	s.Integrator = d.decodeIntegrator(top)
	top.need("contact")
	s.Contact = d.decodeContact(top)
	s.Shapes, s.ShapeOrder = d.decodeShapes(top)
	s.Bodies = d.decodeBodies(top, s.Shapes)
	s.Generators = d.decodeGenerators(top, s.Shapes)
	s.Walls = d.decodeWalls(top)
	s.Loads = d.decodeLoads(top, s.Bodies)
	var pending []pendingSet
	if withEvents {
		s.Events, pending = d.decodeEvents(top, s.Walls)
	}
	s.Output = d.decodeOutput(top)
	s.Record = d.decodeRecord(top)
	s.Probes = d.decodeProbes(top, s.Bodies, s.Walls)
	s.Periodic = d.decodePeriodic(top)
	if d.err != nil {
		return nil, nil, d.err
	}
	return s, pending, nil
}

func (d *decoder) decodeParams(top *object) {
	n := top.get("params")
	if n == nil {
		return
	}
	p := d.object(top.key["params"], n, "params")
	d.noParam = true
	for _, k := range p.order {
		var f float64
		if p.num(k, &f) {
			d.params[k] = f
		}
	}
	d.noParam = false
}
