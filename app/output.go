package app

import (
	"fmt"
	"path/filepath"
	"strconv"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// Series writes series.csv: one row per output instant (columns in docs/outputs.md).
type Series struct {
	w   *sink
	row []string
}

// NewSeries creates DIR/series.csv and writes its header.
func NewSeries(dir string, w *world.World) (*Series, error) {
	out, err := openSink(filepath.Join(dir, SeriesFile))
	if err != nil {
		return nil, err
	}
	s := &Series{w: out}
	if err := s.writeRow(seriesColumns(w)); err != nil {
		out.Close()
		return nil, err
	}
	return s, nil
}

// continueSeries continues DIR/series.csv after its first keep bytes (a
// resume: the header and the rows up to the restart time, resume.go).
func continueSeries(dir string, keep int64) (*Series, error) {
	out, err := openKept(filepath.Join(dir, SeriesFile), keep)
	if err != nil {
		return nil, err
	}
	return &Series{w: out}, nil
}

// seriesColumns is series.csv's header for the world w.
func seriesColumns(w *world.World) []string {
	cols := []string{"t", "dt", "kinetic", "potential_gravity", "potential_contact", "total_energy",
		"contacts", "contacts_vf", "contacts_ee", "contacts_ve", "contacts_vv", "contacts_suppressed",
		"night_owls", "rejected_steps", "contacts_sq", "sq_failures", "newton_iters", "linear_iters", "residual",
		"rejected_solve", "rejected_penetration", "rejected_night_owl", "rejected_step_size"}
	for _, wl := range w.Walls {
		cols = append(cols, "wall_"+wl.Name+"_fx", "wall_"+wl.Name+"_fy", "wall_"+wl.Name+"_fz")
	}
	for i, l := range w.Loads {
		n := loadName(l.Name, i)
		cols = append(cols, n+"_fx", n+"_fy", n+"_fz", n+"_mx", n+"_my", n+"_mz")
	}
	for _, p := range w.Probes {
		cols = append(cols, "probe_"+p.Name+"_x", "probe_"+p.Name+"_y", "probe_"+p.Name+"_z")
	}
	return cols
}

func loadName(name string, i int) string {
	if name == "" {
		return "load" + strconv.Itoa(i)
	}
	return "load_" + name
}

func (s *Series) writeRow(cols []string) error {
	for i, c := range cols {
		if i > 0 {
			s.w.WriteByte(',')
		}
		s.w.WriteString(c)
	}
	return s.w.WriteByte('\n')
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

func vec(v geom.Vec3) []string { return []string{g(v.X), g(v.Y), g(v.Z)} }

// Write appends the current state of w as one row.
func (s *Series) Write(w *world.World) error {
	st := &w.Stats
	r := s.row[:0]
	r = append(r, g(w.Time), g(st.Dt), g(st.Kinetic), g(st.PotentialGravity), g(st.PotentialContact), g(st.Total()),
		strconv.Itoa(st.Contacts), strconv.Itoa(st.ByKind[snap.VF]), strconv.Itoa(st.ByKind[snap.EE]),
		strconv.Itoa(st.ByKind[snap.VE]), strconv.Itoa(st.ByKind[snap.VV]), strconv.Itoa(st.Suppressed),
		strconv.FormatInt(st.NightOwls, 10), strconv.FormatInt(st.Rejected, 10),
		strconv.Itoa(st.ByKind[snap.SQ]), strconv.FormatInt(st.SQFailures, 10),
		strconv.Itoa(st.NewtonIters), strconv.Itoa(st.LinearIters), g(st.Residual))
	for _, n := range st.RejectedBy {
		r = append(r, strconv.FormatInt(n, 10))
	}
	for _, wl := range w.Walls {
		r = append(r, vec(wl.Force)...)
	}
	for i := range w.Loads {
		var lv world.LoadValue
		if i < len(w.LoadValues) {
			lv = w.LoadValues[i]
		}
		r = append(r, vec(lv.F)...)
		r = append(r, vec(lv.M)...)
	}
	for i := range w.Probes {
		v, err := w.ProbeValue(&w.Probes[i])
		if err != nil {
			return err
		}
		r = append(r, vec(v)...)
	}
	s.row = r
	return s.writeRow(r)
}

// Flush writes the complete rows buffered so far to the file.
func (s *Series) Flush() error { return s.w.Flush() }

// Close flushes and closes the file; it returns the first write, flush or
// close error of the file (an *OutputError naming it).
func (s *Series) Close() error { return s.w.Close() }

// WriteFinal writes DIR/final.json with every movable body's state,
// atomically (a temporary file renamed over it), leaving the world as it
// is: the sphere path's history is stated in place (state.WriteInPlace: no
// generic pair entry per listed pair, ~300 MB at 10⁵ spheres), and while
// the spheres are in spatial order their order and the list's reference in
// it as well (sphere_order: a restart from it goes on bit for bit). A
// checkpoint is thus the file the run would write had it ended there, and
// the run goes on as without it (the hand-over to the generic stages and
// the sphere path's taking it back, which changed the run's bits, are
// gone: docs/performance.md, "Session 26: checkpoints in place"). Worlds
// whose history the generic stages hold (polyhedra, superquadrics) are
// written as before.
func WriteFinal(dir string, w *world.World) error {
	return writeFinalAtomic(filepath.Join(dir, FinalFile), w, state.WriteInPlace)
}

// writeLast is WriteFinal for a world that steps no more (the end of a
// run, a signal, a failure).
func writeLast(dir string, w *world.World) error { return WriteFinal(dir, w) }

// ContactsWriter writes contacts.csv rows (every contact, active or suppressed).
type ContactsWriter struct {
	w   *sink
	row []byte // the row being appended (appendContact), reused
}

// NewContacts creates DIR/contacts.csv with its header.
func NewContacts(dir string) (*ContactsWriter, error) {
	out, err := openSink(filepath.Join(dir, ContactsFile))
	if err != nil {
		return nil, err
	}
	c := &ContactsWriter{w: out}
	fmt.Fprintln(c.w, contactsHeader)
	return c, nil
}

// contactsHeader is contacts.csv's first line.
const contactsHeader = "t,body_a,body_b,name_a,name_b,type,feature_a,feature_b,x,y,z,nx,ny,nz,gap,fn,ftx,fty,ftz,state,suppressed_by"

// continueContacts continues DIR/contacts.csv after its first keep bytes
// (a resume with output.contacts=every, resume.go).
func continueContacts(dir string, keep int64) (*ContactsWriter, error) {
	out, err := openKept(filepath.Join(dir, ContactsFile), keep)
	if err != nil {
		return nil, err
	}
	return &ContactsWriter{w: out}, nil
}

// Write appends every contact of w at the current time; it returns the
// file's first write error.
func (c *ContactsWriter) Write(w *world.World) error {
	w.EachContact(func(a, b int, k *contact.Contact) {
		c.row = appendContact(c.row[:0], w.Time, a, b, w.BodyName(a), w.BodyName(b), k) // no record made (sphere blocks)
		c.w.Write(c.row)
	})
	return c.w.err
}

// appendContact appends contact k between bodies a and b (named na, nb) at
// time t as one contacts.csv row: the bytes of
//
//	fmt.Sprintf("%s,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
//		g(t), a, b, na, nb, k.Kind, feat(k, true), feat(k, false),
//		g(p.X), g(p.Y), g(p.Z), g(k.N.X), g(k.N.Y), g(k.N.Z), g(k.Gn), g(k.Fn),
//		g(k.Ft.X), g(k.Ft.Y), g(k.Ft.Z), state, k.Rule)
//
// (p = k.Point(), feat appendFeat's name) without fmt: g is strconv.FormatFloat(x, 'g', 10, 64),
// which strconv.AppendFloat with the same format writes; %d of an int is
// strconv.AppendInt's base 10; %s of a string its bytes and of a Stringer
// its String() (a rule other than NoRule goes through fmt, whatever its
// String does).
func appendContact(r []byte, t float64, a, b int, na, nb string, k *contact.Contact) []byte {
	p := k.Point()
	state := "stick"
	if k.Fric.Sliding {
		state = "slip"
	}
	if !k.Active() {
		state = "suppressed"
	}
	r = strconv.AppendFloat(r, t, 'g', 10, 64)
	r = append(r, ',')
	r = strconv.AppendInt(r, int64(a), 10)
	r = append(r, ',')
	r = strconv.AppendInt(r, int64(b), 10)
	r = append(r, ',')
	r = append(r, na...)
	r = append(r, ',')
	r = append(r, nb...)
	r = append(r, ',')
	r = append(r, k.Kind.String()...)
	r = append(r, ',')
	r = appendFeat(r, k, true)
	r = append(r, ',')
	r = appendFeat(r, k, false)
	for _, x := range [...]float64{p.X, p.Y, p.Z, k.N.X, k.N.Y, k.N.Z, k.Gn, k.Fn, k.Ft.X, k.Ft.Y, k.Ft.Z} {
		r = append(r, ',')
		r = strconv.AppendFloat(r, x, 'g', 10, 64)
	}
	r = append(r, ',')
	r = append(r, state...)
	r = append(r, ',')
	if k.Rule != contact.NoRule {
		r = fmt.Appendf(r, "%s", k.Rule)
	}
	return append(r, '\n')
}

// Flush writes the complete rows buffered so far to the file.
func (c *ContactsWriter) Flush() error { return c.w.Flush() }

// featKinds is a contact's feature letters on A and B (v12, e7, f3).
func featKinds(k *contact.Contact) [2]byte {
	var kinds [2]byte
	switch k.Kind {
	case snap.VF:
		kinds = [2]byte{'v', 'f'}
	case snap.VE:
		kinds = [2]byte{'v', 'e'}
	case snap.EE:
		kinds = [2]byte{'e', 'e'}
	default:
		kinds = [2]byte{'v', 'v'}
	}
	if k.Swap {
		kinds[0], kinds[1] = kinds[1], kinds[0]
	}
	return kinds
}

// appendFeat appends a contact's feature on A (or B) named as v12, e7 or f3.
func appendFeat(r []byte, k *contact.Contact, onA bool) []byte {
	kinds := featKinds(k)
	if onA {
		return strconv.AppendInt(append(r, kinds[0]), int64(k.FA), 10)
	}
	return strconv.AppendInt(append(r, kinds[1]), int64(k.FB), 10)
}

// Close flushes and closes the file; it returns the file's first error.
func (c *ContactsWriter) Close() error { return c.w.Close() }
