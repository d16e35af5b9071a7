package outdir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// lockFile, in an output directory, is locked by every process writing
// it: exclusively by one writing the whole directory, shared by each
// writing a part (which also locks its part's file exclusively). The locks
// are advisory locks of the operating system: a process that dies, however
// killed, releases them.
const lockFile = ".netsched.lock"

func partLockFile(part string) string { return ".netsched-" + part + ".lock" }

func isLockFile(name string) bool {
	return name == lockFile || strings.HasPrefix(name, ".netsched-") && strings.HasSuffix(name, ".lock")
}

// lock is what a Dir holds: the directory's lock, and its part's.
type lock struct {
	dir, part *os.File
}

// acquire locks dir for the whole directory (part "") or for one part.
func acquire(dir, part string) (*lock, error) {
	inUse := func(what string) error {
		return fmt.Errorf("output directory %s is %w (%s); wait for it to finish, or choose another output directory", dir, ErrInUse, what)
	}
	l := &lock{}
	var err error
	if l.dir, err = lockPath(filepath.Join(dir, lockFile), part != ""); err != nil {
		if err == errLocked {
			return nil, inUse("it holds " + lockFile)
		}
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	if part != "" {
		if l.part, err = lockPath(filepath.Join(dir, partLockFile(part)), false); err != nil {
			l.dir.Close()
			if err == errLocked {
				return nil, inUse("writing " + part)
			}
			return nil, fmt.Errorf("output directory %s: %w", dir, err)
		}
	}
	return l, nil
}

// lockPath opens and locks the file at path, creating it. A file removed
// by its previous holder between our open and our lock is opened again, so
// that two processes never hold locks on two different files of one name.
func lockPath(path string, shared bool) (*os.File, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := flock(f, shared); err != nil {
			f.Close()
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
		if err1 != nil {
			return nil, err1
		}
	}
}

// release removes the lock files nobody else can hold, then unlocks.
func (l *lock) release() {
	if l.part != nil {
		os.Remove(l.part.Name())
		l.part.Close()
		l.dir.Close() // shared: other parts may hold it
		return
	}
	os.Remove(l.dir.Name())
	l.dir.Close()
}
