package audit

import (
	"math/big"

	"grainlab/sim/geom"
)

// Exact orientation predicates: a floating-point evaluation with Shewchuk's
// static error bound, falling back to exact rational arithmetic when the
// result is too close to zero to trust. The sign returned is always the sign
// of the exact determinant of the float64 inputs.

const (
	epsilon      = 1.0 / (1 << 53)
	o3dErrBoundA = (7 + 56*epsilon) * epsilon
	ccwErrBoundA = (3 + 16*epsilon) * epsilon
)

// orient3d returns the sign of det[b−a, c−a, d−a] = ((b−a)×(c−a))·(d−a):
// +1 when d lies on the side the normal of the triangle (a, b, c) points to.
func orient3d(a, b, c, d geom.Vec3) int {
	adx, bdx, cdx := a.X-d.X, b.X-d.X, c.X-d.X
	ady, bdy, cdy := a.Y-d.Y, b.Y-d.Y, c.Y-d.Y
	adz, bdz, cdz := a.Z-d.Z, b.Z-d.Z, c.Z-d.Z
	bdxcdy, cdxbdy := bdx*cdy, cdx*bdy
	cdxady, adxcdy := cdx*ady, adx*cdy
	adxbdy, bdxady := adx*bdy, bdx*ady
	det := adz*(bdxcdy-cdxbdy) + bdz*(cdxady-adxcdy) + cdz*(adxbdy-bdxady)
	perm := (abs(bdxcdy)+abs(cdxbdy))*abs(adz) + (abs(cdxady)+abs(adxcdy))*abs(bdz) +
		(abs(adxbdy)+abs(bdxady))*abs(cdz)
	// det is Shewchuk's det[a−d, b−d, c−d] = −det[b−a, c−a, d−a].
	if det > o3dErrBoundA*perm {
		return -1
	}
	if -det > o3dErrBoundA*perm {
		return 1
	}
	return -orient3dExact(a, b, c, d)
}

// orient3dExact returns the exact sign of det[a−d, b−d, c−d].
func orient3dExact(a, b, c, d geom.Vec3) int {
	var m [3][3]big.Rat
	var dv [3]big.Rat
	dv[0].SetFloat64(d.X)
	dv[1].SetFloat64(d.Y)
	dv[2].SetFloat64(d.Z)
	for r, p := range [3]geom.Vec3{a, b, c} {
		for k, x := range [3]float64{p.X, p.Y, p.Z} {
			m[r][k].SetFloat64(x)
			m[r][k].Sub(&m[r][k], &dv[k])
		}
	}
	var t1, t2, acc, term big.Rat
	for k := 0; k < 3; k++ {
		i, j := (k+1)%3, (k+2)%3
		t1.Mul(&m[1][i], &m[2][j])
		t2.Mul(&m[1][j], &m[2][i])
		t1.Sub(&t1, &t2)
		term.Mul(&m[0][k], &t1)
		acc.Add(&acc, &term)
	}
	return acc.Sign()
}

// orient2d returns the sign of (b−a)×(c−a): +1 when a, b, c turn counter-clockwise.
func orient2d(ax, ay, bx, by, cx, cy float64) int {
	detl := (ax - cx) * (by - cy)
	detr := (ay - cy) * (bx - cx)
	det := detl - detr
	bound := ccwErrBoundA * (abs(detl) + abs(detr))
	if det > bound {
		return 1
	}
	if -det > bound {
		return -1
	}
	var v [6]big.Rat
	for i, x := range [6]float64{ax, ay, bx, by, cx, cy} {
		v[i].SetFloat64(x)
	}
	var p, q, l, r big.Rat
	p.Sub(&v[0], &v[4])
	q.Sub(&v[3], &v[5])
	l.Mul(&p, &q)
	p.Sub(&v[1], &v[5])
	q.Sub(&v[2], &v[4])
	r.Mul(&p, &q)
	l.Sub(&l, &r)
	return l.Sign()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
