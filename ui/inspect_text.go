package ui

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"grainlab/sim/contact"
	"grainlab/sim/snap"
)

// The inspector's texts, free of imgui so they are unit-tested headless:
// body names, feature labels (v7 / e12 / f3) and the contact hierarchy's
// reasoning (S0 §2.4.4, §3.6, Fig. 9), re-derived from the snapshot.

// BodyLabel names body i of s as a user reads it: a wall by its wall name
// ("ground", "left"), a generated body by its generator and index
// ("fill[17]"), any other by its name, a nameless one as "#i".
func BodyLabel(s *snap.Snapshot, i int) string {
	if s == nil || i < 0 || i >= len(s.Bodies) {
		return fmt.Sprintf("#%d", i)
	}
	for k := range s.Walls {
		if s.Walls[k].Body == i && s.Walls[k].Name != "" {
			return s.Walls[k].Name
		}
	}
	b := &s.Bodies[i]
	if b.Group != "" && strings.HasPrefix(b.Name, b.Group) {
		if idx := b.Name[len(b.Group):]; idx != "" && strings.Trim(idx, "0123456789") == "" {
			return b.Group + "[" + idx + "]"
		}
	}
	if b.Name != "" {
		return b.Name
	}
	return fmt.Sprintf("#%d", i)
}

// featKind is the kind of sub-region a contact feature index names.
type featKind byte

const (
	featVertex  featKind = 'v'
	featEdge    featKind = 'e'
	featFace    featKind = 'f'
	featSurface featKind = 's' // a smooth surface point (SQ): no index
)

// featureKinds returns the kinds of FeatA and FeatB of c (S0 §2.4.2: VF is
// a vertex of one body on a face of the other; Swap says whose vertex).
func featureKinds(c *snap.Contact) (a, b featKind) {
	switch c.Kind {
	case snap.VF:
		if c.Swap {
			return featFace, featVertex
		}
		return featVertex, featFace
	case snap.VE:
		if c.Swap {
			return featEdge, featVertex
		}
		return featVertex, featEdge
	case snap.EE:
		return featEdge, featEdge
	case snap.VV:
		return featVertex, featVertex
	}
	return featSurface, featSurface
}

func featLabel(k featKind, i int32) string {
	if k == featSurface {
		return "surface"
	}
	return fmt.Sprintf("%c%d", k, i)
}

// FeatureLabels returns the features of c on A and on B as v7 / e12 / f3
// (vertex, edge, face of that body's mesh) or "surface" for smooth contacts.
func FeatureLabels(c *snap.Contact) (a, b string) {
	ka, kb := featureKinds(c)
	return featLabel(ka, c.FeatA), featLabel(kb, c.FeatB)
}

// ContactLabel is one line naming a contact: its kind and each body with its
// feature, e.g. "VF fill[17] v7 / ground f3".
func ContactLabel(s *snap.Snapshot, c *snap.Contact) string {
	fa, fb := FeatureLabels(c)
	return fmt.Sprintf("%s %s %s / %s %s", c.Kind, BodyLabel(s, c.A), fa, BodyLabel(s, c.B), fb)
}

// meshOfBody returns the mesh of body i (nil when unknown).
func meshOfBody(s *snap.Snapshot, i int) *snap.Mesh {
	if i < 0 || i >= len(s.Bodies) {
		return nil
	}
	if m := s.Bodies[i].Mesh; m >= 0 && m < len(s.Meshes) {
		return &s.Meshes[m]
	}
	return nil
}

// edgeVerts returns the vertices of edge e of m (false when m lists no edges).
func edgeVerts(m *snap.Mesh, e int32) ([2]int32, bool) {
	if m == nil || e < 0 || int(e) >= len(m.Edges) {
		return [2]int32{}, false
	}
	return m.Edges[e], true
}

// faceHasVert reports whether face (triangle) f of m has vertex v.
func faceHasVert(m *snap.Mesh, f, v int32) bool {
	if m == nil || f < 0 || int(f) >= len(m.Tris) {
		return false
	}
	t := m.Tris[f]
	return t[0] == v || t[1] == v || t[2] == v
}

// edgeFaces returns the faces of m that hold both vertices of edge e.
func edgeFaces(m *snap.Mesh, e int32) []int32 {
	ev, ok := edgeVerts(m, e)
	if !ok {
		return nil
	}
	var fs []int32
	for f := range m.Tris {
		if faceHasVert(m, int32(f), ev[0]) && faceHasVert(m, int32(f), ev[1]) {
			fs = append(fs, int32(f))
		}
	}
	return fs
}

func edgeHasVert(m *snap.Mesh, e, v int32) bool {
	ev, ok := edgeVerts(m, e)
	return ok && (ev[0] == v || ev[1] == v)
}

// vertexAndOther returns the vertex of a VF or VE contact, the other
// feature, and the bodies holding each.
func vertexAndOther(c *snap.Contact) (v, other int32, vBody, oBody int) {
	if c.Swap {
		return c.FeatB, c.FeatA, c.B, c.A
	}
	return c.FeatA, c.FeatB, c.A, c.B
}

// pairContacts returns the indices of the contacts between the bodies of c.
func pairContacts(s *snap.Snapshot, c *snap.Contact) []int {
	var out []int
	for j := range s.Contacts {
		d := &s.Contacts[j]
		if d.A == c.A && d.B == c.B {
			out = append(out, j)
		}
	}
	return out
}

// Competitor returns the index of the candidate that made the hierarchy
// suppress contact i of s (S0 §3.6, contact.applyHierarchy's rules), or −1
// when i is active or the snapshot does not tell (a mesh without an edge
// table: a recording made before recordings kept them).
func Competitor(s *snap.Snapshot, i int) int {
	if s == nil || i < 0 || i >= len(s.Contacts) || !s.Contacts[i].Suppressed {
		return -1
	}
	c := &s.Contacts[i]
	pair := pairContacts(s, c)
	best := -1
	switch c.SuppressedBy {
	case contact.CoplanarFace.String():
		// a vertex over two coplanar faces keeps the closer: the other VF
		// of the same vertex with the smaller gap (equal gaps: lower face)
		v, f, _, _ := vertexAndOther(c)
		for _, j := range pair {
			d := &s.Contacts[j]
			if j == i || d.Kind != snap.VF || d.Swap != c.Swap || d.Suppressed {
				continue
			}
			vj, fj, _, _ := vertexAndOther(d)
			if vj == v && (d.Gap < c.Gap || (d.Gap == c.Gap && fj < f)) {
				if best < 0 || d.Gap < s.Contacts[best].Gap {
					best = j
				}
			}
		}
	case contact.EdgeFace.String(), contact.ConcaveEdge.String():
		// the same vertex already touches a face of the edge
		v, e, _, eb := vertexAndOther(c)
		faces := edgeFaces(meshOfBody(s, eb), e)
		for _, j := range pair {
			d := &s.Contacts[j]
			if d.Kind != snap.VF || d.Swap != c.Swap {
				continue
			}
			vj, fj, _, _ := vertexAndOther(d)
			if vj == v && containsFeat(faces, fj) {
				return j
			}
		}
	case contact.VertexVertex.String():
		// a contact joins one vertex (or a feature at it) to a feature at the other
		for _, j := range pair {
			if d := &s.Contacts[j]; j != i && !d.Suppressed && attachedAt(s, d, c.FeatA, c.FeatB) {
				return j
			}
		}
	}
	return best
}

func containsFeat(fs []int32, f int32) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// attachedAt mirrors contact.attached: d joins vertex va of A (or a feature
// at it) to a feature at vertex vb of B.
func attachedAt(s *snap.Snapshot, d *snap.Contact, va, vb int32) bool {
	ma, mb := meshOfBody(s, d.A), meshOfBody(s, d.B)
	switch d.Kind {
	case snap.VF:
		if !d.Swap {
			return d.FeatA == va && faceHasVert(mb, d.FeatB, vb)
		}
		return d.FeatB == vb && faceHasVert(ma, d.FeatA, va)
	case snap.VE:
		if !d.Swap {
			return d.FeatA == va && edgeHasVert(mb, d.FeatB, vb)
		}
		return d.FeatB == vb && edgeHasVert(ma, d.FeatA, va)
	case snap.EE:
		return edgeHasVert(ma, d.FeatA, va) && edgeHasVert(mb, d.FeatB, vb)
	}
	return false
}

// short names a contact by its kind and features, "VF v7/f3".
func short(c *snap.Contact) string {
	fa, fb := FeatureLabels(c)
	return fmt.Sprintf("%s %s/%s", c.Kind, fa, fb)
}

// HierarchyText explains why contact i of s is active or suppressed: the
// rule of the contact hierarchy (S0 §2.4.4, §3.6, Fig. 9) and the competing
// candidate; for an active contact also the candidates it suppresses.
func HierarchyText(s *snap.Snapshot, i int) []string {
	if s == nil || i < 0 || i >= len(s.Contacts) {
		return nil
	}
	c := &s.Contacts[i]
	var out []string
	if c.Suppressed {
		j := Competitor(s, i)
		comp := "the competing candidate is not in this frame"
		if j >= 0 {
			comp = "kept instead: " + short(&s.Contacts[j]) + ", gap " + FormatSI(s.Contacts[j].Gap, "m")
		}
		v, o, _, _ := vertexAndOther(c)
		switch c.SuppressedBy {
		case contact.CoplanarFace.String():
			out = append(out, fmt.Sprintf("suppressed: coplanar-face (Grainlab's rule after S0 §3.6): v%d is over two coplanar faces joined by a flat edge; the closer one counts", v))
		case contact.EdgeFace.String():
			out = append(out, fmt.Sprintf("suppressed: edge-face (Grainlab's rule after S0 §3.6): v%d already touches a face of convex edge e%d, which carries the vertex", v, o))
		case contact.ConcaveEdge.String():
			out = append(out, fmt.Sprintf("suppressed: concave-edge (S0 §3.6, Fig. 9): e%d is concave and v%d already touches one of its faces", o, v))
		case contact.VertexVertex.String():
			out = append(out, fmt.Sprintf("suppressed: vertex-vertex (S0 §3.6): a contact already joins v%d or v%d to a feature at the other vertex", c.FeatA, c.FeatB))
		default:
			out = append(out, "suppressed: "+c.SuppressedBy)
		}
		return append(out, comp)
	}
	switch c.Kind {
	case snap.VF:
		out = append(out, "active: vertex-face heads the hierarchy (S0 §3.6); only a closer coplanar face of the same vertex displaces it (coplanar-face)")
	case snap.EE:
		out = append(out, "active: edge-edge is not ranked by the hierarchy (S0 §3.6)")
	case snap.VE:
		v, e, _, eb := vertexAndOther(c)
		fs := edgeFaces(meshOfBody(s, eb), e)
		names := make([]string, len(fs))
		for k, f := range fs {
			names[k] = fmt.Sprintf("f%d", f)
		}
		of := ""
		if len(names) > 0 {
			of = " (" + strings.Join(names, ", ") + ")"
		}
		out = append(out, fmt.Sprintf("active: v%d touches no face of e%d%s, so the edge carries it (S0 §3.6)", v, e, of))
	case snap.VV:
		out = append(out, fmt.Sprintf("active: no contact joins v%d or v%d to a feature at the other vertex (S0 §3.6)", c.FeatA, c.FeatB))
	default:
		return []string{"smooth contact: one per pair, no hierarchy (S1 §2.3)"}
	}
	var sup []string
	for _, j := range pairContacts(s, c) {
		if j != i && s.Contacts[j].Suppressed && Competitor(s, j) == i {
			d := &s.Contacts[j]
			sup = append(sup, short(d)+" ("+d.SuppressedBy+")")
		}
	}
	if len(sup) > 0 {
		out = append(out, "suppresses: "+strings.Join(sup, ", "))
	}
	return out
}

// ContactSort orders the selected body's contact list.
type ContactSort int

const (
	SortByForce   ContactSort = iota // largest |f| first
	SortByForceUp                    // smallest |f| first
	SortByIndex                      // snapshot order
)

// contactForce is |f_n n + f_t| of c (0 when suppressed).
func contactForce(c *snap.Contact) float64 {
	if c.Suppressed {
		return 0
	}
	return c.Normal.Scale(c.Fn).Add(c.Ft).Norm()
}

// BodyContacts returns the indices of the contacts of body b in s, ordered
// by by (ties and NaN forces in snapshot order), appended to dst[:0].
func BodyContacts(dst []int, s *snap.Snapshot, b int, by ContactSort) []int {
	dst = dst[:0]
	if s == nil {
		return dst
	}
	for i := range s.Contacts {
		if c := &s.Contacts[i]; c.A == b || c.B == b {
			dst = append(dst, i)
		}
	}
	key := func(i int) float64 {
		f := contactForce(&s.Contacts[i])
		if math.IsNaN(f) {
			return math.Inf(-1)
		}
		return f
	}
	switch by {
	case SortByForce:
		sort.SliceStable(dst, func(x, y int) bool { return key(dst[x]) > key(dst[y]) })
	case SortByForceUp:
		sort.SliceStable(dst, func(x, y int) bool { return key(dst[x]) < key(dst[y]) })
	}
	return dst
}

// ContactReport is the clipboard text of contact i of s: names, features,
// gap, forces, normal and the hierarchy reasoning, one item per line.
func ContactReport(s *snap.Snapshot, i int) string {
	if s == nil || i < 0 || i >= len(s.Contacts) {
		return ""
	}
	c := &s.Contacts[i]
	var b strings.Builder
	fmt.Fprintf(&b, "contact %s  t = %s  step %d  scene %s\n", ContactLabel(s, c), FormatSI(s.Stats.Time, "s"), s.Stats.Step, s.Scene)
	fmt.Fprintf(&b, "bodies %d / %d  features %d / %d  swap %v\n", c.A, c.B, c.FeatA, c.FeatB, c.Swap)
	fmt.Fprintf(&b, "point (%.9g, %.9g, %.9g) m  normal (%.6g, %.6g, %.6g)\n", c.Point.X, c.Point.Y, c.Point.Z, c.Normal.X, c.Normal.Y, c.Normal.Z)
	fmt.Fprintf(&b, "gap %.9g m  f_n %.9g N  f_t (%.6g, %.6g, %.6g) N  sliding %v\n", c.Gap, c.Fn, c.Ft.X, c.Ft.Y, c.Ft.Z, c.Sliding)
	for _, l := range HierarchyText(s, i) {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// BodyReport is the clipboard text of body i of s and its contacts.
func BodyReport(s *snap.Snapshot, i int) string {
	if s == nil || i < 0 || i >= len(s.Bodies) {
		return ""
	}
	bd := &s.Bodies[i]
	var b strings.Builder
	fmt.Fprintf(&b, "body %s (index %d, name %q)  t = %s  step %d  scene %s\n", BodyLabel(s, i), i, bd.Name, FormatSI(s.Stats.Time, "s"), s.Stats.Step, s.Scene)
	fmt.Fprintf(&b, "x (%.9g, %.9g, %.9g) m  v (%.6g, %.6g, %.6g) m/s  w (%.6g, %.6g, %.6g) rad/s\n",
		bd.Pos.X, bd.Pos.Y, bd.Pos.Z, bd.Vel.X, bd.Vel.Y, bd.Vel.Z, bd.AngVel.X, bd.AngVel.Y, bd.AngVel.Z)
	for _, j := range BodyContacts(nil, s, i, SortByForce) {
		c := &s.Contacts[j]
		st := fmt.Sprintf("|f| %.6g N  gap %.6g m", contactForce(c), c.Gap)
		if c.Suppressed {
			st = "suppressed by " + c.SuppressedBy
		}
		fmt.Fprintf(&b, "  %s  %s\n", ContactLabel(s, c), st)
	}
	return b.String()
}
