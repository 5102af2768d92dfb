package scene

import (
	"bufio"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"grainlab/sim/body"
	"grainlab/sim/law"
)

// MaxBodies bounds the bodies of a scene (explicit plus generated, and each
// generator's count): a hard cap beside the memory estimate of Build, which
// usually refuses far fewer (see BodyBytes).
const MaxBodies = 10_000_000

// Per-body memory of a running world, measured with runtime.MemStats on the
// built-in scenes after Build, integrate.Start and three steps (heap growth
// from 200 to 800 generated bodies): spheres 1.8 KB, cubes (8 vertices)
// 4.4 KB, tetrapods (28 vertices) 10.6 KB per body; rounded up.
const (
	smoothBodyBytes = 2 << 10 // a sphere or superquadric and its lists
	polyBodyBytes   = 2 << 10 // a polyhedron's body, broad-phase and pair entries
	polyVertexBytes = 320     // per vertex of its shape: posed vertices, normals, feature boxes
)

// BodyBytes estimates the memory one body of the given kind takes in a
// running world (verts: its polyhedron's vertex count; 0 for smooth bodies).
func BodyBytes(kind body.Kind, verts int) float64 {
	if kind != body.Polyhedral {
		return smoothBodyBytes
	}
	return polyBodyBytes + polyVertexBytes*float64(verts)
}

// fallbackMemory is the memory assumed when /proc/meminfo cannot be read.
const fallbackMemory = 8 << 30

// MemoryLimit returns the bytes a scene's bodies may take: half of the
// physical memory (MemTotal of /proc/meminfo), or half of 8 GiB when that
// cannot be read.
func MemoryLimit() float64 {
	total := float64(fallbackMemory)
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) >= 2 && fs[0] == "MemTotal:" {
				if kb, err := strconv.ParseFloat(fs[1], 64); err == nil && kb > 0 {
					total = kb * 1024
				}
				break
			}
		}
		f.Close()
	}
	return total / 2
}

// memoryLimit is MemoryLimit, replaceable in tests.
var memoryLimit = MemoryLimit

// memory refuses, before any body is allocated, a scene whose bodies would
// take more than MemoryLimit by BodyBytes, naming the largest generator.
func (b *builder) memory() error {
	total, bytes := len(b.s.Bodies), 0.0
	for _, bs := range b.s.Bodies {
		n, err := b.bodyBytes(bs.Shape, bs.Path+".shape")
		if err != nil {
			return err
		}
		bytes += n
	}
	big, bigBytes := -1, 0.0
	for i, g := range b.s.Generators {
		if g.Count <= 0 {
			continue
		}
		n, err := b.bodyBytes(g.Shape, g.Path+".shape")
		if err != nil {
			return err
		}
		total += g.Count
		bytes += n * float64(g.Count)
		if n*float64(g.Count) > bigBytes {
			big, bigBytes = i, n*float64(g.Count)
		}
	}
	path := "bodies"
	if big >= 0 {
		path = b.s.Generators[big].Path + ".count"
	}
	if total > MaxBodies {
		return b.s.Errorf(path, "%d bodies in all, more than the %d a scene may have", total, MaxBodies)
	}
	if lim := memoryLimit(); bytes > lim {
		return b.s.Errorf(path, "%d bodies would take about %.3g GB, more than the %.3g GB allowed (half of the physical memory)",
			total, bytes/1e9, lim/1e9)
	}
	return nil
}

// bodyBytes is BodyBytes for a body of the named shape.
func (b *builder) bodyBytes(shapeName, refPath string) (float64, error) {
	if ss, ok, err := b.smoothShape(shapeName, refPath); err != nil {
		return 0, err
	} else if ok {
		return BodyBytes(ss.kind, 0), nil
	}
	p, err := b.shape(shapeName, refPath)
	if err != nil {
		return 0, err
	}
	return BodyBytes(body.Polyhedral, len(p.Verts)), nil
}

// criticalStep refuses a contact law so stiff for the lightest body of a
// material that its critical step is below integrator.dt_min, so that the
// run could not resolve a single contact. The critical step is
// Δt_c = 2√(m_c/k_c) (S0 §2.4.7, law.Normal.CriticalDt) with m_c the body's
// mass (the larger equivalent mass, against a wall: the lenient bound) and
// k_c the law's stiffness: for the barrier law (S0 eq. 49–51) its tangent
// at the switch gap f·ḡ, the stiffest gap of part (i) and where the barrier
// takes over with the same slope (eq. 51); for the penalty laws ε1 (linear)
// or the Hertz tangent at a gap of 0; for smooth laws k_n (Hooke, S2 eq. 20)
// or the Hertz tangent at an overlap of 1% of the body's volume-equivalent
// radius. The cd integrator (S3) does not step on the laws and is not checked.
func (b *builder) criticalStep() error {
	w := b.w
	if b.s.Integrator.Name == "cd" {
		return nil
	}
	type group struct {
		mat    int
		smooth bool
		bd     *body.Body // the lightest
	}
	var groups []group // first-seen order, for a deterministic error; a few (materials × 2): a list, not a map
	used := make([]bool, len(w.Materials))
	for i := range w.NumBodies() {
		bd := w.BodyRec(i) // static fields only (a sphere block's template: its first sphere's name)
		if bd.Material >= 0 && bd.Material < len(used) {
			used[bd.Material] = true
		}
		if bd.Fixed || bd.Wall >= 0 {
			continue
		}
		k := slices.IndexFunc(groups, func(g group) bool { return g.mat == bd.Material && g.smooth == (bd.Kind != body.Polyhedral) })
		switch {
		case k < 0:
			groups = append(groups, group{bd.Material, bd.Kind != body.Polyhedral, bd})
		case bd.Mass() < groups[k].bd.Mass():
			groups[k].bd = bd
		}
	}
	dtMin := w.Settings.DtMin
	for _, g := range groups {
		bd := g.bd
		for other := range w.Materials {
			if !used[other] {
				continue
			}
			p := w.Params(g.mat, other)
			var k float64
			if g.smooth {
				if !p.HasSmooth {
					continue
				}
				sm := p.Smooth
				r := bd.RVol()
				k, _, _ = sm.Stiffness(0.01*r, bd.Mass(), r)
			} else {
				if !p.HasPoly {
					continue
				}
				n := p.Normal
				switch n.Kind {
				case law.Barrier:
					k = n.Stiffness(n.F * n.GBar)
				default:
					k = n.Stiffness(0)
				}
			}
			if !(k > 0) {
				continue
			}
			dt := 2 * math.Sqrt(bd.Mass()/k) // S0 §2.4.7: Δt_c = 2√(m_c/k_c)
			if dt < dtMin {
				return b.s.Errorf(b.lawPath(g.mat, other),
					"contact %s–%s: critical step 2√(m/k) = 2√(%.3g kg / %.3g N/m) = %.3g s for body %q is below integrator.dt_min = %.3g s: lower the stiffness or dt_min",
					w.Materials[g.mat], w.Materials[other], bd.Mass(), k, dt, bd.Name, dtMin)
			}
		}
	}
	return nil
}

// lawPath is the key path of the law between two materials: the pair entry
// that sets it, or contact.default.
func (b *builder) lawPath(ma, mb int) string {
	w := b.w
	for _, pr := range b.s.Contact.Pairs {
		x, y := w.Material(pr.Between[0]), w.Material(pr.Between[1])
		if x == ma && y == mb || x == mb && y == ma {
			return pr.Path
		}
	}
	return b.s.Contact.Default.Path
}
