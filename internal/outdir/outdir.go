// Package outdir writes a run's output files so that a reader never sees a
// half-written result: every file is written to a temporary name in the
// target directory first and renamed into place only when all succeeded.
package outdir

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// File is one output file: a name relative to the directory and its content.
type File struct {
	Name string
	Data []byte
}

// Write creates dir if needed and writes all files; on any error it removes
// the temporaries it made and leaves the directory as it was.
func Write(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	var temps []string
	cleanup := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	for _, f := range files {
		target := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			cleanup()
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(f.Name)+".tmp-*")
		if err != nil {
			cleanup()
			return fmt.Errorf("output %s: %w", target, err)
		}
		temps = append(temps, tmp.Name())
		_, werr := tmp.Write(f.Data)
		if werr == nil {
			werr = tmp.Chmod(0o644) // CreateTemp makes 0600; outputs are for sharing
		}
		cerr := tmp.Close()
		if werr != nil || cerr != nil {
			cleanup()
			return fmt.Errorf("output %s: write failed: %v %v", target, werr, cerr)
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			cleanup()
			return fmt.Errorf("output %s: %w", f.Name, err)
		}
	}
	return nil
}

// Names lists the file names, sorted, for messages.
func Names(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Name
	}
	sort.Strings(out)
	return out
}
