package outdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// RunMarker is the file every run (and coflow replay) writes.
const RunMarker = "summary.json"

// Options say how Open takes an output directory.
type Options struct {
	// Force allows writing into a directory that holds files netsched did
	// not write (and no output of netsched's). It writes netsched's files
	// beside them; it never replaces or removes them.
	Force bool
	// Part, when set, names the part of the output this process writes (a
	// sweep shard's "part-2-of-8"): processes writing different parts may
	// share the directory; one writing the same part, or the whole
	// directory, is refused while this one runs.
	Part string
}

// Dir is an output directory held by this process: locked against other
// netsched processes until Close.
type Dir struct {
	path    string
	created bool
	lock    *lock
}

// ErrInUse is wrapped by Open's error when another process holds the
// directory.
var ErrInUse = errors.New("in use by another netsched process")

// Open takes path as an output directory, creating it if needed. A
// symbolic link is followed (its target is written; the link stays). It
// refuses a directory that holds files netsched did not write and nothing
// netsched did, unless opts.Force; and one another netsched process is
// writing. Holding the whole directory, it removes the temporaries of
// writers that were killed. Commands call it before their long work, so
// that a refusal comes first.
func Open(path string, opts Options) (*Dir, error) {
	if path == "" {
		return nil, errors.New("no output directory given")
	}
	existed, err := checkIsDir(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("output directory %s: %w", path, err)
	}
	d := &Dir{path: path, created: !existed}
	if d.lock, err = acquire(path, opts.Part); err != nil {
		d.Close()
		return nil, err
	}
	if opts.Part == "" {
		removeTemporaries(path)
		removeOldSwapDirs(path)
	}
	if !opts.Force {
		if err := checkNetschedsOrEmpty(path); err != nil {
			d.Close()
			return nil, err
		}
	}
	// From now on the directory is netsched's output, even if this process
	// is killed before it writes a file (a sweep's cells come first).
	if err := appendManifest(path, nil); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// checkIsDir reports whether path exists, and refuses one that is not a
// directory (or a link to one).
func checkIsDir(path string) (bool, error) {
	st, err := os.Stat(path) // follows a link
	switch {
	case os.IsNotExist(err):
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			return false, fmt.Errorf("output directory %s is a link to %s, which does not exist; create it, or choose another output directory", path, target)
		}
		return false, nil
	case err != nil:
		return false, fmt.Errorf("output directory %s: %w", path, err)
	case !st.IsDir():
		return false, fmt.Errorf("output directory %s is a file, not a directory; choose another output directory", path)
	}
	return true, nil
}

// checkNetschedsOrEmpty refuses a directory holding only files netsched
// did not write.
func checkNetschedsOrEmpty(path string) error {
	if _, ok, err := readManifest(path); ok || err != nil || hasMarker(path) {
		return err
	}
	foreign, err := foreignFiles(path)
	if err != nil || len(foreign) == 0 {
		return err
	}
	return fmt.Errorf("output directory %s holds files netsched did not write (%s) and no output of netsched's; choose another output directory, or pass --force to write beside them (netsched never replaces or removes files it did not write)",
		path, listNames(foreign))
}

// removeOldSwapDirs removes the directories .NAME.new-* that netsched
// versions which replaced an output directory as a whole left beside it
// when killed; they only ever held netsched's files. A .NAME.old-* (the
// previous content, perhaps a forced user directory) is left alone unless
// it is a netsched run.
func removeOldSwapDirs(path string) {
	parent, base := filepath.Split(filepath.Clean(path))
	for _, kind := range []string{".new-", ".old-"} {
		found, _ := filepath.Glob(filepath.Join(parent, "."+base+kind+"*"))
		for _, d := range found {
			if st, err := os.Lstat(d); err != nil || !st.IsDir() {
				continue
			}
			if kind == ".old-" && !onlyRunFiles(d) {
				continue
			}
			os.RemoveAll(d)
		}
	}
}

// onlyRunFiles reports whether dir holds a run (summary.json) and no
// subdirectory: an earlier run's directory, set aside.
func onlyRunFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil || !hasMarker(dir) {
		return false
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			return false
		}
	}
	return true
}

// Path is the directory as given to Open.
func (d *Dir) Path() string { return d.path }

// Write writes files into the directory (names relative to it), replacing
// only files netsched wrote; see the package Write.
func (d *Dir) Write(files []File) error {
	return write(d.path, files, true)
}

// Replace makes files a run's whole output at the top of the directory: it
// writes them, then, if the directory held a run (RunMarker), removes the
// files netsched wrote there earlier that files does not contain (that
// run's tasks.csv, say). The user's files stay, and so do those of another
// kind of output (a sweep's table). A failure before the new files are in
// place leaves the previous ones as they were.
func (d *Dir) Replace(files []File) error {
	listed, _, err := readManifest(d.path)
	if err != nil {
		return err
	}
	st, err := os.Lstat(filepath.Join(d.path, RunMarker))
	heldRun := err == nil && st.Mode().IsRegular()
	if err := d.Write(files); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, f := range files {
		if n := filepath.Clean(f.Name); !strings.ContainsRune(n, filepath.Separator) {
			keep[n] = true
		}
	}
	for n := range listed {
		if heldRun && !keep[n] {
			if err := removeFile(filepath.Join(d.path, n)); err != nil {
				return err
			}
			continue
		}
		keep[n] = true
	}
	var names []string
	for n := range keep {
		names = append(names, n)
	}
	return writeManifest(d.path, names)
}

// removeFile removes a regular file, if it is there.
func removeFile(path string) error {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	return nil
}

// Close releases the directory; one that Open created and nothing was
// written into is removed.
func (d *Dir) Close() error {
	if d.lock != nil {
		d.lock.release()
		d.lock = nil
	}
	if d.created {
		if names, _, _ := readManifest(d.path); len(names) == 0 {
			os.Remove(filepath.Join(d.path, ManifestFile))
		}
		os.Remove(d.path) // only if empty
	}
	return nil
}
