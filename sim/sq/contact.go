package sq

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// ContactResult is the outcome of a particle–particle contact query.
type ContactResult struct {
	InContact bool
	Point     geom.Vec3 // midway point X₀ of S1 eq. (19)–(23); pass it back as the warm start
	Local     geom.Vec3 // the midway point in A's body frame, relative to A's centre (ContactPlaced's warm start)
	Normal    geom.Vec3 // unit contact normal from B to A
	PA, PB    geom.Vec3 // contact-line intersections with the surfaces of A and B, S1 eq. (36)
	Overlap   float64   // δ = (PB − PA)·Normal ≥ 0 when in contact, else 0
	Gap       float64   // (PA − PB)·Normal: −Overlap in contact, the separation otherwise
	Iter      int       // Newton iterations spent on the midway point, all stages
	Converged bool      // the midway point met the tolerance
	Err       error     // why not, when !Converged
}

// ConvergenceError reports a midway-point solve that missed its tolerance.
type ConvergenceError struct {
	Stage    string  // "continuation" (the warm start, if any, failed too)
	Iter     int     // Newton iterations spent
	Residual float64 // final ‖Φ‖ (scaled by the length scale)
}

// Error implements error.
func (e *ConvergenceError) Error() string {
	return fmt.Sprintf("sq: midway point did not converge (%s, %d iterations, |Φ| = %.3g)", e.Stage, e.Iter, e.Residual)
}

// Options tunes the contact solver; zero fields take the defaults.
type Options struct {
	Tol     float64 // ‖Φ‖ tolerance in units of the length scale (default 1e-10)
	MaxIter int     // Newton iterations per solve (default 60)
	Steps   int     // continuation steps N of S1 §2.3 (default from the blockiness)
}

// DefaultOptions are the options Contact uses.
var DefaultOptions = Options{Tol: 1e-10, MaxIter: 60}

// Contact returns the contact between shape a at pose pa and shape b at pose
// pb. warm, when not nil, is a previous midway point (ContactResult.Point);
// otherwise, or when the warm start fails, the point is found by blockiness
// continuation from volume-equivalent spheres (S1 §2.3 steps 1–5).
func Contact(a Shape, pa Pose, b Shape, pb Pose, warm *geom.Vec3) ContactResult {
	return ContactWith(DefaultOptions, a, pa, b, pb, warm)
}

// ContactWith is Contact with explicit options.
func ContactWith(o Options, a Shape, pa Pose, b Shape, pb Pose, warm *geom.Vec3) ContactResult {
	return contactWith(o, a, nil, pa, b, nil, pb, warm)
}

// ContactPrepared is ContactWith for prepared shapes (Shape.Prepare): the
// same result, without recomputing the shapes' constants.
func ContactPrepared(o Options, a *Prepared, pa Pose, b *Prepared, pb Pose, warm *geom.Vec3) ContactResult {
	return contactWith(o, a.S, a, pa, b.S, b, pb, warm)
}

// ContactPlaced is ContactPrepared for shapes placed at their bodies' poses
// (Prepared.Place), B shifted by shift (a periodic image), with the warm
// start (when not nil) and ContactResult.Local in A's body frame: the
// rotation matrices come from Place, and the warm start needs no round trip
// through world coordinates. The result is written to *r (not returned: the
// per-pair call of the narrow phase saves the copies). The same solve as
// ContactPrepared; the results differ from it by rounding only.
func ContactPlaced(o Options, a *Prepared, b *Prepared, shift geom.Vec3, warm *geom.Vec3, r *ContactResult) {
	ContactPlacedChord(o, a, b, shift, warm, nil, r)
}

// ContactPlacedChord is ContactPlaced with the pair's Newton Jacobian kept
// across calls in ch (nil: none): the first iteration from a warm start is
// a chord step with the Jacobian factored at the pair's last full Newton
// iteration (S1 §2.3's system, without the Hessians and the elimination),
// and chord steps alternate with full iterations after it, each with the
// Jacobian of the full iteration before it (Shamanskii's variant of
// Newton's method); ch keeps the last one's. Only a warm-started solve
// uses and refreshes ch (a solve by continuation is ContactPlaced's, and a
// failed warm start drops ch). The point meets the same tolerance; it
// differs from ContactPlaced's within it.
func ContactPlacedChord(o Options, a *Prepared, b *Prepared, shift geom.Vec3, warm *geom.Vec3, ch *Chord, r *ContactResult) {
	ContactPlacedScratch(o, a, b, shift, warm, ch, nil, r)
}

// ContactPlacedScratch is ContactPlacedChord with the solver's working
// state in sc (nil: a fresh one on the stack): a caller that solves many
// pairs in a row (one Scratch per worker) saves clearing the 440-byte
// state per query. The same operations and bits as ContactPlacedChord,
// whatever sc held before.
func ContactPlacedScratch(o Options, a *Prepared, b *Prepared, shift geom.Vec3, warm *geom.Vec3, ch *Chord, sc *Scratch, r *ContactResult) {
	q := query{qa: a, qb: b, xa: a.x, ra: &a.r} // the shapes are a.S, b.S (query.shapes)
	relMatInto(&q.fr.rab, a.q, b.q)
	q.fr.cb = tmulV(&a.r, b.x.Add(shift).Sub(a.x))
	contactIn(r, o, &q, warm, ch, sc)
}

// Scratch is the working state of a midway-point solve (the Newton
// unknowns and the shapes' evaluations at the current and trial points),
// kept by a caller between queries (ContactPlacedScratch) so that it is
// not cleared per query: every field a solve reads it has written first.
// Not for concurrent use: one per worker.
type Scratch struct{ st newtonState }

// query is the input of a contact query (contactIn): the two shapes
// (prepared when qa, qb are not nil: then a, b are unset and qa.S, qb.S
// are the shapes, see shapes), A's centre xa and rotation ra =
// A(q_A), and the working frame, whose rotation of B into A's body frame
// and B's centre there (not yet scaled) the caller sets. One pointer
// instead of some thirty words of arguments per query.
type query struct {
	a, b   Shape
	qa, qb *Prepared
	xa     geom.Vec3
	ra     *geom.Mat3
	fr     frame
}

// shapes returns the query's two shapes: qa.S and qb.S when prepared
// (read only where needed: the warm-started solve of prepared shapes never
// copies them), else a and b.
func (q *query) shapes() (a, b Shape) {
	if q.qa != nil && q.qb != nil {
		return q.qa.S, q.qb.S
	}
	return q.a, q.b
}

// relMatInto sets m to the rotation matrix of q_A* q_B (B's body axes in
// A's frame): geom.Quat.Conj, Mul and Mat, written out with their
// operations (the same bits, no calls, no copy of the matrix).
func relMatInto(m *geom.Mat3, qa, qb geom.Quat) { relPoseInto(m, qa, qb) }

// relPoseInto is relMatInto that also returns q_A* q_B itself
// (geom.Quat.Conj and Mul's bits).
func relPoseInto(m *geom.Mat3, qa, qb geom.Quat) geom.Quat {
	qw, qx, qy, qz := qa.W, -qa.X, -qa.Y, -qa.Z
	w := qw*qb.W - qx*qb.X - qy*qb.Y - qz*qb.Z
	x := qw*qb.X + qx*qb.W + qy*qb.Z - qz*qb.Y
	y := qw*qb.Y - qx*qb.Z + qy*qb.W + qz*qb.X
	z := qw*qb.Z + qx*qb.Y - qy*qb.X + qz*qb.W
	m[0][0], m[0][1], m[0][2] = 1-2*(y*y+z*z), 2*(x*y-w*z), 2*(x*z+w*y)
	m[1][0], m[1][1], m[1][2] = 2*(x*y+w*z), 1-2*(x*x+z*z), 2*(y*z-w*x)
	m[2][0], m[2][1], m[2][2] = 2*(x*z-w*y), 2*(y*z+w*x), 1-2*(x*x+y*y)
	return geom.Quat{W: w, X: x, Y: y, Z: z}
}

// Chord is a pair's Newton Jacobian (S1 §2.3) kept between contact queries
// (ContactPlacedChord), in A's body frame at the pair's length scale.
type Chord struct {
	f  lu4
	ok bool
}

// Reset drops the kept Jacobian (the pair's shapes changed, or it has no
// warm start).
func (c *Chord) Reset() { c.ok = false }

// State returns the kept Jacobian's factors as numbers (the six pivot swaps
// as the bits of the first, then the six multipliers and the upper
// triangle), false when none is kept: a restart that restores it with
// ChordOf continues with the same bits.
func (c *Chord) State() ([17]float64, bool) {
	if !c.ok {
		return [17]float64{}, false
	}
	f := &c.f
	sw := 0
	for i, b := range f.sw {
		if b {
			sw |= 1 << i
		}
	}
	return [17]float64{float64(sw), f.k[0], f.k[1], f.k[2], f.k[3], f.k[4], f.k[5],
		f.a0, f.a1, f.a2, f.a3, f.b1, f.b2, f.b3, f.c2, f.c3, f.d3}, true
}

// ChordOf is the Chord whose State is s, or an error naming the first
// number that is not finite, a swap code outside 0…63 or a zero pivot.
func ChordOf(s [17]float64) (Chord, error) {
	for i, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Chord{}, fmt.Errorf("number %d is %g", i, v)
		}
	}
	sw := int(s[0])
	if float64(sw) != s[0] || sw < 0 || sw > 63 {
		return Chord{}, fmt.Errorf("pivot swaps %g: want an integer in 0…63", s[0])
	}
	f := lu4{k: [6]float64{s[1], s[2], s[3], s[4], s[5], s[6]},
		a0: s[7], a1: s[8], a2: s[9], a3: s[10], b1: s[11], b2: s[12], b3: s[13], c2: s[14], c3: s[15], d3: s[16]}
	for i := range f.sw {
		f.sw[i] = sw&(1<<i) != 0
	}
	if f.a0 == 0 || f.b1 == 0 || f.c2 == 0 || f.d3 == 0 {
		return Chord{}, fmt.Errorf("a zero pivot (%g, %g, %g, %g)", f.a0, f.b1, f.c2, f.d3)
	}
	return Chord{f: f, ok: true}, nil
}

// contactWith is ContactWith; qa and qb, when not nil, are a and b prepared.
func contactWith(o Options, a Shape, qa *Prepared, pa Pose, b Shape, qb *Prepared, pb Pose, warm *geom.Vec3) ContactResult {
	ra := pa.Q.Mat()
	if warm != nil {
		wl := tmulV(&ra, warm.Sub(pa.X)) // A's body frame
		warm = &wl
	}
	q := query{qa: qa, qb: qb, xa: pa.X, ra: &ra}
	if qa == nil || qb == nil {
		q.a, q.b = a, b
	}
	q.fr.rab = pa.Q.Conj().Mul(pb.Q).Mat() // B's body axes in A's frame
	q.fr.cb = tmulV(&ra, pb.X.Sub(pa.X))   // B's centre in A's frame
	var r ContactResult
	contactIn(&r, o, &q, warm, nil, nil)
	return r
}

// contactIn is contactWith for the query q (its frame's scale is set
// here), with the warm start (when not nil) in A's body frame, relative
// to A's centre; the result goes to *res. sc, when not nil, is the
// solver's state (Scratch), else a fresh one.
func contactIn(res *ContactResult, o Options, q *query, warm *geom.Vec3, ch *Chord, sc *Scratch) {
	qa, qb := q.qa, q.qb
	if o.Tol <= 0 {
		o.Tol = DefaultOptions.Tol
	}
	if o.MaxIter <= 0 {
		o.MaxIter = DefaultOptions.MaxIter
	}
	// Work in A's body frame, relative to A's centre and in units of the
	// smaller particle, so that the tolerance is relative, the rows of Φ are
	// commensurate and A needs no rotation; B is placed by the relative pose.
	var L float64
	if qa != nil && qb != nil {
		L = min(qa.ownL, qb.ownL) // the same max(A, B, C), kept by Prepare
	} else {
		a, b := q.shapes()
		L = min(max(a.A, a.B, a.C), max(b.A, b.B, b.C))
	}
	invL := 1 / L
	fr := &q.fr
	fr.cb = fr.cb.Scale(invL) // B's centre in A's frame, scaled
	fr.invL = invL
	var sol *newtonState
	if sc != nil {
		// What the solve reads before it writes (newton: x, mu, cur; the
		// evaluations, iter and res it writes first), reset as a fresh
		// state has them.
		sol = &sc.st
		sol.x, sol.mu, sol.cur = geom.Vec3{}, 0, 0
	} else {
		sol = new(newtonState) // does not escape: on the stack
	}
	ok := false
	iter := 0
	// The shapes' preps at this scale: their own when the pair's length is
	// theirs (Prepared.own), else computed into a buffer (made, and
	// cleared, only then).
	A := posed{c: geom.Vec3{}, r: &identM, ident: true}
	B := posed{c: fr.cb, r: &fr.rab}
	if qa != nil && L == qa.ownL {
		A.q = &qa.own
	} else {
		A.q = new(prep)
		a, _ := q.shapes()
		a.prepInto(A.q, invL)
	}
	if qb != nil && L == qb.ownL {
		B.q = &qb.own
	} else {
		B.q = new(prep)
		_, b := q.shapes()
		b.prepInto(B.q, invL)
	}
	if warm != nil && warm.IsFinite() {
		sol.x = warm.Scale(invL)
		sol.mu = -1 // from the gradients
		ok = newton(&A, &B, sol, o.Tol, o.MaxIter, ch)
		iter += sol.iter
	}
	if !ok {
		if ch != nil {
			ch.ok = false
		}
		a, b := q.shapes()
		n := o.Steps
		if n <= 0 {
			n = defaultSteps(a, b)
		}
		for try := 0; try < 3 && !ok; try++ {
			ok = continuation(a, b, fr, &A, &B, n, o, sol)
			iter += sol.iter
			n *= 3
		}
	}
	finish(res, &A, &B, sol)
	res.Iter = iter
	res.Converged = ok
	res.Err = nil
	if !ok {
		res.Err = &ConvergenceError{Stage: "continuation", Iter: iter, Residual: sol.res}
	}
	// back to world axes and units
	toWorld(res, q.ra, q.xa, L)
}

// toWorld takes a result of the scaled frame back to world axes and units:
// Local = Point·L, Point = x + A·Local, PA and PB alike, Normal = A·Normal,
// Overlap and Gap times L (A = ra, A's rotation; x its centre). The
// operations of Scale, mulV and Add, written out in one call.
func toWorld(res *ContactResult, ra *geom.Mat3, x geom.Vec3, L float64) {
	m := ra
	v := res.Point.Scale(L)
	res.Local = v
	res.Point = geom.Vec3{
		X: x.X + (m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z),
		Y: x.Y + (m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z),
		Z: x.Z + (m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z),
	}
	v = res.PA.Scale(L)
	res.PA = geom.Vec3{
		X: x.X + (m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z),
		Y: x.Y + (m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z),
		Z: x.Z + (m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z),
	}
	v = res.PB.Scale(L)
	res.PB = geom.Vec3{
		X: x.X + (m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z),
		Y: x.Y + (m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z),
		Z: x.Z + (m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z),
	}
	v = res.Normal
	res.Normal = geom.Vec3{
		X: m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		Y: m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		Z: m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
	res.Overlap *= L
	res.Gap *= L
}

// frame is the working frame of a contact query: A's body frame with the
// origin at A's centre, lengths divided by L = 1/invL.
type frame struct {
	rab  geom.Mat3 // B's body → A's body rotation
	cb   geom.Vec3 // B's centre
	invL float64
}

// placed returns shape s's prep q (computed into q, of A or B, or a blend
// of either) placed in the frame: as A, at the origin without rotation,
// else as B. (Values with pointers to the caller's q and fr, not stores
// through pointers, so that neither escapes to the heap.)
func (fr *frame) placed(s Shape, q *prep, isA bool) posed {
	s.prepInto(q, fr.invL)
	if isA {
		return posed{c: geom.Vec3{}, r: &identM, ident: true, q: q}
	}
	return posed{c: fr.cb, r: &fr.rab, q: q}
}

// defaultSteps returns the continuation step count N for the pair.
func defaultSteps(a, b Shape) int {
	m := max(max(a.N1, a.N2), max(b.N1, b.N2))
	return 1 + int(math.Ceil((m-2)/4))
}

// continuation runs S1 §2.3 steps 1–5: start from the analytic contact point of
// the volume-equivalent spheres and move shape and blockiness linearly to the
// real ones in n steps, each solved by Newton from the previous point.
func continuation(a, b Shape, fr *frame, fa, fb *posed, n int, o Options, st *newtonState) bool {
	r1, r2 := a.VolumeRadius(), b.VolumeRadius()
	st.x = fr.cb.Scale(r1 / (r1 + r2)) // S1 eq. (25) with A's centre at the origin
	st.mu = math.Sqrt(r2 / r1)         // |∇F₁|/|∇F₂| = r₂/r₁ for the spheres
	total := 0
	ok := false
	for k := 1; k <= n; k++ {
		t := float64(k) / float64(n)
		if k < n {
			var qa, qb prep
			A := fr.placed(blend(a, r1, t), &qa, true) // S1 eq. (26)–(27)
			B := fr.placed(blend(b, r2, t), &qb, false)
			ok = newton(&A, &B, st, max(o.Tol, 1e-4), o.MaxIter, nil)
		} else {
			ok = newton(fa, fb, st, o.Tol, o.MaxIter, nil)
		}
		total += st.iter
		if !ok && k < n && !finite(st) {
			break
		}
	}
	st.iter = total
	return ok
}

func finite(st *newtonState) bool { return st.x.IsFinite() && !math.IsNaN(st.mu) }

// blend returns the shape a fraction t of the way from the sphere of radius r
// to s, S1 eq. (26)–(27).
func blend(s Shape, r, t float64) Shape {
	return Shape{
		A:  r + t*(s.A-r), // S1 eq. (27)
		B:  r + t*(s.B-r),
		C:  r + t*(s.C-r),
		N1: 2 + t*(s.N1-2),
		N2: 2 + t*(s.N2-2),
	}
}

// newtonState is the unknown Z = (X, μ) of S1 eq. (23) with the last residual
// and the evaluations of A and B at X (F, ∇F, and H when a step was taken):
// e[cur] is the current point, e[1−cur] the trial point, swapped in when
// accepted.
type newtonState struct {
	x    geom.Vec3
	mu   float64
	res  float64 // ‖Φ‖ at x, μ
	iter int
	e    [2][2]evalOut // [point][A, B]
	cur  int
}

// ea and eb return the evaluations of A and B at the current point.
func (st *newtonState) ea() *evalOut { return &st.e[st.cur&1][0] }
func (st *newtonState) eb() *evalOut { return &st.e[st.cur&1][1] }

// phiV returns Φ of S1 eq. (24) from the evaluations at one point, norm4
// its norm: two functions small enough to be inlined into newton (one
// function returning both was not: a call per point, the array returned on
// the stack).
func phiV(ea, eb *evalOut, mu float64) [4]float64 {
	m2 := mu * mu
	return [4]float64{ea.g.X + m2*eb.g.X, ea.g.Y + m2*eb.g.Y, ea.g.Z + m2*eb.g.Z, ea.f - eb.f} // S1 eq. (24)
}

// norm4 returns ‖v‖.
func norm4(v *[4]float64) float64 {
	return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3])
}

// newton solves S1 eq. (23) for the midway point by Newton's method with
// step halving on ‖Φ‖ (S1 §2.3), starting from st. A negative st.mu is
// initialised from the gradients, μ² = |∇F₁|/|∇F₂|.
//
// ch, when not nil, holds a Jacobian kept from an earlier solve (ch.ok):
// the first iteration is then a chord step with it, kept when it lowers
// ‖Φ‖; each full iteration stores its Jacobian in ch, and the step after
// it is a chord step with that Jacobian again.
func newton(A, B *posed, st *newtonState, tol float64, maxIter int, ch *Chord) bool {
	ea, eb := st.ea(), st.eb()
	pair := evalWAsm && A.q.same == 10 && B.q.same == 10
	if pair {
		evalW2SSE2(A, B, &st.x, ea, eb)
	} else {
		A.evalWGo(st.x, ea)
		B.evalWGo(st.x, eb)
	}
	if st.mu <= 0 || math.IsNaN(st.mu) {
		na, nb := ea.g.Norm(), eb.g.Norm()
		st.mu = 1
		if na > 0 && nb > 0 {
			st.mu = math.Sqrt(na / nb)
		}
	}
	st.iter = 0
	f := phiV(ea, eb, st.mu)
	r := norm4(&f)
	st.res = r
	chorded := false
	for st.iter < maxIter {
		if converged(&f, ea.g, tol) {
			return true
		}
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return false
		}
		st.iter++
		if ch != nil && ch.ok && !chorded {
			// A chord step: the kept Jacobian, one trial point, kept when
			// it lowers ‖Φ‖; a full iteration comes next.
			chorded = true
			d := ch.f.solve([4]float64{-f[0], -f[1], -f[2], -f[3]})
			dx := geom.Vec3{X: d[0], Y: d[1], Z: d[2]}
			dmu := d[3]
			if s := dx.Norm(); s > maxStep { // trust-region cap, as below
				dx, dmu = dx.Scale(maxStep/s), dmu*maxStep/s
			}
			ta, tb := &st.e[(st.cur+1)&1][0], &st.e[(st.cur+1)&1][1]
			xn := st.x.Add(dx)
			mun := math.Abs(st.mu + dmu)
			if pair {
				evalW2SSE2(A, B, &xn, ta, tb)
			} else {
				A.evalWGo(xn, ta)
				B.evalWGo(xn, tb)
			}
			fn := phiV(ta, tb, mun)
			if rn := norm4(&fn); rn < r {
				st.x, st.mu, f, r = xn, mun, fn, rn
				st.cur++
				ea, eb = ta, tb
				st.res = r
			}
			continue
		}
		ha, hb := A.hessW(ea), B.hessW(eb) // the Hessians only when a step is taken
		// S1 §2.3: J δZ = −Φ with J = [[H₁ + μ²H₂, 2μ∇F₂], [(∇F₁ − ∇F₂)ᵀ, 0]].
		m2, mu2 := st.mu*st.mu, 2*st.mu
		xy, xz, yz := ha.xy+m2*hb.xy, ha.xz+m2*hb.xz, ha.yz+m2*hb.yz
		j := [4][5]float64{
			{ha.xx + m2*hb.xx, xy, xz, mu2 * eb.g.X, -f[0]},
			{xy, ha.yy + m2*hb.yy, yz, mu2 * eb.g.Y, -f[1]},
			{xz, yz, ha.zz + m2*hb.zz, mu2 * eb.g.Z, -f[2]},
			{ea.g.X - eb.g.X, ea.g.Y - eb.g.Y, ea.g.Z - eb.g.Z, 0, -f[3]},
		}
		var d [4]float64
		if ch != nil { // factored into the pair's kept Jacobian, not copied there
			if !factor4(&j, &ch.f) {
				return false
			}
			ch.ok = true
			d = ch.f.solve([4]float64{j[0][4], j[1][4], j[2][4], j[3][4]})
		} else {
			var lu lu4
			if !factor4(&j, &lu) {
				return false
			}
			d = lu.solve([4]float64{j[0][4], j[1][4], j[2][4], j[3][4]})
		}
		dx := geom.Vec3{X: d[0], Y: d[1], Z: d[2]}
		dmu := d[3]
		if s := dx.Norm(); s > maxStep { // trust-region cap on the position step
			dx, dmu = dx.Scale(maxStep/s), dmu*maxStep/s
		}
		chorded = false // the next step reuses this Jacobian
		// Step halving until ‖Φ‖ decreases (S1 §2.3).
		alpha := 1.0
		accepted := false
		ta, tb := &st.e[(st.cur+1)&1][0], &st.e[(st.cur+1)&1][1]
		for h := 0; h < 40; h++ {
			xn := st.x.AddScaled(alpha, dx)
			mun := math.Abs(st.mu + alpha*dmu)
			if pair {
				evalW2SSE2(A, B, &xn, ta, tb)
			} else {
				A.evalWGo(xn, ta)
				B.evalWGo(xn, tb)
			}
			fn := phiV(ta, tb, mun)
			rn := norm4(&fn)
			if rn < r {
				st.x, st.mu, f, r = xn, mun, fn, rn
				st.cur++
				ea, eb, ta, tb = ta, tb, ea, eb
				accepted = true
				break
			}
			alpha /= 2
		}
		st.res = r
		if !accepted {
			return converged(&f, ea.g, tol)
		}
	}
	return converged(&f, ea.g, tol)
}

// converged reports whether Φ of S1 eq. (24) meets the tolerance: |F₁ − F₂|
// below tol and the gradient rows below tol·min(1, |∇F₁|). The relative part
// matters only at deep overlaps, where the midway point lies near the centres
// and the gradients of blocky shapes nearly vanish, so that an absolute test
// would accept a point whose gradients are not antiparallel.
func converged(f *[4]float64, ga geom.Vec3, tol float64) bool {
	g := math.Sqrt(f[0]*f[0] + f[1]*f[1] + f[2]*f[2])
	return math.Abs(f[3]) < tol && g < tol*min(1, ga.Norm())
}

// maxStep caps a Newton position step (in units of the length scale).
const maxStep = 0.5

// lu4 is a 4×4 matrix factored by Gaussian elimination with partial
// pivoting, unrolled over scalars (rows a–d; a pivot row is swapped in when
// its entry is larger in magnitude): the swaps made, the multipliers by
// stage and the upper triangle. solve replays on a right-hand side exactly
// the operations that the elimination of the augmented matrix [M | r]
// performs on its last column, so that factor4 then solve gives the same
// bits as eliminating the augmented system at once; a factorisation kept
// from an earlier Newton iteration solves again for 30 operations.
type lu4 struct {
	sw                             [6]bool    // stage 1: a↔b, a↔c, a↔d; stage 2: b↔c, b↔d; stage 3: c↔d
	k                              [6]float64 // multipliers: b, c, d by a; c, d by b; d by c
	a0, a1, a2, a3, b1, b2, b3, c2 float64    // the upper triangle
	c3, d3                         float64
}

// factor4 factors the first four columns of m into f; false when a pivot
// is zero or NaN (f is then left as it was).
func factor4(m *[4][5]float64, f *lu4) bool {
	a0, a1, a2, a3 := m[0][0], m[0][1], m[0][2], m[0][3]
	b0, b1, b2, b3 := m[1][0], m[1][1], m[1][2], m[1][3]
	c0, c1, c2, c3 := m[2][0], m[2][1], m[2][2], m[2][3]
	d0, d1, d2, d3 := m[3][0], m[3][1], m[3][2], m[3][3]
	var sw [6]bool
	if math.Abs(b0) > math.Abs(a0) {
		a0, a1, a2, a3, b0, b1, b2, b3 = b0, b1, b2, b3, a0, a1, a2, a3
		sw[0] = true
	}
	if math.Abs(c0) > math.Abs(a0) {
		a0, a1, a2, a3, c0, c1, c2, c3 = c0, c1, c2, c3, a0, a1, a2, a3
		sw[1] = true
	}
	if math.Abs(d0) > math.Abs(a0) {
		a0, a1, a2, a3, d0, d1, d2, d3 = d0, d1, d2, d3, a0, a1, a2, a3
		sw[2] = true
	}
	if a0 == 0 || math.IsNaN(a0) {
		return false
	}
	inv0 := 1 / a0
	kb, kc, kd := b0*inv0, c0*inv0, d0*inv0
	if kb != 0 {
		b1, b2, b3 = b1-kb*a1, b2-kb*a2, b3-kb*a3
	}
	if kc != 0 {
		c1, c2, c3 = c1-kc*a1, c2-kc*a2, c3-kc*a3
	}
	if kd != 0 {
		d1, d2, d3 = d1-kd*a1, d2-kd*a2, d3-kd*a3
	}
	if math.Abs(c1) > math.Abs(b1) {
		b1, b2, b3, c1, c2, c3 = c1, c2, c3, b1, b2, b3
		sw[3] = true
	}
	if math.Abs(d1) > math.Abs(b1) {
		b1, b2, b3, d1, d2, d3 = d1, d2, d3, b1, b2, b3
		sw[4] = true
	}
	if b1 == 0 || math.IsNaN(b1) {
		return false
	}
	inv1 := 1 / b1
	kc1, kd1 := c1*inv1, d1*inv1
	if kc1 != 0 {
		c2, c3 = c2-kc1*b2, c3-kc1*b3
	}
	if kd1 != 0 {
		d2, d3 = d2-kd1*b2, d3-kd1*b3
	}
	if math.Abs(d2) > math.Abs(c2) {
		c2, c3, d2, d3 = d2, d3, c2, c3
		sw[5] = true
	}
	if c2 == 0 || math.IsNaN(c2) {
		return false
	}
	inv2 := 1 / c2
	kd2 := d2 * inv2
	if kd2 != 0 {
		d3 = d3 - kd2*c3
	}
	if d3 == 0 || math.IsNaN(d3) {
		return false
	}
	*f = lu4{sw: sw, k: [6]float64{kb, kc, kd, kc1, kd1, kd2},
		a0: a0, a1: a1, a2: a2, a3: a3, b1: b1, b2: b2, b3: b3, c2: c2, c3: c3, d3: d3}
	return true
}

// solve returns x with M x = r for the factored M.
func (f *lu4) solve(r [4]float64) [4]float64 {
	a4, b4, c4, d4 := r[0], r[1], r[2], r[3]
	if f.sw[0] {
		a4, b4 = b4, a4
	}
	if f.sw[1] {
		a4, c4 = c4, a4
	}
	if f.sw[2] {
		a4, d4 = d4, a4
	}
	if k := f.k[0]; k != 0 {
		b4 = b4 - k*a4
	}
	if k := f.k[1]; k != 0 {
		c4 = c4 - k*a4
	}
	if k := f.k[2]; k != 0 {
		d4 = d4 - k*a4
	}
	if f.sw[3] {
		b4, c4 = c4, b4
	}
	if f.sw[4] {
		b4, d4 = d4, b4
	}
	if k := f.k[3]; k != 0 {
		c4 = c4 - k*b4
	}
	if k := f.k[4]; k != 0 {
		d4 = d4 - k*b4
	}
	if f.sw[5] {
		c4, d4 = d4, c4
	}
	if k := f.k[5]; k != 0 {
		d4 = d4 - k*c4
	}
	x3 := d4 / f.d3
	x2 := (c4 - f.c3*x3) / f.c2
	x1 := (b4 - f.b2*x2 - f.b3*x3) / f.b1
	x0 := (a4 - f.a1*x1 - f.a2*x2 - f.a3*x3) / f.a0
	return [4]float64{x0, x1, x2, x3}
}

// finish sets r's point, normal, contact-line intersections, gap and
// overlap (S1 eq. 36–37: the normal at the midway point, the overlap along
// the contact line), lengths in the scaled frame; the caller sets the rest
// (Local, Iter, Converged, Err), field by field instead of clearing the
// whole result first.
func finish(r *ContactResult, A, B *posed, st *newtonState) {
	ea, eb := st.ea(), st.eb()
	// At the solution ∇F_A ∥ −∇F_B; average the two unit normals (S1 §2.3: n₁₂ = ∇F₁/|∇F₁| = −∇F₂/|∇F₂|).
	n := eb.g.Unit().Sub(ea.g.Unit()).Unit()
	if n == (geom.Vec3{}) { // both gradients vanish: the centres coincide
		n = A.c.Sub(B.c).Unit()
		if n == (geom.Vec3{}) {
			n = geom.Vec3{Z: 1}
		}
	}
	sa := A.lineExit(st.x, n.Neg(), ea)
	sb := B.lineExit(st.x, n, eb)
	r.Point, r.Normal = st.x, n
	r.PA = st.x.AddScaled(-sa, n)
	r.PB = st.x.AddScaled(sb, n)
	r.Gap = r.PA.Sub(r.PB).Dot(n) // S1 after eq. (36): δ_n = X_i − X_j along the contact line
	r.InContact, r.Overlap = false, 0
	if r.Gap < 0 {
		r.InContact, r.Overlap = true, -r.Gap
	}
}

// lineExit returns s such that X₀ + s·d lies on the surface where the line
// leaves the body in direction d (d ≈ the outward normal there), by Newton's
// iteration S1 eq. (37) on the gauge (1 + F)^(1/n1) − 1, which has the same
// root and is degree-one along the line (nearly linear on the contact line,
// where F has the curvature of the power n1): the step is the one on F scaled
// by gaugeStep. e0 holds F, ∇F at X₀ (and is then overwritten: the scratch
// of the evaluations along the line). From inside, the root is bracketed and
// bisection guards each step; from outside, the iteration is monotone, and if
// the line misses the body (possible only for separated pairs) the radial
// projection of X₀ is used instead.
func (ps *posed) lineExit(x0, d geom.Vec3, e0 *evalOut) float64 {
	f, df := e0.f, e0.g.Dot(d)
	inside := f < 0
	hi := 0.0
	if inside { // the exit lies within |X₀ − c| + the half-diagonal
		hi = x0.Sub(ps.c).Norm() + ps.q.diag
	}
	lo, s, prev := 0.0, 0.0, 0.0 // prev: the last Newton step
	l1, l2 := ps.q.l1, ps.q.l2
	fast := evalWAsm && ps.q.same == 10
	// e0 is the scratch of the evaluations along the line (its X₀ values
	// are read above): no second evalOut to clear.
	for it := 1; ; it++ {
		if f == 0 {
			return s
		}
		newton := df > 0
		var ds float64
		if newton {
			r := 0.0 // gaugeStep, inlined
			if math.Abs(f) < 0.25 {
				r = (1 + f*(l1+f*l2)) / (1 + f*(2*l1+3*f*l2))
			} else {
				r = ps.q.gaugeStepFar(f)
			}
			ds = -f / df * r // S1 eq. (37) on the gauge
		}
		if inside {
			if f < 0 {
				lo = s
			} else {
				hi = s
			}
			if !newton || s+ds <= lo || s+ds >= hi {
				ds, newton = (lo+hi)/2-s, false
			}
		} else if !newton {
			break
		}
		s += ds
		if math.Abs(ds) < 1e-14*(1+math.Abs(s)) {
			return s
		}
		if newton {
			// quadratic convergence: the error left is about κ·ds² with
			// κ ≈ |ds|/prev² observed on the last two Newton steps
			a := math.Abs(ds)
			if a < lineTol || prev != 0 && a < 1e-5 && a*a*a < lineErr*prev*prev {
				return s
			}
			prev = ds
		} else {
			prev = 0
		}
		if it == 200 {
			break
		}
		if w := x0.AddScaled(s, d); fast {
			evalW1SSE2(ps, &w, e0) // evalW's SSE2 kernel, called here: no wrapper
		} else {
			ps.evalWGo(w, e0)
		}
		f, df = e0.f, e0.g.Dot(d) // S1 eq. (37): f and ∇f·n̂ along the line
	}
	if inside {
		return s
	}
	// Fallback: radial projection of X₀ onto the surface, measured along d.
	x := tmulV(ps.r, x0.Sub(ps.c))
	if g := ps.q.root1(ps.q.phi(x)); g > 0 {
		p := mulV(ps.r, x.Scale(1/g)).Add(ps.c)
		return p.Sub(x0).Dot(d)
	}
	return 0
}

// lineExit stops after a Newton step below lineTol (the error left is about
// κ·lineTol², κ the ratio of second to first derivative of the gauge along
// the line, of order one) or when the error predicted from the last two steps
// is below lineErr; both in units of the length scale. The exit point is
// then within ~1e-10 of the size (TestLineExitAccuracy: worst 8.9e-11 over
// 4 000 lines, n ≤ 10), the overlap of S1 eq. (36) within 2e-10, so the
// Hertz force F ∝ δ^(3/2) is off by 1.5·Δδ/δ ≤ 3e-7 of itself down to an
// overlap of 1e-3 of the size; the stricter 1e-8 and 1e-12 of sessions
// ≤ 13 cost one more shape evaluation per intersection now and then
// (session 14: −4% of the midway-point solve's instructions, static).
const (
	lineTol = 1e-6
	lineErr = 1e-10
)

// gaugeStep returns the factor that turns the Newton step −F/F′ on F = G^n1 − 1
// into the Newton step on the gauge G − 1 = (1 + F)^(1/n1) − 1 (S1 eq. 1):
// (G − 1)/(F·G′/F′) with G′/F′ = G/(n1(1 + F)); near the surface from the
// series of (1 + F)^(1/n1), without a root.
func (q *prep) gaugeStep(f float64) float64 {
	if math.Abs(f) < 0.25 {
		return (1 + f*(q.l1+f*q.l2)) / (1 + f*(2*q.l1+3*f*q.l2)) // φ(F)/(F·φ′(F)), φ the cubic series of G − 1
	}
	return q.gaugeStepFar(f)
}

// gaugeStepFar is gaugeStep for |F| ≥ 1/4, with the root.
func (q *prep) gaugeStepFar(f float64) float64 {
	if !(f > -1) {
		return 1
	}
	g := q.root1(1 + f)
	return (g - 1) * q.n1 * (1 + f) / (g * f)
}
