package vtk

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"grainlab/sim/snap"
)

// cutWriter is a file that takes n bytes and then fails as a full disk
// does (ENOSPC after a short write), or, with block, writes its n bytes,
// creates the file ready and blocks (a process killed mid-write).
type cutWriter struct {
	f     *os.File
	n     int
	block bool
	ready string
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if len(p) <= c.n {
		c.n -= len(p)
		return c.f.Write(p)
	}
	k, _ := c.f.Write(p[:c.n])
	c.n = 0
	if c.block {
		c.f.Sync()
		os.WriteFile(c.ready, nil, 0o644)
		time.Sleep(time.Hour) // killed here
	}
	return k, syscall.ENOSPC
}

func (c *cutWriter) Close() error { return c.f.Close() }

// cutFrames makes createFrame cut the file-th file it creates from now on
// after n bytes (block: and wait to be killed, ready its sign).
func cutFrames(t testing.TB, file, n int, block bool, ready string) {
	old := createFrame
	k := 0
	createFrame = func(path string) (io.WriteCloser, error) {
		w, err := old(path)
		if err != nil || k != file {
			k++
			return w, err
		}
		k++
		return &cutWriter{f: w.(*os.File), n: n, block: block, ready: ready}, nil
	}
	if t != nil {
		t.Cleanup(func() { createFrame = old })
	}
}

// frames are n copies of the mixed snapshot at times 0, 0.1, 0.2, …, the
// first plain ones without a sphere (their spheres as tetrahedra).
func frames(n, plain int) []*snap.Snapshot {
	var fs []*snap.Snapshot
	for k := range n {
		f := *mixed()
		f.Stats.Time = 0.1 * float64(k)
		if k < plain {
			f.Bodies = slices.Clone(f.Bodies)
			for i := range f.Bodies {
				if m := f.Bodies[i].Mesh; m == 1 || m == 3 {
					f.Bodies[i].Mesh = 0
				}
			}
		}
		fs = append(fs, &f)
	}
	return fs
}

// checkSeries checks that dir (DIR/vtk) holds exactly the frames 0…n−1 of
// each collection (spheres: when spheres), every one complete (DecodeVTP:
// the header, every array at its offset with its size, the end), each
// collection listing exactly them, and no other file but extra (complete
// too).
func checkSeries(t *testing.T, dir string, n int, spheres bool, extra ...string) {
	t.Helper()
	want := slices.Clone(extra)
	for _, s := range series {
		if s == "spheres" && !spheres {
			continue
		}
		want = append(want, s+".pvd")
		files, times := pvdTimes(t, filepath.Join(dir, s+".pvd"))
		if len(files) != n {
			t.Errorf("%s.pvd lists %d frames, want %d", s, len(files), n)
		}
		for k := range files {
			if files[k] != frameName(s, k) || times[k] != 0.1*float64(k) {
				t.Errorf("%s.pvd: frame %d is %s at %g", s, k, files[k], times[k])
			}
		}
		for k := range n {
			want = append(want, frameName(s, k))
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
		if strings.HasSuffix(e.Name(), ".vtp") {
			if _, err := DecodeVTP(filepath.Join(dir, e.Name())); err != nil {
				t.Errorf("a frame file a reader sees is broken: %v", err)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
}

// A frame cut by a full disk (a write fails after n bytes, in any of the
// frame's files, the spheres' back-filled empty pieces included) leaves
// the earlier frames and the collections as they were, and no frame file
// a reader or a file-series glob would take: the error names the frame,
// its time, the file and the cause. Written straight to the frames' names
// (before), the cut file stayed (DecodeVTP: past the end).
func TestFrameCutLeavesSeries(t *testing.T) {
	for _, late := range []bool{false, true} {
		for file := range 5 {
			for _, n := range []int{0, 100, 5000} {
				t.Run(fmt.Sprintf("late=%v/file=%d/n=%d", late, file, n), func(t *testing.T) {
					if !late && file == 4 {
						t.Skip("four files a frame")
					}
					plain := 0
					if late {
						plain = 2 // spheres from the third frame: two empty pieces back-filled
					}
					fs := frames(3, plain)
					dir := t.TempDir()
					s, err := Create(dir)
					if err != nil {
						t.Fatal(err)
					}
					for _, f := range fs[:2] {
						if err := s.Write(f); err != nil {
							t.Fatal(err)
						}
					}
					cutFrames(t, file, n, false, "")
					err = s.Write(fs[2])
					if err == nil {
						if n == 5000 {
							return // the file was smaller
						}
						t.Fatal("a cut frame wrote no error")
					}
					if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "frame 2 (t = 0.2 s), ") ||
						!strings.Contains(err.Error(), ".vtp") {
						t.Fatalf("error %q: want frame 2, its time, its file and ENOSPC", err)
					}
					t.Log(err)
					checkSeries(t, filepath.Join(dir, Subdir), 2, !late)
				})
			}
		}
	}
}

// A run killed while it writes a frame (here: in the middle of frame 2's
// contacts file, the file flushed to disk) leaves a directory a reader
// takes whole: the collections list frames 0 and 1, every frame file is
// complete (frame 2's bodies too, listed by no collection); the cut bytes are only in a hidden temporary file, which the
// next series in the directory removes. Before, contacts_000002.vtp was
// left cut (a file-series glob shows it).
func TestFrameKilledMidWrite(t *testing.T) {
	if dir := os.Getenv("GRAINLAB_VTK_KILL_DIR"); dir != "" {
		killedWriter(dir) // the child: never returns
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFrameKilledMidWrite$")
	cmd.Env = append(os.Environ(), "GRAINLAB_VTK_KILL_DIR="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, "ready")
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			cmd.Process.Kill()
			t.Fatal("the writer never reached frame 2")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	os.Remove(ready)
	vd := filepath.Join(dir, Subdir)
	ents, _ := os.ReadDir(vd)
	var tmp []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			tmp = append(tmp, e.Name())
		}
	}
	if !slices.Equal(tmp, []string{".contacts_000002.vtp.tmp"}) {
		t.Fatalf("hidden files %v, want the cut contacts frame's", tmp)
	}
	os.Remove(filepath.Join(vd, tmp[0]))
	checkSeries(t, vd, 2, true, "bodies_000002.vtp") // complete, listed by none
	os.WriteFile(filepath.Join(vd, tmp[0]), []byte("cut"), 0o644)
	if _, err := Create(dir); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(vd); len(ents) != 0 {
		t.Errorf("a new series left %d files of the killed one (%s…)", len(ents), ents[0].Name())
	}
}

// killedWriter writes frames 0 and 1 into dir, then frame 2 with its
// contacts file cut after 300 bytes, and waits to be killed there.
func killedWriter(dir string) {
	fs := frames(3, 0)
	s, err := Create(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, f := range fs[:2] {
		if err := s.Write(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	cutFrames(nil, 1, 300, true, filepath.Join(dir, "ready"))
	s.Write(fs[2])
	os.Exit(2) // not reached
}
