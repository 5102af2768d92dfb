package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Camera is an orbit camera about Target in a Z-up world.
type Camera struct {
	Target           geom.Vec3
	Yaw              float64 // rad, azimuth of the eye about +Z measured from +X
	Pitch            float64 // rad, elevation of the eye above the target's XY plane
	Dist             float64 // eye–target distance (m)
	FovY             float64 // vertical field of view (rad)
	MinDist, MaxDist float64 // zoom clamp
	Aspect           float64 // width/height of the viewport, set by Renderer.Draw; Fit uses it (0: 1)
}

const maxPitch = 89.5 * math.Pi / 180

// NewCamera returns a camera looking at the origin from the front-right, above.
func NewCamera() *Camera {
	return &Camera{
		Yaw: -60 * math.Pi / 180, Pitch: 25 * math.Pi / 180,
		Dist: 5, FovY: 40 * math.Pi / 180,
		MinDist: 1e-4, MaxDist: 1e5,
	}
}

// Eye returns the camera position.
func (c *Camera) Eye() geom.Vec3 {
	sy, cy := math.Sincos(c.Yaw)
	sp, cp := math.Sincos(c.Pitch)
	return c.Target.Add(geom.Vec3{X: cp * cy, Y: cp * sy, Z: sp}.Scale(c.Dist))
}

// Basis returns the unit forward (eye→target), right and up vectors.
func (c *Camera) Basis() (forward, right, up geom.Vec3) {
	sy, cy := math.Sincos(c.Yaw)
	sp, cp := math.Sincos(c.Pitch)
	forward = geom.Vec3{X: -cp * cy, Y: -cp * sy, Z: -sp}
	right = geom.Vec3{X: -sy, Y: cy, Z: 0} // forward × Z, normalised
	up = right.Cross(forward)
	return
}

// Orbit rotates the eye about the target by a mouse drag of (dx, dy) pixels.
func (c *Camera) Orbit(dx, dy float64) {
	c.Yaw -= dx * 0.008
	c.Yaw = math.Remainder(c.Yaw, 2*math.Pi)
	c.Pitch += dy * 0.008
	c.Pitch = math.Max(-maxPitch, math.Min(maxPitch, c.Pitch))
}

// Pan moves the target so the scene follows a drag of (dx, dy) pixels in a
// viewport heightPx pixels high.
func (c *Camera) Pan(dx, dy float64, heightPx int) {
	if heightPx <= 0 {
		return
	}
	_, right, up := c.Basis()
	wpp := 2 * c.Dist * math.Tan(c.FovY/2) / float64(heightPx)
	c.Target = c.Target.AddScaled(-dx*wpp, right).AddScaled(dy*wpp, up)
}

// Zoom scales the distance by 0.9^steps (positive steps zoom in), clamped.
func (c *Camera) Zoom(steps float64) {
	c.Dist *= math.Pow(0.9, steps)
	c.clamp()
}

// ZoomAt multiplies the distance by factor (< 1 zooms in), clamped, about the
// point under pixel (x, y) of a w×h viewport (top-left origin): the point of
// the cursor ray at the target's depth keeps its place on the screen, so the
// view zooms towards the cursor. The viewing direction does not change.
func (c *Camera) ZoomAt(x, y float64, w, h int, factor float64) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return
	}
	eye := c.Eye()
	fwd, _, _ := c.Basis()
	_, dir := c.Ray(x, y, w, h)
	old := c.Dist
	c.Dist *= factor
	c.clamp()
	k := c.Dist / old // the factor after clamping
	cos := dir.Dot(fwd)
	if w <= 0 || h <= 0 || !(cos > 1e-6) || !(k > 0) {
		return
	}
	// scale the eye and the target about P = eye + dir·Dist/cos (a homothety
	// keeps P's direction from the eye, hence its pixel)
	p := eye.AddScaled(old/cos, dir)
	c.Target = p.Add(c.Target.Sub(p).Scale(k))
}

func (c *Camera) clamp() {
	lo, hi := c.MinDist, c.MaxDist
	if !(lo > 0) {
		lo = 1e-6
	}
	if !(hi > lo) {
		hi = 1e9
	}
	if !(c.Dist >= lo) { // also catches NaN
		c.Dist = lo
	}
	if c.Dist > hi {
		c.Dist = hi
	}
}

// FitSphere frames a sphere, keeping the viewing direction.
func (c *Camera) FitSphere(center geom.Vec3, radius float64) {
	if !(radius > 0) || math.IsInf(radius, 0) || !center.IsFinite() {
		return
	}
	fov := c.FovY
	if !(fov > 0) {
		fov = 40 * math.Pi / 180
	}
	half := fov / 2
	if c.Aspect > 0 && c.Aspect < 1 { // portrait: the horizontal field is the narrow one
		half = math.Atan(math.Tan(half) * c.Aspect)
	}
	c.Target = center
	c.Dist = 1.1 * radius / math.Sin(half)
	c.clamp()
}

// Fit frames all non-wall bodies plus the enabled walls of comparable size;
// with no bodies it frames the enabled walls. Huge ground planes are ignored
// while there are bodies to look at.
func (c *Camera) Fit(s *snap.Snapshot) {
	if s == nil {
		return
	}
	walls := wallMask(s, nil)
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	n := 0
	for i := range s.Bodies {
		if walls[i] {
			continue
		}
		b := &s.Bodies[i]
		if !b.Pos.IsFinite() {
			continue
		}
		r := bodyRadius(s, b)
		e := geom.Vec3{X: r, Y: r, Z: r}
		lo, hi = lo.Min(b.Pos.Sub(e)), hi.Max(b.Pos.Add(e))
		n++
	}
	limit := math.Inf(1)
	if n > 0 {
		limit = 10 * math.Max(hi.Sub(lo).Norm(), 1e-3)
	}
	for i := range s.Walls {
		w := &s.Walls[i]
		if !w.Enabled || w.Body < 0 || w.Body >= len(s.Bodies) || w.Mesh < 0 || w.Mesh >= len(s.Meshes) {
			continue
		}
		wl, wh, ok := worldAABB(&s.Meshes[w.Mesh], &s.Bodies[w.Body])
		if !ok || wh.Sub(wl).Norm() > limit {
			continue
		}
		lo, hi = lo.Min(wl), hi.Max(wh)
		n++
	}
	if n == 0 {
		return
	}
	c.FitSphere(lo.Add(hi).Scale(0.5), math.Max(hi.Sub(lo).Norm()/2, 1e-4))
}

// worldAABB bounds mesh m placed at body b.
func worldAABB(m *snap.Mesh, b *snap.Body) (lo, hi geom.Vec3, ok bool) {
	if len(m.Verts) == 0 {
		return
	}
	lo = geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi = lo.Neg()
	for _, v := range m.Verts {
		p := b.Pos.Add(b.Rot.Rotate(v))
		lo, hi = lo.Min(p), hi.Max(p)
	}
	return lo, hi, lo.IsFinite() && hi.IsFinite()
}

// bodyRadius is Body.Radius, or the mesh's max vertex norm when that is unset.
func bodyRadius(s *snap.Snapshot, b *snap.Body) float64 {
	if b.Radius > 0 {
		return b.Radius
	}
	var r2 float64
	if b.Mesh >= 0 && b.Mesh < len(s.Meshes) {
		for _, v := range s.Meshes[b.Mesh].Verts {
			r2 = math.Max(r2, v.Norm2())
		}
	}
	return math.Sqrt(r2)
}

// NearFar returns the clip distances used by Proj.
func (c *Camera) NearFar() (near, far float64) {
	d := math.Max(c.Dist, 1e-6)
	return d * 0.01, d * 500
}

// View returns the world→eye matrix.
func (c *Camera) View() mgl32.Mat4 {
	e := c.Eye()
	_, _, up := c.Basis()
	return mgl32.LookAtV(v32(e), v32(c.Target), v32(up))
}

// Proj returns the perspective projection for a width/height aspect ratio.
func (c *Camera) Proj(aspect float64) mgl32.Mat4 {
	if !(aspect > 0) {
		aspect = 1
	}
	n, f := c.NearFar()
	return mgl32.Perspective(float32(c.FovY), float32(aspect), float32(n), float32(f))
}

// ViewProj returns Proj(aspect)·View().
func (c *Camera) ViewProj(aspect float64) mgl32.Mat4 { return c.Proj(aspect).Mul4(c.View()) }

// Ray returns the world ray through pixel (px, py) of a w×h viewport whose
// origin is the top-left corner (GLFW cursor coordinates); dir is unit.
func (c *Camera) Ray(px, py float64, w, h int) (origin, dir geom.Vec3) {
	if w <= 0 || h <= 0 {
		f, _, _ := c.Basis()
		return c.Eye(), f
	}
	f, r, u := c.Basis()
	t := math.Tan(c.FovY / 2)
	x := (2*px/float64(w) - 1) * t * float64(w) / float64(h)
	y := (1 - 2*py/float64(h)) * t
	return c.Eye(), f.AddScaled(x, r).AddScaled(y, u).Unit()
}

// Project maps world point p to pixel coordinates (top-left origin) of a w×h
// viewport; ok is false behind the eye.
func (c *Camera) Project(p geom.Vec3, w, h int) (x, y float64, ok bool) {
	f, r, u := c.Basis()
	d := p.Sub(c.Eye())
	z := d.Dot(f)
	if z <= 1e-12 || w <= 0 || h <= 0 {
		return 0, 0, false
	}
	t := math.Tan(c.FovY / 2)
	nx := d.Dot(r) / (z * t * float64(w) / float64(h))
	ny := d.Dot(u) / (z * t)
	return (nx + 1) * float64(w) / 2, (1 - ny) * float64(h) / 2, true
}

// PixelSize returns the world length of one pixel at point p in a viewport h pixels high.
func (c *Camera) PixelSize(p geom.Vec3, h int) float64 {
	if h <= 0 {
		return 0
	}
	f, _, _ := c.Basis()
	z := math.Max(p.Sub(c.Eye()).Dot(f), 1e-9)
	return 2 * z * math.Tan(c.FovY/2) / float64(h)
}

func v32(v geom.Vec3) mgl32.Vec3 { return mgl32.Vec3{float32(v.X), float32(v.Y), float32(v.Z)} }
