package integrate

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/krylov"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// vertexOnCube is a small cube standing on one vertex at gap g on the top
// face of a larger free cube that turns with angular velocity om (so the
// contact's normal turns with the face's body), the small cube moving at
// slip relative to the face's material point under it. lowerFirst orders
// the bodies so that the face is A's (true: Contact.Swap) or B's (false).
// Evaluated and committed once (the contact has a history, the friction
// spring stored at the start-of-step normal), with the lagged dashpot and
// Coulomb test that newmark uses.
func vertexOnCube(t *testing.T, mu, g float64, om, slip geom.Vec3, lowerFirst bool) *world.World {
	t.Helper()
	w := world.New("test")
	if err := w.SetParams(0, 0, cubeParams(0.3, mu)); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	lower := body.New("lower", shape.Box(0.3, 0.3, 0.3), 1000, geom.Vec3{}, geom.QIdent())
	// A corner down (its diagonal tilted 0.15 rad from the vertical): the
	// contact force's moment about the centre is small.
	d := geom.V(-1, -1, -1).Unit()
	ax := d.Cross(geom.V(0, 0, -1))
	q := geom.QAxisAngle(geom.V(1, 0, 0), 0.15).Mul(geom.QAxisAngle(ax.Unit(), math.Asin(ax.Norm())))
	upper := body.New("upper", shape.Box(0.1, 0.1, 0.1), 8000, geom.Vec3{}, q)
	top := math.Inf(-1)
	for _, v := range lower.Poly().Verts {
		top = math.Max(top, v.Z)
	}
	var low geom.Vec3
	low.Z = math.Inf(1)
	for _, v := range upper.Poly().Verts {
		if p := upper.Q.Rotate(v); p.Z < low.Z {
			low = p
		}
	}
	pc := geom.V(0.02, -0.01, top) // the vertex over this point of the face
	upper.X = pc.Sub(low).Add(geom.V(0, 0, g))
	lower.W = om
	upper.V = om.Cross(pc).Add(slip) // the face's material velocity at the vertex, plus the slip
	if lowerFirst {
		w.AddBody(lower)
		w.AddBody(upper)
	} else {
		w.AddBody(upper)
		w.AddBody(lower)
	}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	w.SetDampLag(true, true)
	w.SetStickLag(true)
	w.Evaluate(0, 2e-3, world.Eval{})
	w.Commit(world.Commit{})
	return w
}

// The assembled tangent against central differences of newmark's residual
// (S0 eq. 62, Newmark.residualFixed) at the predictor of a 2 ms step, for a
// vertex–face contact whose face turns with its body (vertexOnCube):
// sticking and sliding, the face on B and on A. The differences are
// Richardson-extrapolated (4 D(h/2) − D(h))/3 at |h v| ≈ 1e-7 m, and the
// comparison is on the contact's part (the difference between the
// tangent's and the differences' products, relative to the differences'
// product less the inertia blocks'): ≤ 1e-6 for random directions. Without
// the friction's turn with the frame (law.Friction.NormalTangent) and the
// sliding velocity of the point on the face (slideVelocity) it is ≈ 1e-2.
func TestNewmarkTangentVertexFace(t *testing.T) {
	checkGeomTangent(t, snap.VF, vertexOnCube, []geomCase{
		{"sticking, face on A", 0.8, geom.V(2e-4, -1e-4, -2e-3), true, false},
		{"sliding, face on A", 0.1, geom.V(0.4, 0.3, -2e-3), true, true},
		{"sticking, face on B", 0.8, geom.V(-1e-4, 2e-4, -2e-3), false, false},
		{"sliding, face on B", 0.1, geom.V(-0.3, 0.5, -2e-3), false, true},
	})
}

// geomCase is one case of checkGeomTangent: friction coefficient, slip of
// the upper body, body order, and the expected friction regime.
type geomCase struct {
	name       string
	mu         float64
	slip       geom.Vec3
	lowerFirst bool
	sliding    bool
}

// checkGeomTangent compares the assembled tangent with Richardson-
// extrapolated central differences of the residual for two bodies with one
// active contact of the given kind built by mk (TestNewmarkTangentVertexFace).
func checkGeomTangent(t *testing.T, kind snap.ContactKind, mk func(t *testing.T, mu, g float64, om, slip geom.Vec3, lowerFirst bool) *world.World, cases []geomCase) {
	t.Helper()
	for _, tc := range cases {
		w := mk(t, tc.mu, 0.6e-3, geom.V(1.5, -2, 3), tc.slip, tc.lowerFirst)
		nm := NewNewmark()
		nm.prepare(w)
		nm.t = w.Time
		nm.constants(2e-3)
		for k := range nm.nb {
			bd := &nm.nb[k]
			bd.up = bd.v0.Scale(nm.dt).AddScaled(0.5*nm.dt*nm.dt, bd.a0)
			bd.ap = bd.w0.Scale(nm.dt).AddScaled(0.5*nm.dt*nm.dt, bd.wd0)
		}
		clear(nm.y)
		if nm.residual(w, nm.y, nm.r) {
			t.Fatalf("%s: the predictor penetrates", tc.name)
		}
		nc := 0
		var swap, sliding bool
		w.EachTrialContact(func(a, b int, c *contact.Contact) {
			if !c.Active() {
				return
			}
			nc++
			if c.Kind != kind {
				t.Fatalf("%s: a %v contact, want %v", tc.name, c.Kind, kind)
			}
			swap, sliding = c.Swap, c.Fric.Sliding
		})
		if nc != 1 || (kind == snap.VF && swap != tc.lowerFirst) || sliding != tc.sliding {
			t.Fatalf("%s: %d active contacts, swap %v, sliding %v", tc.name, nc, swap, sliding)
		}
		if !nm.buildTangent(w) {
			t.Fatal("no tangent")
		}
		y0 := append([]float64(nil), nm.y...)
		r0 := append([]float64(nil), nm.r...)
		m := len(y0)
		rp, rm := make([]float64, m), make([]float64, m)
		diff := func(v []float64, h float64) []float64 {
			yt := make([]float64, m)
			for i := range yt {
				yt[i] = y0[i] + h*v[i]
			}
			if nm.residualFixed(w, yt, rp) {
				t.Fatal("penetrates")
			}
			for i := range yt {
				yt[i] = y0[i] - h*v[i]
			}
			if nm.residualFixed(w, yt, rm) {
				t.Fatal("penetrates")
			}
			d := make([]float64, m)
			for i := range d {
				d[i] = (rp[i] - rm[i]) / (2 * h)
			}
			return d
		}
		// The inertia blocks alone (no contact): the diagonal blocks less the
		// contacts' (buildTangent with the contacts' part taken out).
		rng := rand.New(rand.NewSource(5))
		v := make([]float64, m)
		ja := make([]float64, m)
		worst := 0.0
		for trial := 0; trial < 6; trial++ {
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			h := 1e-7 / krylov.Norm(v)
			d1, d2 := diff(v, h), diff(v, h/2)
			for i := range d1 {
				d1[i] = (4*d2[i] - d1[i]) / 3
			}
			nm.tanMul(v, ja)
			inert := nm.inertiaMul(w, v)
			e, s := 0.0, 0.0
			for i := range ja {
				e += (ja[i] - d1[i]) * (ja[i] - d1[i])
				s += (d1[i] - inert[i]) * (d1[i] - inert[i])
			}
			worst = math.Max(worst, math.Sqrt(e/s))
		}
		copy(nm.y, y0)
		copy(nm.r, r0)
		t.Logf("%s: contact part's largest relative error %.3g", tc.name, worst)
		if !(worst <= 1e-6) {
			t.Errorf("%s: ‖J v − J_fd v‖ / ‖J_fd v − J_inertia v‖ = %.3g > 1e-6", tc.name, worst)
		}
	}
}

// inertiaMul returns the product of the inertia blocks alone (the tangent
// of the residual with no contact forces, body by body) with v, in the
// tangent's scaled coordinates: the diagonal blocks of buildTangent before
// the contacts are added, scaled as scaleBlock scales them.
func (n *Newmark) inertiaMul(w *world.World, v []float64) []float64 {
	out := make([]float64, len(v))
	for k := range n.nb {
		bd := &n.nb[k]
		xiInv, ok := bd.xi.Inv()
		if !ok {
			xiInv = geom.Identity()
		}
		var B mat6
		n.inertiaBlock(w, k, &B, &xiInv)
		n.scaleBlock(&B, k, k)
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				out[6*k+i] += B[i][j] * v[6*k+j]
			}
		}
	}
	return out
}

// crossedCubes is vertexOnCube's set-up with an edge–edge contact: the
// lower cube turned 45° about x (its top an edge along x), the small one
// 45° about y (its bottom an edge along y), both tilted a little so that
// no entry of the tangent is special, the edges crossing at gap g.
func crossedCubes(t *testing.T, mu, g float64, om, slip geom.Vec3, lowerFirst bool) *world.World {
	t.Helper()
	w := world.New("test")
	if err := w.SetParams(0, 0, cubeParams(0.3, mu)); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	ql := geom.QAxisAngle(geom.V(0, 0, 1), 0.1).Mul(geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4))
	lower := body.New("lower", shape.Box(0.3, 0.3, 0.3), 1000, geom.Vec3{}, ql)
	qu := geom.QAxisAngle(geom.V(0, 0, 1), 0.15).Mul(geom.QAxisAngle(geom.V(0, 1, 0), math.Pi/4))
	upper := body.New("upper", shape.Box(0.1, 0.1, 0.1), 8000, geom.Vec3{}, qu)
	top, low := math.Inf(-1), math.Inf(1)
	for _, v := range lower.Poly().Verts {
		top = math.Max(top, lower.Q.Rotate(v).Z)
	}
	for _, v := range upper.Poly().Verts {
		low = math.Min(low, upper.Q.Rotate(v).Z)
	}
	upper.X = geom.V(0.01, 0.02, top-low+g)
	if lowerFirst {
		w.AddBody(lower)
		w.AddBody(upper)
	} else {
		w.AddBody(upper)
		w.AddBody(lower)
	}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	w.SetDampLag(true, true)
	w.SetStickLag(true)
	for it := 0; it < 4; it++ { // bring the edges' gap to g
		w.Evaluate(0, 2e-3, world.Eval{})
		var gn, nz float64
		w.EachTrialContact(func(a, b int, c *contact.Contact) {
			if c.Kind == snap.EE {
				gn, nz = c.Gn, c.N.Z
				if w.Bodies[a] != upper {
					nz = -nz
				}
			}
		})
		if nz == 0 {
			t.Fatal("no edge–edge contact")
		}
		upper.X.Z += (g - gn) / nz
	}
	pc := upper.X // the face body's material velocity near the crossing, plus the slip
	pc.Z = top
	lower.W = om
	upper.V = om.Cross(pc).Add(slip)
	w.Evaluate(0, 2e-3, world.Eval{})
	w.Commit(world.Commit{})
	return w
}

// The assembled tangent against central differences of the residual, as
// TestNewmarkTangentVertexFace, for an edge–edge contact whose edges both
// turn (crossedCubes): sticking and sliding, both body orders; ≤ 1e-6 of
// the contact's part. Without the edge–edge terms (edgeEdgeTerms) it is
// ≈ 1e-2.
func TestNewmarkTangentEdgeEdge(t *testing.T) {
	checkGeomTangent(t, snap.EE, crossedCubes, []geomCase{
		{"sticking, lower cube A", 0.8, geom.V(2e-4, -1e-4, -2e-3), true, false},
		{"sliding, lower cube A", 0.1, geom.V(0.4, 0.3, -2e-3), true, true},
		{"sticking, lower cube B", 0.8, geom.V(-1e-4, 2e-4, -2e-3), false, false},
		{"sliding, lower cube B", 0.1, geom.V(-0.3, 0.5, -2e-3), false, true},
	})
}
