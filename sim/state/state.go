// Package state saves and restores the kinematic state of every body
// (final.json of a run), so a run can continue from a saved state and
// benchmarks can start from a packed configuration.
package state

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"

	"grainlab/assets"

	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// Body is one body's state.
type Body struct {
	Name            string     `json:"name"`
	Position        [3]float64 `json:"position"`
	Quaternion      [4]float64 `json:"quaternion"` // w, x, y, z
	Velocity        [3]float64 `json:"velocity"`
	AngularVelocity [3]float64 `json:"angular_velocity"`
}

// File is the content of final.json.
type File struct {
	Scene  string  `json:"scene"`
	Time   float64 `json:"time"`
	Steps  int64   `json:"steps"`
	Bodies []Body  `json:"bodies"`
}

func arr(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

func vec(a [3]float64) geom.Vec3 { return geom.V(a[0], a[1], a[2]) }

// Capture returns the state of every body that is not a wall.
func Capture(w *world.World) File {
	f := File{Scene: w.Name, Time: w.Time, Steps: w.Steps}
	for _, b := range w.Bodies {
		if b.Wall >= 0 {
			continue
		}
		f.Bodies = append(f.Bodies, Body{
			Name: b.Name, Position: arr(b.X), Quaternion: [4]float64{b.Q.W, b.Q.X, b.Q.Y, b.Q.Z},
			Velocity: arr(b.V), AngularVelocity: arr(b.W),
		})
	}
	return f
}

// Write writes the state of w as indented JSON to path.
func Write(path string, w *world.World) error {
	data, err := json.MarshalIndent(Capture(w), "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Read reads a state file. A path "builtin:NAME" reads states/NAME.json
// from the embedded assets.
func Read(path string) (File, error) {
	var f File
	var data []byte
	var err error
	if name, ok := strings.CutPrefix(path, "builtin:"); ok {
		data, err = fs.ReadFile(assets.FS, "states/"+name+".json")
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Apply sets every named body of w to the state in f and sets the world's
// time. Every body of f must exist in w by name and every number must be
// finite; nothing changes on error.
func Apply(w *world.World, f File, source string) error {
	idx := make([]int, len(f.Bodies))
	for i, b := range f.Bodies {
		idx[i] = w.BodyByName(b.Name)
		if idx[i] < 0 {
			return fmt.Errorf("%s: bodies[%d]: no body named %q in scene %q", source, i, b.Name, w.Name)
		}
		all := append(append(append(b.Position[:], b.Quaternion[:]...), b.Velocity[:]...), b.AngularVelocity[:]...)
		for _, x := range all {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("%s: bodies[%d] (%s): non-finite value", source, i, b.Name)
			}
		}
		q := geom.Quat{W: b.Quaternion[0], X: b.Quaternion[1], Y: b.Quaternion[2], Z: b.Quaternion[3]}
		if math.Abs(q.Norm()-1) > 1e-6 {
			return fmt.Errorf("%s: bodies[%d] (%s): quaternion is not unit (|q| = %g)", source, i, b.Name, q.Norm())
		}
	}
	for i, b := range f.Bodies {
		bd := w.Bodies[idx[i]]
		bd.X = vec(b.Position)
		bd.Q = geom.Quat{W: b.Quaternion[0], X: b.Quaternion[1], Y: b.Quaternion[2], Z: b.Quaternion[3]}.Normalize()
		bd.V, bd.W = vec(b.Velocity), vec(b.AngularVelocity)
	}
	w.Time = f.Time
	return nil
}
