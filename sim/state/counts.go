package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// countError is a list in a state file whose count is not the one its Go
// type holds, at byte off of the value checkCounts read.
type countError struct {
	off  int
	path string
	msg  string
}

func (e *countError) Error() string { return e.path + " " + e.msg }

// checkCounts walks data, a valid JSON value that json.Unmarshal has
// decoded into a value of type t, beside t, and reports the first list
// whose count does not fit: encoding/json fills a fixed-size Go array
// ([N]T) from a list of any length, dropping extra numbers and leaving
// missing ones zero, and reads null into it as all zeros; so every list
// read into a [N]T must hold exactly N entries, and a list read into a
// slice whose field has the tag count:"N" exactly N when given. A null is
// refused where it would be read as zeros (a [N]T that is not behind a
// pointer). root names the value in errors ("history": "history:
// pairs[3].mid has 4 numbers, want 3"). Types with their own
// UnmarshalJSON are left to it.
func checkCounts(data []byte, t reflect.Type, root string) error {
	c := counter{data: data, root: root, own: map[reflect.Type]bool{}}
	return c.value(t, -1, false)
}

// counter scans valid JSON (no syntax checks: json.Unmarshal read it first).
type counter struct {
	data []byte
	i    int
	root string
	own  map[reflect.Type]bool // whether a type has its own UnmarshalJSON
	path []seg                 // where the value being read is, made into words only for an error
}

// seg is one step of a path: a member's key, or an entry's index (key "").
type seg struct {
	key []byte // of the file: no copy
	idx int
}

// fail returns a countError at off for the value at c.path.
func (c *counter) fail(off int, format string, args ...any) error {
	var b strings.Builder
	b.WriteString(c.root + ":")
	for k, s := range c.path {
		switch {
		case s.key == nil:
			fmt.Fprintf(&b, "[%d]", s.idx)
		case k == 0:
			b.WriteString(" " + string(s.key))
		default:
			b.WriteString("." + string(s.key))
		}
	}
	return &countError{off, b.String(), fmt.Sprintf(format, args...)}
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// value checks the value at c.i against t (want ≥ 0: a slice's count tag;
// nullable: behind a pointer) and moves past it.
func (c *counter) value(t reflect.Type, want int, nullable bool) error {
	c.ws()
	for t.Kind() == reflect.Pointer {
		t, nullable = t.Elem(), true
	}
	if c.i >= len(c.data) {
		return nil
	}
	start := c.i
	if c.data[c.i] == 'n' { // null
		c.i += 4
		if t.Kind() == reflect.Array && !nullable {
			return c.fail(start, "is null: want %d %s", t.Len(), entries(t))
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
		own, ok := c.own[t]
		if !ok {
			own = reflect.PointerTo(t).Implements(unmarshaler)
			c.own[t] = own
		}
		if !own {
			break
		}
		fallthrough
	default:
		c.skip()
		return nil
	}
	switch {
	case c.data[c.i] == '[' && (t.Kind() == reflect.Array || t.Kind() == reflect.Slice):
		c.i++
		n := 0
		for c.ws(); c.data[c.i] != ']'; c.ws() {
			if c.data[c.i] == ',' {
				c.i++
			}
			c.path = append(c.path, seg{idx: n})
			if err := c.value(t.Elem(), -1, false); err != nil {
				return err
			}
			c.path = c.path[:len(c.path)-1]
			n++
			c.ws()
		}
		c.i++
		if t.Kind() == reflect.Array {
			want = t.Len()
		}
		if want >= 0 && n != want {
			return c.fail(start, "has %d %s, want %d", n, entries(t), want)
		}
		return nil
	case c.data[c.i] == '{' && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map):
		var fields *structFields
		if t.Kind() == reflect.Struct {
			fields = fieldsOf(t)
		}
		c.i++
		for c.ws(); c.data[c.i] != '}'; c.ws() {
			if c.data[c.i] == ',' {
				c.i++
				c.ws()
			}
			key := c.key()
			c.ws()
			c.i++ // ':'
			if t.Kind() == reflect.Map {
				c.path = append(c.path, seg{key: key})
				if err := c.value(t.Elem(), -1, false); err != nil {
					return err
				}
				c.path = c.path[:len(c.path)-1]
				continue
			}
			f, ok := fields.exact[string(key)]
			for k := 0; !ok && k < len(fields.list); k++ {
				// encoding/json's rule when no name is the key exactly: the first
				// field whose name equals it under Unicode case folding
				// (bytes.EqualFold: "ſhift" is "shift", "K" is "k")
				if bytes.EqualFold(fields.list[k].name, key) {
					f, ok = fields.list[k].field, true
				}
			}
			if !ok {
				c.ws()
				c.skip()
				continue
			}
			c.path = append(c.path, seg{key: key})
			if err := c.value(f.t, f.count, false); err != nil {
				return err
			}
			c.path = c.path[:len(c.path)-1]
		}
		c.i++
		return nil
	}
	c.skip()
	return nil
}

// entries names a list's entries in an error.
func entries(t reflect.Type) string {
	switch t.Elem().Kind() {
	case reflect.Float64, reflect.Float32, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "numbers"
	}
	return "entries"
}

// ws skips white space.
func (c *counter) ws() {
	for c.i < len(c.data) && class[c.data[c.i]] == space {
		c.i++
	}
}

// Byte classes of the scanner: white space, and the ends of a number or
// literal.
const (
	space = 1 + iota
	end
)

var class = func() (t [256]uint8) {
	for _, b := range []byte(" \t\r\n") {
		t[b] = space
	}
	for _, b := range []byte(",]}") {
		t[b] = end
	}
	return t
}()

// key reads an object key (a string) and moves past it: its bytes in the
// file, or decoded when it has escapes.
func (c *counter) key() []byte {
	start := c.i
	c.skip()
	raw := c.data[start:c.i]
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	var s string
	json.Unmarshal(raw, &s)
	return []byte(s)
}

// skip moves past one value (white space before it skipped).
func (c *counter) skip() {
	depth := 0
	for c.i < len(c.data) {
		switch b := c.data[c.i]; b {
		case '"':
			c.i++
			for c.i < len(c.data) && c.data[c.i] != '"' {
				if c.data[c.i] == '\\' {
					c.i++
				}
				c.i++
			}
			c.i++
		case '[', '{':
			depth++
			c.i++
			continue
		case ']', '}':
			if depth == 0 {
				return // the end of the enclosing list or object
			}
			depth--
			c.i++
		case ',':
			if depth == 0 {
				return
			}
			c.i++
			continue
		case ' ', '\t', '\r', '\n', ':':
			c.i++
			continue
		default: // number or literal
			for c.i < len(c.data) && class[c.data[c.i]] == 0 {
				c.i++
			}
		}
		if depth == 0 {
			return
		}
	}
}

// field is a struct field as encoding/json reads it: its type and, for a
// slice, the count its tag requires (−1: any).
type field struct {
	t     reflect.Type
	count int
}

// structFields are a struct's fields as encoding/json matches keys to them:
// by exact JSON name, else the first in field order whose name equals the
// key under case folding.
type structFields struct {
	exact map[string]field
	list  []namedField // in field order, embedded structs' fields in place
}

// namedField is a field and its JSON name.
type namedField struct {
	name []byte
	field
}

var fieldCache sync.Map // reflect.Type → *structFields

// fieldsOf returns t's fields by JSON name, embedded structs' fields
// promoted.
func fieldsOf(t reflect.Type) *structFields {
	if m, ok := fieldCache.Load(t); ok {
		return m.(*structFields)
	}
	fs := &structFields{exact: map[string]field{}}
	m := fs.exact
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if tag == "-" {
				continue
			}
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					add(ft)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			f := field{sf.Type, -1}
			if n, err := strconv.Atoi(sf.Tag.Get("count")); err == nil {
				f.count = n
			}
			if _, dup := m[name]; !dup {
				m[name] = f
				fs.list = append(fs.list, namedField{[]byte(name), f})
			}
		}
	}
	add(t)
	fieldCache.Store(t, fs)
	return fs
}
