package geom

import "math"

// Mat3 is a 3×3 matrix stored row-major: M[r][c].
type Mat3 [3][3]float64

// Identity returns the 3×3 identity.
func Identity() Mat3 { return Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// Diag returns diag(a, b, c).
func Diag(a, b, c float64) Mat3 { return Mat3{{a, 0, 0}, {0, b, 0}, {0, 0, c}} }

// Skew returns skew(a), the matrix with skew(a)·b = a×b.
func Skew(a Vec3) Mat3 {
	return Mat3{{0, -a.Z, a.Y}, {a.Z, 0, -a.X}, {-a.Y, a.X, 0}}
}

// Outer returns a⊗b.
func Outer(a, b Vec3) Mat3 {
	return Mat3{
		{a.X * b.X, a.X * b.Y, a.X * b.Z},
		{a.Y * b.X, a.Y * b.Y, a.Y * b.Z},
		{a.Z * b.X, a.Z * b.Y, a.Z * b.Z},
	}
}

// Rows returns the matrix whose rows are a, b, c.
func Rows(a, b, c Vec3) Mat3 {
	return Mat3{{a.X, a.Y, a.Z}, {b.X, b.Y, b.Z}, {c.X, c.Y, c.Z}}
}

// Cols returns the matrix whose columns are a, b, c.
func Cols(a, b, c Vec3) Mat3 { return Rows(a, b, c).T() }

// Col returns column j.
func (m Mat3) Col(j int) Vec3 { return Vec3{m[0][j], m[1][j], m[2][j]} }

// Row returns row i.
func (m Mat3) Row(i int) Vec3 { return Vec3{m[i][0], m[i][1], m[i][2]} }

// MulV returns m·v.
func (m Mat3) MulV(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// TMulV returns mᵀ·v.
func (m Mat3) TMulV(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[1][0]*v.Y + m[2][0]*v.Z,
		m[0][1]*v.X + m[1][1]*v.Y + m[2][1]*v.Z,
		m[0][2]*v.X + m[1][2]*v.Y + m[2][2]*v.Z,
	}
}

// Mul returns m·n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

// T returns mᵀ.
func (m Mat3) T() Mat3 {
	return Mat3{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}
}

// Add returns m + n.
func (m Mat3) Add(n Mat3) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[i][j] + n[i][j]
		}
	}
	return r
}

// Sub returns m − n.
func (m Mat3) Sub(n Mat3) Mat3 { return m.Add(n.Scale(-1)) }

// Scale returns s·m.
func (m Mat3) Scale(s float64) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = s * m[i][j]
		}
	}
	return r
}

// Trace returns tr(m).
func (m Mat3) Trace() float64 { return m[0][0] + m[1][1] + m[2][2] }

// Det returns det(m).
func (m Mat3) Det() float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// Inv returns m⁻¹ and false when m is singular (|det| below 1e-300).
func (m Mat3) Inv() (Mat3, bool) {
	d := m.Det()
	if math.Abs(d) < 1e-300 {
		return Mat3{}, false
	}
	id := 1 / d
	return Mat3{
		{(m[1][1]*m[2][2] - m[1][2]*m[2][1]) * id, (m[0][2]*m[2][1] - m[0][1]*m[2][2]) * id, (m[0][1]*m[1][2] - m[0][2]*m[1][1]) * id},
		{(m[1][2]*m[2][0] - m[1][0]*m[2][2]) * id, (m[0][0]*m[2][2] - m[0][2]*m[2][0]) * id, (m[0][2]*m[1][0] - m[0][0]*m[1][2]) * id},
		{(m[1][0]*m[2][1] - m[1][1]*m[2][0]) * id, (m[0][1]*m[2][0] - m[0][0]*m[2][1]) * id, (m[0][0]*m[1][1] - m[0][1]*m[1][0]) * id},
	}, true
}

// MaxAbsDiff returns max |m_ij − n_ij|.
func (m Mat3) MaxAbsDiff(n Mat3) float64 {
	d := 0.0
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			d = max(d, math.Abs(m[i][j]-n[i][j]))
		}
	}
	return d
}

// SymEigen returns the eigenvalues (ascending) and the matching unit
// eigenvectors (as columns of the returned matrix) of the symmetric matrix m,
// by cyclic Jacobi rotations.
func (m Mat3) SymEigen() (Vec3, Mat3) {
	a := m
	v := Identity()
	for sweep := 0; sweep < 50; sweep++ {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		if off < 1e-30*(a[0][0]*a[0][0]+a[1][1]*a[1][1]+a[2][2]*a[2][2]+1e-300) {
			break
		}
		for p := 0; p < 2; p++ {
			for q := p + 1; q < 3; q++ {
				if a[p][q] == 0 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				var j Mat3 = Identity()
				j[p][p], j[q][q], j[p][q], j[q][p] = c, c, s, -s
				a = j.T().Mul(a).Mul(j)
				v = v.Mul(j)
			}
		}
	}
	ev := [3]float64{a[0][0], a[1][1], a[2][2]}
	idx := [3]int{0, 1, 2}
	for i := 0; i < 3; i++ {
		for k := i + 1; k < 3; k++ {
			if ev[idx[k]] < ev[idx[i]] {
				idx[i], idx[k] = idx[k], idx[i]
			}
		}
	}
	vals := Vec3{ev[idx[0]], ev[idx[1]], ev[idx[2]]}
	vecs := Cols(v.Col(idx[0]), v.Col(idx[1]), v.Col(idx[2]))
	if vecs.Det() < 0 { // keep a right-handed frame
		for r := 0; r < 3; r++ {
			vecs[r][2] = -vecs[r][2]
		}
	}
	return vals, vecs
}
