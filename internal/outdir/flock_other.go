//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package outdir

import (
	"errors"
	"os"
)

var errLocked = errors.New("locked")

// flock does nothing where advisory locks are not available: output
// directories are then not protected against concurrent writers.
func flock(f *os.File, shared bool) error { return nil }
