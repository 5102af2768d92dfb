package state

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// A full disk (/dev/full: every write fails with ENOSPC) stops the stream
// with an I/O error that Write returns as it is, without the whole-file
// path's retry (which would build the whole state in memory again only to
// fail the same way: at 10⁶ spheres several GB).
func TestWriteFullDiskNoRetry(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	w := build(t, "sphere-box-soft")
	to(t, w, 0.05, 0.05)
	w.SyncBodies()
	err := writeStream("/dev/full", w, false)
	var ioe *ioError
	if !errors.As(err, &ioe) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("writeStream to /dev/full: %v (%T), want an ioError with ENOSPC", err, err)
	}
	err = Write("/dev/full", w)
	if !errors.Is(err, syscall.ENOSPC) || errors.As(err, &ioe) {
		t.Fatalf("Write to /dev/full: %v (%T), want the file's ENOSPC error itself", err, err)
	}
}
